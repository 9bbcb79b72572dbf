// From command-line words to a method call: global flags taken out (before `--`, and
// --version only before the verb), the verb and its params, the session and the write lease
// from flags or the environment — the lease on every verb whose method takes one.
import { afterAll, beforeEach, expect, test } from "bun:test";
import { daemonTarget, extractGlobals, prepare, type Globals } from "../../../lib/cli/invocation.ts";
import { allVerbs } from "../../../lib/cli/verbs.ts";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";
import { TAKES_LEASE } from "../../../lib/protocol/generated/method-facts.ts";

const ENV_KEYS = ["TUIWRIGHT_SESSION", "TUIWRIGHT_LEASE", "TUIWRIGHT_NS", "TUIWRIGHT_SOCKET", "XDG_RUNTIME_DIR"] as const;
const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
// Each test starts with none of them set, and the file gives them back as they were.
const unset = () => { for (const key of ENV_KEYS) delete process.env[key]; };
beforeEach(unset);
afterAll(() => {
  unset();
  for (const key of ENV_KEYS) if (saved[key] !== undefined) process.env[key] = saved[key];
});

/** The words as the CLI sees them: global flags first taken out, then the verb prepared. */
function call(words: string[], defaults?: Globals) {
  const { globals, rest } = extractGlobals(words, defaults);
  return { globals, ...prepare(rest, globals) };
}

function usage(run: () => unknown): TuiwrightError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TuiwrightError);
    expect((error as TuiwrightError).errorName).toBe("usage");
    return error as TuiwrightError;
  }
  throw new Error("expected a usage error");
}

test("global flags are taken out anywhere before `--`, in both value forms", () => {
  const { globals, rest } = extractGlobals(["--json", "type", "-s", "work", "hello", "--ns=blue", "--lease", "T1", "--", "--session", "x"]);
  expect(globals).toEqual({ mode: "json", session: "work", namespace: "blue", lease: "T1", help: false, version: false });
  expect(rest).toEqual(["type", "hello", "--", "--session", "x"]);
  expect(extractGlobals(["--plain", "snapshot", "--session=a"]).globals).toMatchObject({ mode: "plain", session: "a" });
  expect(extractGlobals(["snapshot", "-h"]).globals.help).toBe(true);
  expect(usage(() => extractGlobals(["snapshot", "--session"])).message).toBe("--session needs a value");
});

test("--version is ours before the verb and the verb's text after it", () => {
  expect(extractGlobals(["--version"]).globals.version).toBe(true);
  expect(extractGlobals(["-V"]).globals.version).toBe(true);
  const typed = call(["type", "--version"]);
  expect(typed.globals.version).toBe(false);
  expect(typed.params).toEqual({ text: "--version" });
});

test("a batch line starts from the batch's globals, but never inherits --help or --version", () => {
  const defaults: Globals = { mode: "json", session: "outer", namespace: "ns1", help: true, version: true };
  const { globals } = extractGlobals(["snapshot"], defaults);
  expect(globals).toEqual({ mode: "json", session: "outer", namespace: "ns1", help: false, version: false });
  expect(call(["snapshot", "--session", "inner"], defaults).params).toEqual({ session: "inner" });
});

test("the verb's params: positionals counted, flags parsed, unknown verbs refused", () => {
  expect(call(["resize", "100", "30"]).params).toEqual({ cols: 100, rows: 30 });
  expect(call(["press", "C-c", "Enter"]).params).toEqual({ keys: ["C-c", "Enter"] });
  expect(call(["lease", "acquire", "--owner", "me"]).verb.method).toBe("lease.acquire");
  expect(usage(() => call(["frobnicate"])).message).toBe('unknown verb "frobnicate"');
  expect(usage(() => call([])).message).toBe('unknown verb ""');
  const few = usage(() => call(["resize", "100"]));
  expect(few.message).toBe("resize needs 2 argument(s)");
  expect(few.hint).toBe("usage: tuiwright resize [--session NAME] COLS ROWS [--timeout MS]");
  expect(call(["resize", "100", "30", "--timeout", "500"]).params).toEqual({ cols: 100, rows: 30, timeoutMs: 500 });
  expect(usage(() => call(["ping", "extra"])).message).toBe('ping takes no argument(s); got "extra"');
  expect(usage(() => call(["resize", "1", "2", "3"])).message).toBe('resize takes at most 2 argument(s); got "3"');
  // After `--`, words are positionals for a verb that runs no program…
  expect(call(["type", "--", "--json"]).params).toEqual({ text: "--json" });
  // …and more of them than it takes is still refused.
  expect(usage(() => call(["ping", "--", "x"])).message).toBe('ping takes no argument(s); got "x"');
});

test("the session comes from --session, else TUIWRIGHT_SESSION (empty is unset) — never for spawn", () => {
  expect(call(["snapshot"]).params).toEqual({});
  process.env.TUIWRIGHT_SESSION = "from-env";
  expect(call(["snapshot"]).params).toEqual({ session: "from-env" });
  expect(call(["snapshot", "--session", "flag"]).params).toEqual({ session: "flag" });
  expect(call(["spawn", "--", "cat"]).params.session).toBeUndefined();
  expect(call(["spawn", "--session", "named", "--", "cat"]).params.session).toBe("named");
  // Methods without a session param get none (the daemon would refuse an unknown key).
  expect(call(["ping"]).params).toEqual({});
  expect(call(["adapter", "list"]).params).toEqual({});
  process.env.TUIWRIGHT_SESSION = "";
  expect(call(["snapshot"]).params).toEqual({});
});

/** A valid command line for each verb whose method takes the write lease. */
const WRITERS: Record<string, string[]> = {
  kill: [], signal: ["TERM"], resize: ["100", "30"], type: ["hi"], press: ["Enter"], click: ["2", "3"],
  navigate: ["http://example.com/"], back: [], forward: [], reload: [], scroll: ["3"], mouse: ["down", "2", "3"], "set-viewport": ["100", "30"],
  exec: ["--", "ls"], send: ["x"], end: [], reset: [], "lease acquire": ["--owner", "me"], "lease release": [], turn: ["hi"],
};

test("the lease (flag or TUIWRIGHT_LEASE) reaches every verb whose method takes one, and no other", () => {
  const writers = allVerbs().filter((verb) => TAKES_LEASE.has(verb.method)).map((verb) => verb.name);
  expect(writers.toSorted()).toEqual(Object.keys(WRITERS).toSorted()); // a new writer verb needs a line here
  for (const [name, args] of Object.entries(WRITERS)) {
    const words = [...name.split(" "), ...args];
    expect({ name, lease: call(["--lease", "TOKEN", ...words]).params.lease }).toEqual({ name, lease: "TOKEN" });
    process.env.TUIWRIGHT_LEASE = "ENV-TOKEN";
    expect({ name, lease: call(words).params.lease }).toEqual({ name, lease: "ENV-TOKEN" });
    expect({ name, lease: call(["--lease", "FLAG", ...words]).params.lease }).toEqual({ name, lease: "FLAG" });
    delete process.env.TUIWRIGHT_LEASE;
  }
  expect(call(["--lease", "TOKEN", "snapshot"]).params.lease).toBeUndefined();
  expect(call(["--lease", "TOKEN", "wait", "--text", "x"]).params.lease).toBeUndefined();
});

test("lease release without a token says where to give it; an empty TUIWRIGHT_LEASE is no token", () => {
  const error = usage(() => call(["lease", "release"]));
  expect(error.message).toBe("lease release needs the lease's token: --lease TOKEN or TUIWRIGHT_LEASE");
  process.env.TUIWRIGHT_LEASE = "";
  expect(usage(() => call(["lease", "release"])).message).toContain("needs the lease's token");
});

test("the daemon target: namespace from --ns or TUIWRIGHT_NS, checked; the socket from the environment", () => {
  process.env.XDG_RUNTIME_DIR = "/run/user/7";
  expect(daemonTarget({ mode: "human", help: false, version: false })).toEqual({ namespace: "default", socketPath: "/run/user/7/tuiwright/default.sock" });
  process.env.TUIWRIGHT_NS = "env-ns";
  expect(daemonTarget({ mode: "human", help: false, version: false }).namespace).toBe("env-ns");
  expect(daemonTarget({ mode: "human", help: false, version: false, namespace: "flag.ns_1" })).toEqual({ namespace: "flag.ns_1", socketPath: "/run/user/7/tuiwright/flag.ns_1.sock" });
  process.env.TUIWRIGHT_SOCKET = "/tmp/elsewhere.sock";
  expect(daemonTarget({ mode: "human", help: false, version: false }).socketPath).toBe("/tmp/elsewhere.sock");
  for (const bad of ["../up", "-dash", "", "a".repeat(65), "sp ace"]) {
    expect(usage(() => daemonTarget({ mode: "human", help: false, version: false, namespace: bad })).message).toBe(`invalid namespace ${JSON.stringify(bad)}: use 1-64 letters, digits, '_', '.' or '-'`);
  }
});
