// The commands that are not one method call have their help in one table (command-help.ts) and
// their runners in another (local-commands.ts): every runner has its help, every help entry is
// a runner or one of the docs commands run.ts answers itself, and no name is a verb's too.
import { expect, test } from "bun:test";
import { COMMAND_HELP } from "../../../lib/cli/command-help.ts";
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
