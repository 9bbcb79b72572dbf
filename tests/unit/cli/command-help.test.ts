// The commands that are not one method call have their help in one table (command-help.ts) and
// their runners in another (local-commands.ts): every runner has its help, every help entry is
// a runner or one of the docs commands run.ts answers itself, and no name is a verb's too.
import { expect, test } from "bun:test";
import { COMMAND_HELP, EVENTS_HELP, ASK_HELP, usageFrom } from "../../../lib/cli/command-help.ts";
import { helpEntries } from "../../../lib/cli/help-entries.ts";
import { LOCAL_COMMANDS } from "../../../lib/cli/local-commands.ts";

/** Answered in run.ts before any lookup: they print the help itself, in other forms. */
const DOCS_COMMANDS = ["agent-context", "skill", "completion", "man"];

test("every local command has a help entry, and every help entry runs", () => {
  const helped = COMMAND_HELP.map((entry) => entry.name);
  expect(LOCAL_COMMANDS.map((command) => command.name).filter((name) => !helped.includes(name))).toEqual([]);
  const runnable = [...LOCAL_COMMANDS.map((command) => command.name), ...DOCS_COMMANDS];
  expect(helped.filter((name) => !runnable.includes(name))).toEqual([]);
});

test("no command is named twice, nor like a verb", () => {
  const names = helpEntries().map((entry) => entry.name);
  expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
});

test("a command's usage line is made from its flags: global flags first, a flag's choices shown, then its words", () => {
  expect(EVENTS_HELP.usage).toBe("events [--session NAME] [--types LIST] [--debounce MS] [--count N]");
  expect(ASK_HELP.usage).toBe("ask [--via claude|codex|pi|opencode|gemini] [--timeout MS] PROMPT [-- CLI-ARGS...]");
  expect(usageFrom("x", [{ name: "--go", type: "bool", description: "" }, { name: "--n", type: "int", value: "N", description: "" }], ["--ns"], "FILE")).toBe("x [--ns NAME] [--go] [--n N] FILE");
  // A flag added to a derived command shows in its usage with no second edit.
  expect(usageFrom(EVENTS_HELP.name, [...EVENTS_HELP.flags, { name: "--new", type: "bool", description: "" }], ["--session"])).toEndWith("[--count N] [--new]");
});
