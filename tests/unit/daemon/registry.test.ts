// The session registry: names claimed before a session starts (given, or derived from the
// program and numbered), the most recently used session as the default target, and what
// `list` reports for each entry.
import { expect, test } from "bun:test";
import { SessionRegistry, type SessionEntry } from "../../../lib/daemon/registry.ts";
import { thrown } from "../../helpers/errors.ts";

let nextPid = 1000;
/** An entry as the daemon adds it; only the worker's pid is read by the registry. */
function entry(name: string, overrides: Partial<SessionEntry> = {}): SessionEntry {
  return {
    name, worker: { pid: nextPid++ } as SessionEntry["worker"], argv: ["cat"], cwd: "/", cols: 80, rows: 24,
    startedAt: "2026-01-01T00:00:00.000Z", revision: 3, hash: "h", title: "", exit: null, crashed: null, cast: null,
    spawnParams: { argv: ["cat"], integration: true } as SessionEntry["spawnParams"], ended: Promise.resolve(),
    bounds: { mark: "m", cgroup: null, taskLimit: null }, ...overrides,
  };
}


test("a name is derived from the program and numbered while taken, reserved or running", () => {
  const registry = new SessionRegistry();
  expect(registry.reserve(undefined, ["/usr/bin/vim", "notes.txt"])).toBe("vim");
  expect(registry.reserve(undefined, ["vim"])).toBe("vim-2"); // "vim" is reserved, not yet added
  registry.add(entry("vim"));
  expect(registry.reserve(undefined, ["vim"])).toBe("vim-3");
  registry.release("vim-2");
  expect(registry.reserve(undefined, ["vim"])).toBe("vim-2");
  expect(registry.size).toBe(3); // one running, two reserved
});

test("a derived name keeps only safe characters, starts with a letter or digit, and has 48 at most", () => {
  const registry = new SessionRegistry();
  expect(registry.reserve(undefined, ["./my prog$(x)"])).toBe("myprogx");
  expect(registry.reserve(undefined, ["/opt/--weird"])).toBe("weird");
  expect(registry.reserve(undefined, ["/bin/@@@"])).toBe("session");
  expect(registry.reserve(undefined, [])).toBe("session-2");
  expect(registry.reserve(undefined, ["x".repeat(80)])).toBe("x".repeat(48));
});

test("a requested name that is taken is a usage error saying how to free it", () => {
  const registry = new SessionRegistry();
  expect(registry.reserve("work", ["bash"])).toBe("work");
  const whileReserved = thrown(() => registry.reserve("work", ["bash"]));
  expect(whileReserved.errorName).toBe("usage");
  expect(whileReserved.message).toBe('session "work" already exists');
  expect(whileReserved.hint).toContain("tuiwright kill --session work");
  registry.add(entry("work"));
  expect(thrown(() => registry.reserve("work", ["bash"])).errorName).toBe("usage");
  registry.remove("work");
  expect(registry.reserve("work", ["bash"])).toBe("work");
});

test("the default target is the session used last: added, or resolved by name", () => {
  const registry = new SessionRegistry();
  const none = thrown(() => registry.resolve(undefined));
  expect(none.errorName).toBe("no-such-session");
  expect(none.message).toBe("there are no sessions");
  registry.add(entry("a"));
  registry.add(entry("b"));
  expect(registry.current).toBe("b");
  expect(registry.resolve(undefined).name).toBe("b");
  expect(registry.resolve("a").name).toBe("a");
  expect(registry.current).toBe("a");
  expect(registry.resolve(undefined).name).toBe("a");
  // get() is an internal lookup: it does not move the default.
  expect(registry.get("b")?.name).toBe("b");
  expect(registry.current).toBe("a");
});

test("an unknown name is no-such-session listing the sessions there are", () => {
  const registry = new SessionRegistry();
  expect(thrown(() => registry.resolve("ghost")).message).toBe('no session named "ghost"');
  registry.add(entry("a"));
  registry.add(entry("b"));
  const error = thrown(() => registry.resolve("ghost"));
  expect(error.errorName).toBe("no-such-session");
  expect(error.message).toBe('no session named "ghost" (sessions: a, b)');
  expect(registry.current).toBe("b");
});

test("removing the current session makes the last one still there the default; none left means none", () => {
  const registry = new SessionRegistry();
  for (const name of ["a", "b", "c"]) registry.add(entry(name));
  registry.resolve("a");
  registry.remove("b"); // not the current one: the default stays
  expect(registry.current).toBe("a");
  registry.remove("a");
  expect(registry.current).toBe("c");
  expect(registry.has("a")).toBe(false);
  expect(registry.all().map((e) => e.name)).toEqual(["c"]);
  registry.remove("c");
  expect(registry.current).toBeNull();
  expect(registry.size).toBe(0);
});

test("info says running, exited or crashed, and whether it is a program, a shell or a browser", () => {
  const registry = new SessionRegistry();
  const running = entry("p");
  expect(registry.info(running)).toEqual({
    name: "p", pid: running.worker.pid, argv: ["cat"], cwd: "/", cols: 80, rows: 24, state: "running", exit: null,
    startedAt: "2026-01-01T00:00:00.000Z", revision: 3, title: "", cast: null, kind: "program",
  });
  const exited = entry("e", { exit: { code: 0, signal: null } as SessionEntry["exit"] });
  expect(registry.info(exited)).toMatchObject({ state: "exited", exit: { code: 0, signal: null } });
  expect(registry.info(entry("c", { exit: { code: 1, signal: null } as SessionEntry["exit"], crashed: "worker died" })).state).toBe("crashed");
  expect(registry.info(entry("s", { spawnParams: { shell: "bash", integration: true } as SessionEntry["spawnParams"] })).kind).toBe("shell");
  expect(registry.info(entry("w", { spawnParams: { browser: "about:blank", integration: true } as SessionEntry["spawnParams"] })).kind).toBe("browser");
});
