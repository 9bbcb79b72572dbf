// Verbs built from the method table's `cli` entries: a list word takes the words left, and a
// file param (`files`) is resolved against the caller's cwd — or read there, for "json" — by
// the CLI, since the daemon's cwd is not the caller's. A bad file word fails as it did when
// the desktop verbs were written by hand: no-such-file (66) or bad-data (65), naming the path.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseFlags } from "../../../lib/cli/flags.ts";
import { prepare } from "../../../lib/cli/invocation.ts";
import { tableVerb } from "../../../lib/cli/table-verbs.ts";
import { allVerbs, findVerb, type ClientEnv, type Verb } from "../../../lib/cli/verbs.ts";
import { paramFactsOf, TABLE_VERBS } from "../../../lib/protocol/generated/method-facts.ts";
import { thrown } from "../../helpers/errors.ts";

const dir = mkdtempSync(join(tmpdir(), "tw-table-verbs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const client: ClientEnv = { cwd: dir, env: {} };

function verb(name: string): Verb {
  const found = findVerb(name.split(" "));
  if (!found) throw new Error(`no verb ${name}`);
  return found.verb;
}

/** The params the verb sends for these words, as the caller in `client.cwd` gives them. */
function params(name: string, words: string[]): Record<string, unknown> {
  const v = verb(name);
  const args = parseFlags(words, v.flags, v.name, v.positionals[1]);
  const positional = Object.fromEntries((v.positionalParams ?? []).flatMap((param, i) => (i < args.positionals.length ? [[param, args.positionals[i]]] : [])));
  return { ...positional, ...v.params?.(args, client) };
}

test("a path word is resolved against the caller's cwd; an absolute one is kept", () => {
  expect(params("desktop install", ["apps/notes", "--open"])).toEqual({ dir: join(dir, "apps/notes") });
  expect(params("desktop install", ["/srv/app"])).toEqual({ dir: "/srv/app" });
  expect(params("desktop save", ["../desk.json"])).toEqual({ file: join(dir, "..", "desk.json") });
});

test("a list word takes every word left, each resolved; none sets nothing", () => {
  expect(verb("desktop create").positionals).toEqual([0, Infinity]);
  expect(params("desktop create", ["a", "/b", "c/d"])).toEqual({ apps: [join(dir, "a"), "/b", join(dir, "c/d")] });
  expect(params("desktop create", [])).toEqual({});
});

test("a json file word is read relative to the caller's cwd and sent as its JSON", () => {
  writeFileSync(join(dir, "desk.json"), JSON.stringify({ id: "d1", createdAt: 1, apps: [], installed: [] }));
  expect(params("desktop restore", ["desk.json"])).toEqual({ state: { id: "d1", createdAt: 1, apps: [], installed: [] } });
});

test("a json file word that cannot be read, or is not JSON, fails naming the resolved path", () => {
  const missing = thrown(() => params("desktop restore", ["nope.json"]));
  expect(missing.errorName).toBe("no-such-file");
  expect(missing.exitCode).toBe(66);
  expect(missing.message).toBe(`cannot read ${JSON.stringify(join(dir, "nope.json"))}: the state file does not exist (no such file)`);
  writeFileSync(join(dir, "bad.json"), "nope");
  const bad = thrown(() => params("desktop restore", ["bad.json"]));
  expect(bad.errorName).toBe("bad-data");
  expect(bad.exitCode).toBe(65);
  expect(bad.message).toStartWith(`${join(dir, "bad.json")} is not JSON: `);
});

test("a file param set by a flag is resolved too; other flags and words are left as given", () => {
  const v = tableVerb({ verb: "x save", method: "desktop.save", summary: "", words: [], flags: [["file", "--to"], ["desktop", "--desktop"]], autoStart: false, files: { file: "path" } });
  const args = parseFlags(["--to", "out.json", "--desktop", "d1"], v.flags, v.name, 0);
  expect(v.params?.(args, client)).toEqual({ file: join(dir, "out.json") });
  // No list word and no files: the verb builds nothing itself.
  expect(tableVerb({ verb: "x say", method: "desktop.say", summary: "", words: ["text"], flags: [], autoStart: false }).params).toBeUndefined();
});

test("through prepare: the CLI's own cwd, and the usage line names a list word and a json file", () => {
  expect(prepare(["desktop", "save", "s.json"], { mode: "human", help: false, version: false }).params).toEqual({ file: join(process.cwd(), "s.json") });
  expect(verb("desktop create").usage).toBe("desktop create [--open] [--op-timeout MS] [APPS...]");
  expect(verb("desktop restore").usage).toBe("desktop restore [--dry-run] STATE_FILE");
  expect(verb("desktop install").usage).toBe("desktop install [--desktop DESKTOP] [--open] DIR");
});

test("every table verb's list word is its last word and a list param; every file param is its method's", () => {
  for (const entry of TABLE_VERBS) {
    const facts = paramFactsOf(entry.method) ?? {};
    entry.words.forEach((word, i) => {
      if (!word.endsWith("...")) return;
      expect({ verb: entry.verb, word, last: i === entry.words.length - 1, type: facts[word.slice(0, -3)]?.type }).toEqual({ verb: entry.verb, word, last: true, type: "list" });
    });
    for (const param of Object.keys(entry.files ?? {})) expect({ verb: entry.verb, param, known: param in facts }).toEqual({ verb: entry.verb, param, known: true });
  }
});

// findVerb looks a verb up by its name (one word, then two) and makes only that verb: the same
// answer as the first match in help's order only while names are unique and no verb's name is
// the first word of another's.
test("verb names are unique and none is the first word of another; findVerb finds each one as itself", () => {
  const names = allVerbs().map((v) => v.name);
  expect(new Set(names).size).toBe(names.length);
  const firstWords = new Set(names.filter((name) => name.includes(" ")).map((name) => name.split(" ")[0]));
  expect(names.filter((name) => firstWords.has(name))).toEqual([]);
  for (const v of allVerbs()) {
    const found = findVerb([...v.name.split(" "), "x", "--y"]);
    expect({ name: v.name, found: found?.verb, consumed: found?.consumed }).toEqual({ name: v.name, found: v, consumed: v.name.split(" ").length });
    expect(findVerb([...v.name.split(" "), "x"], allVerbs())?.verb).toBe(v);
  }
  expect(findVerb(["snapshots"])).toBeNull();
  expect(findVerb(["daemon"])).toBeNull();
  expect(findVerb([])).toBeNull();
});
