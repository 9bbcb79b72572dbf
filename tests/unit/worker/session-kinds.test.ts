// The session kinds inside the worker (lib/worker/session-kind.ts): every method the daemon
// forwards has an answer in every kind; a program session refuses the browser's methods with the
// error the daemon used to give (a bad URL named first); a browser session sends keys and text
// through its engine, reads url/nav/title from it, and leads its wheel and mouse replies with
// `ok`. The kinds run here over stand-ins for the core and facets, in milliseconds; what the
// core and facets do with a real program is the e2e suite's business.
import { expect, test } from "bun:test";
import { METHODS, type ForwardedMethod } from "../../../lib/protocol/methods.ts";
import type { StartSpec } from "../../../lib/link/messages.ts";
import { programKind } from "../../../lib/worker/program-kind.ts";
import { browserKind } from "../../../lib/worker/browser-kind.ts";
import type { SessionCore } from "../../../lib/worker/session-core.ts";
import type { ShellFacet } from "../../../lib/worker/shell-facet.ts";
import type { SnapshotFacet } from "../../../lib/worker/snapshot-facet.ts";
import type { BrowserFacet } from "../../../lib/worker/browser-facet.ts";
import { failure } from "../../helpers/errors.ts";

const signal = new AbortController().signal;
const FORWARDED = Object.entries(METHODS).filter(([, def]) => "forward" in def && def.forward).map(([name]) => name as ForwardedMethod);

function spec(overrides: Partial<StartSpec> = {}): StartSpec {
  return { name: "ed", argv: ["vim", "notes"], cwd: "/", env: {}, cols: 80, rows: 24, scrollback: 0, cast: null, maxCastBytes: 0, secrets: [], shell: null, browser: false, cgroup: null, taskLimit: null, ...overrides } as StartSpec;
}

/** A core whose calls are recorded; `ended` says whether the program has ended. */
function fakeCore(ended = false, exit: { code: number | null; signal: string | null } | null = null) {
  const calls: { op: string; params: unknown }[] = [];
  const record = (op: string, reply: unknown) => (params: unknown) => { calls.push({ op, params }); return reply; };
  const core = {
    ended,
    exit,
    pid: 2 ** 30, // no such process
    get: (what: string) => (what === "title" ? "vim: notes" : { cols: 80, rows: 24 }),
    mark: record("mark", { label: "here" }),
    scroll: record("scroll", Promise.resolve({ revisionBefore: 1, revisionAfter: 2 })),
    type: record("type", Promise.resolve({ bytes: 2, revisionBefore: 1, revisionAfter: 2 })),
  };
  return { core: core as unknown as SessionCore, calls };
}

const program = (options: { ended?: boolean; exit?: { code: number | null; signal: string | null }; spec?: Partial<StartSpec>; mode?: string } = {}) => {
  const { core, calls } = fakeCore(options.ended, options.exit ?? null);
  const shell = { status: () => ({ integration: true, mode: options.mode ?? "idle", block: null, blocks: 0, cursor: 0, cwd: "/" }) };
  return { kind: programKind(spec(options.spec), core, shell as unknown as ShellFacet, {} as SnapshotFacet), calls };
};

test("every kind answers every forwarded method, and the browser's own start-up ops", () => {
  const { kind } = program();
  const browser = browserKind({} as BrowserFacet, kind.ops);
  for (const ops of [kind.ops, browser.ops]) {
    for (const method of [...FORWARDED, "resize", "browser", "browserReady", "browserRestore"]) expect({ method, answered: typeof (ops as Record<string, unknown>)[method] }).toEqual({ method, answered: "function" });
  }
  expect(FORWARDED.length).toBeGreaterThan(15);
});

test("a kind is named by what the session runs: program, shell or browser", () => {
  expect(program().kind.name).toBe("program");
  expect(program({ spec: { shell: { kind: "bash", nonce: null, transcriptDir: "/nonexistent" } } }).kind.name).toBe("shell");
  expect(browserKind({} as BrowserFacet, program().kind.ops).name).toBe("browser");
});

test("a program session refuses the browser's methods with not-a-browser (64), naming the session and its program", async () => {
  const { kind } = program();
  const calls: (() => unknown)[] = [
    () => kind.ops.mouse({ action: "move", row: 1, col: 1, button: "left", modifiers: [] }, signal),
    () => kind.ops.back({ timeoutMs: 1000 }, signal),
    () => kind.ops.navigate({ url: "https://example.com", timeoutMs: 1000 }, signal),
    () => kind.ops.get({ what: "url" }, signal),
  ];
  for (const call of calls) {
    const refused = await failure(Promise.resolve().then(call));
    expect(refused.errorName).toBe("not-a-browser");
    expect(refused.exitCode).toBe(64);
    expect(refused.message).toBe(`session "ed" is not a browser session (vim)`);
  }
});

test("navigate on a program session names a bad URL before the session's kind", async () => {
  const refused = await failure(Promise.resolve().then(() => program().kind.ops.navigate({ url: "javascript:alert(1)", timeoutMs: 1000 }, signal)));
  expect(refused.errorName).not.toBe("not-a-browser");
  expect(refused.exitCode).toBe(65);
});

test("get answers what it read, and a title also as `title`", async () => {
  const { kind } = program();
  expect(await kind.ops.get({ what: "title" }, signal)).toEqual({ what: "title", value: "vim: notes", title: "vim: notes" });
  expect(await kind.ops.get({ what: "size" }, signal)).toEqual({ what: "size", value: { cols: 80, rows: 24 } });
});

test("mark on a session whose program ended is session-exited, and nothing is recorded", async () => {
  const { kind, calls } = program({ ended: true });
  const refused = await failure(Promise.resolve().then(() => kind.ops.mark({ label: "late" }, signal)));
  expect(refused.errorName).toBe("session-exited");
  expect(refused.message).toBe(`session "ed" has exited; its recording has ended`);
  expect(calls).toEqual([]);
  const live = program();
  expect(await live.kind.ops.mark({ label: "here" }, signal)).toEqual({ label: "here" });
  expect(live.calls).toEqual([{ op: "mark", params: "here" }]);
});

test("a program's wheel answers ok with the revisions", async () => {
  expect(await program().kind.ops.scroll({ delta: 3, settleMs: 0 }, signal)).toEqual({ ok: true, revisionBefore: 1, revisionAfter: 2 });
});

/** A browser facet whose calls are recorded. */
function fakeBrowser() {
  const calls: { op: string; params: unknown }[] = [];
  const state = { url: "https://example.com/a", title: null, titleReason: "the page has no title", canGoBack: true, canGoForward: false, revision: 9, loading: false, crashed: null, dialog: null };
  const facet = {
    keys: async (params: unknown) => { calls.push({ op: "keys", params }); return { ok: true, bytes: 2, revisionBefore: 1, revisionAfter: 2 }; },
    mouse: async (params: unknown) => { calls.push({ op: "mouse", params }); return { held: true, revision: 3 }; },
    navButton: async (params: unknown) => { calls.push({ op: "navButton", params }); return { url: state.url, title: null, revision: 4 }; },
    state: async () => state,
  };
  return { facet: facet as unknown as BrowserFacet, calls };
}

test("a browser session types and presses through its engine, with only the aim's given fields and no raw", async () => {
  const { facet, calls } = fakeBrowser();
  const { kind: base, calls: coreCalls } = program();
  const kind = browserKind(facet, base.ops);
  await kind.ops.type({ text: "hi", paste: false, raw: false, secret: false }, signal);
  await kind.ops.press({ keys: ["Enter"], to: "@e3" }, signal);
  expect(calls).toEqual([
    { op: "keys", params: { text: "hi", paste: false, secret: false } },
    { op: "keys", params: { keys: ["Enter"], to: "@e3" } },
  ]);
  expect(coreCalls).toEqual([]); // nothing went to the PTY as terminal keys
});

test("a browser session's mouse and history buttons answer ok first, and url, nav and title are the engine's", async () => {
  const { facet, calls } = fakeBrowser();
  const kind = browserKind(facet, program().kind.ops);
  const moved = await kind.ops.mouse({ action: "down", row: 3, col: 4, button: "left", modifiers: ["shift"] }, signal);
  expect(Object.keys(moved)[0]).toBe("ok");
  expect(moved).toEqual({ ok: true, held: true, revision: 3 });
  expect(await kind.ops.back({ timeoutMs: 500, settleMs: 10 }, signal)).toEqual({ ok: true, url: "https://example.com/a", title: null, revision: 4 });
  expect(calls.at(-1)).toEqual({ op: "navButton", params: { button: "back", timeoutMs: 500, settleMs: 10 } });
  expect(await kind.ops.get({ what: "url" }, signal)).toEqual({ what: "url", value: "https://example.com/a", url: "https://example.com/a" });
  expect(await kind.ops.get({ what: "nav" }, signal)).toEqual({ what: "nav", value: { can_go_back: true, can_go_forward: false }, can_go_back: true, can_go_forward: false });
  expect(await kind.ops.get({ what: "title" }, signal)).toEqual({ what: "title", value: null, title: null, title_reason: "the page has no title" });
  // Other properties are the terminal's, as for any session.
  expect(await kind.ops.get({ what: "size" }, signal)).toEqual({ what: "size", value: { cols: 80, rows: 24 } });
});

test("signal on a session whose program exited is session-exited and sends nothing; a bad signal name is bad-data (65)", async () => {
  const { kind, calls } = program({ ended: true, exit: { code: 0, signal: null } });
  const refused = await failure(Promise.resolve().then(() => kind.ops.signal({ signal: "INT" }, signal)));
  expect(refused.errorName).toBe("session-exited");
  expect(refused.message).toBe(`session "ed" has exited; there is nothing to signal`);
  expect(calls).toEqual([]);
  const bad = await failure(Promise.resolve().then(() => program().kind.ops.signal({ signal: "SIGNOPE" }, signal)));
  expect(bad.exitCode).toBe(65);
});

test("end with no program running is bad-data (65) naming the session's mode, and nothing is recorded", async () => {
  const { kind, calls } = program({ mode: "idle" });
  const refused = await failure(Promise.resolve().then(() => kind.ops.end({ graceMs: 100 }, signal)));
  expect(refused.errorName).toBe("bad-data");
  expect(refused.message).toBe(`session "ed" is idle: there is no running program to end`);
  expect(calls).toEqual([]);
});
