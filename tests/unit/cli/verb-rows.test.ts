// A verb is declared once, by its row in the method table: flag groups ("@wait", "@aim"), the
// CLI's own flags ("--name"), param flags saying more than their param, `arity`, `rest`, `fill`
// and `usage` — and its logic, if any, in lib/cli/verb-hooks.ts under the row's verb name.
import { expect, test } from "bun:test";
import { waitFlags } from "../../../lib/cli/flag-groups.ts";
import { prepare } from "../../../lib/cli/invocation.ts";
import { tableVerb } from "../../../lib/cli/table-verbs.ts";
import { VERB_HOOKS } from "../../../lib/cli/verb-hooks.ts";
import { allVerbs, findVerb } from "../../../lib/cli/verbs.ts";
import { paramFactsOf, TABLE_VERBS } from "../../../lib/protocol/generated/method-facts.ts";
import { thrown } from "../../helpers/errors.ts";

const globals = { mode: "human" as const, help: false, version: false };
const paramsOf = (words: string[]) => prepare(words, globals).params;

test("every hook names a row of the method table", () => {
  const rows = new Set(TABLE_VERBS.map((entry) => entry.verb));
  for (const name of Object.keys(VERB_HOOKS)) expect({ name, row: rows.has(name) }).toEqual({ name, row: true });
});

test("every row flag is a param of its method, a known group, or the CLI's own (--name, with a type)", () => {
  for (const entry of TABLE_VERBS) {
    const facts = paramFactsOf(entry.method) ?? {};
    for (const [key, flag] of entry.flags) {
      const kind = key.startsWith("@") ? (["@wait", "@aim"].includes(key) ? "group" : "unknown group")
        : key.startsWith("--") ? (typeof flag === "object" && "type" in flag ? "own" : "own flag without a type")
        : facts[key] ? "param" : "no such param";
      expect({ verb: entry.verb, key, kind }).toEqual({ verb: entry.verb, key, kind: key.startsWith("@") ? "group" : key.startsWith("--") ? "own" : "param" });
    }
  }
});

test("every verb but set-viewport (an AWI-TTY alias, no method row) comes from the table", () => {
  const rows = new Set(TABLE_VERBS.map((entry) => entry.verb));
  expect(allVerbs().filter((verb) => !rows.has(verb.name)).map((verb) => verb.name)).toEqual(["set-viewport"]);
});

test("the @wait group adds the wait flags where the row puts it, and sends them as the method's `wait`", () => {
  const names = findVerb(["click"])!.verb.flags.map((flag) => flag.name);
  expect(names.slice(0, 3)).toEqual(["--rev", "--button", "--modifier"]);
  expect(names.slice(3)).toEqual(waitFlags().map((flag) => flag.name));
  expect(paramsOf(["type", "--wait-text", "$ ", "--cursor", "2,3", "--timeout", "500", "ls"])).toEqual({ text: "ls", wait: { text: ["$ "], cursor: { row: 2, col: 3 }, timeoutMs: 500 } });
  expect(paramsOf(["press", "Enter"])).toEqual({ keys: ["Enter"] });
  const bad = thrown(() => paramsOf(["press", "--cursor", "x", "Enter"]));
  expect({ name: bad.errorName, exit: bad.exitCode, message: bad.message }).toEqual({ name: "usage", exit: 64, message: '--cursor needs ROW,COL, got "x"' });
});

test("the @wait group on a method without a `wait` param (wait itself) leaves the conditions to its hook", () => {
  expect(paramsOf(["wait", "--text", "x", "--print"])).toEqual({ text: ["x"], includeText: true });
});

test("a flag's fill is sent when the flag is absent, and the flag's value when given", () => {
  expect(paramsOf(["lease", "acquire", "--owner", "me"])).toEqual({ owner: "me", ttlMs: 60_000 });
  expect(paramsOf(["lease", "acquire", "--owner", "me", "--ttl", "5"])).toEqual({ owner: "me", ttlMs: 5 });
});

test("the CLI's own flags set no param; a built param flag is documented by its param but set by the hook", () => {
  const exec = findVerb(["exec"])!.verb;
  expect(exec.flags.find((flag) => flag.name === "--propagate")).toMatchObject({ type: "bool", description: "exit with the command's exit code" });
  expect(exec.flags.find((flag) => flag.name === "--propagate")!.param).toBeUndefined();
  expect(exec.flags.find((flag) => flag.name === "--cwd")!.param).toBeUndefined();
  expect(paramsOf(["exec", "--cwd", "sub", "--", "make", "test"])).toEqual({ command: "make test", cwd: `${process.cwd()}/sub` });
});

test("arity many has no upper limit; rest takes -- ARGV; an explicit usage line is kept as written", () => {
  const v = tableVerb({ verb: "x press", method: "press", summary: "", words: ["keys..."], arity: [1, "many"], flags: [], autoStart: false, rest: true, usage: "x press KEY..." });
  expect(v.positionals).toEqual([1, Infinity]);
  expect(v.wantsRest).toBe(true);
  expect(v.usage).toBe("x press KEY...");
  expect(findVerb(["press"])!.verb.positionals).toEqual([1, Infinity]);
});
