// What the daemon does between a JSON-RPC call and a session's worker, run in process against
// the real dispatch and handlers with fake workers (tests/helpers/in-process-daemon.ts): which
// op a method becomes and with which params, the session's name on the reply, write leases, and
// the errors for a session that is not there — in milliseconds, beside the e2e suite.
import { expect, test } from "bun:test";
import { failure } from "../../helpers/errors.ts";
import { fakeConnection, inProcessDaemon } from "../../helpers/in-process-daemon.ts";

// Whole replies, as a real worker gives them (the daemon checks each against the method's result).
const idle = (cursor: number) => ({ integration: true, mode: "idle", block: null, blocks: 0, cursor, cwd: "/" });
const typedReply = { bytes: 2, revisionBefore: 1, revisionAfter: 2 };
const snapped = { format: "text", text: "hello", revision: 4, hash: "h4", cols: 80, rows: 24 };

test("a forwarded reader becomes the worker op of the same name, without session or lease, and the reply names the session", async () => {
  const daemon = inProcessDaemon();
  const worker = daemon.addSession("sh", { status: () => idle(7) });
  expect(await daemon.call("status", { session: "sh" })).toEqual({ session: "sh", ...idle(7) });
  expect(worker.calls).toEqual([{ op: "status", params: {}, cancellable: true }]); // a reader: cancelled if its caller hangs up
});

test("type and snapshot reach the worker with the schema's defaults filled in", async () => {
  const daemon = inProcessDaemon();
  const worker = daemon.addSession("ed", { type: () => typedReply, snapshot: () => snapped });
  expect(await daemon.call("type", { session: "ed", text: "hi" })).toMatchObject({ session: "ed", bytes: 2 });
  const typed = worker.calls[0]!;
  expect(typed.op).toBe("type");
  expect(typed.params).toMatchObject({ text: "hi", paste: false, raw: false });
  expect(typed.params).not.toHaveProperty("session");
  expect(await daemon.call("snapshot", { session: "ed" })).toMatchObject({ text: "hello" });
  expect(worker.calls[1]!.op).toBe("snapshot");
});

test("without a session named, the call goes to the only session; an unknown one is no-such-session (66) and no worker is called", async () => {
  const daemon = inProcessDaemon();
  const worker = daemon.addSession("only", { status: () => idle(0) });
  expect(await daemon.call("status", {})).toMatchObject({ session: "only" });
  const missing = await failure(daemon.call("status", { session: "nope" }));
  expect(missing.errorName).toBe("no-such-session");
  expect(missing.exitCode).toBe(66);
  expect(worker.calls).toHaveLength(1);
});

test("a write lease held by another client refuses a forwarded writer before the worker sees it; its token lets it through", async () => {
  const daemon = inProcessDaemon();
  const worker = daemon.addSession("shared", { send: () => ({ bytes: 3, cursor: 0 }) });
  const holder = fakeConnection();
  const lease = (await daemon.call("lease.acquire", { session: "shared", owner: "agent-a" }, holder)) as { token: string };
  const refused = await failure(daemon.call("send", { session: "shared", data: "rm -rf /\r" }));
  expect(refused.errorName).toBe("busy");
  expect(refused.message).toContain("agent-a");
  expect(worker.calls).toEqual([]);
  expect(await daemon.call("send", { session: "shared", data: "ls\r", lease: lease.token }, holder)).toMatchObject({ session: "shared", bytes: 3 });
  expect(worker.calls).toHaveLength(1);
  expect(worker.calls[0]!.params).toMatchObject({ data: "ls\r" });
  expect(worker.calls[0]!.params).not.toHaveProperty("lease");
});

test("list reports each session from the registry without asking its worker", async () => {
  const daemon = inProcessDaemon();
  const a = daemon.addSession("a", {}, ["vim", "notes"]);
  daemon.addSession("b");
  const listed = (await daemon.call("list", {})) as { sessions: { name: string; argv: string[] }[] };
  expect(listed.sessions.map((s) => [s.name, s.argv])).toEqual([["a", ["vim", "notes"]], ["b", ["cat"]]]);
  expect(a.calls).toEqual([]);
});

test("a worker's reply that is not the method's result is refused as internal (70), naming the field; the session stays", async () => {
  const daemon = inProcessDaemon();
  daemon.addSession("odd", { status: () => ({ ...idle(1), mode: "dancing" }), get: () => ({ what: "title" }) });
  const bad = await failure(daemon.call("status", { session: "odd" }));
  expect(bad.errorName).toBe("internal");
  expect(bad.exitCode).toBe(70);
  expect(bad.message).toContain(`session "odd": its worker's reply to status is malformed: mode:`);
  expect(bad.message).not.toContain("\n");
  expect((await failure(daemon.call("get", { session: "odd", what: "title" }))).message).toContain("value:");
  expect(((await daemon.call("list", {})) as { sessions: unknown[] }).sessions).toHaveLength(1);
});

test("browser replies lead with ok and then the session, as the AWI-TTY calls read them; a wait's result names no session", async () => {
  const daemon = inProcessDaemon();
  const navigated = { ok: true, url: "https://example.com/", title: "Example", title_source: "engine", revision: 5 };
  const waited = { fired: ["text"], revision: 3, hash: "h3", elapsedMs: 12, exit: null };
  const worker = daemon.addSession("web", { navigate: () => navigated, wait: () => waited, mouse: () => ({ ok: true, held: false, revision: 6 }) });
  const result = (await daemon.call("navigate", { session: "web", url: "https://example.com/" })) as Record<string, unknown>;
  expect(Object.keys(result).slice(0, 3)).toEqual(["ok", "session", "url"]);
  expect(result).toEqual({ ...navigated, session: "web" });
  expect(Object.keys((await daemon.call("mouse", { session: "web", action: "move", row: 2, col: 2 })) as object).slice(0, 2)).toEqual(["ok", "session"]);
  expect(await daemon.call("wait", { session: "web", text: ["x"] })).toEqual(waited);
  // The writer's params reach the worker whole (defaults filled in); the reader's call can be cancelled.
  expect(worker.calls[0]).toEqual({ op: "navigate", params: { url: "https://example.com/", timeoutMs: 30_000 } });
  expect(worker.calls[1]).toMatchObject({ op: "mouse", params: { action: "move", row: 2, col: 2, button: "left", modifiers: [] } });
  expect(worker.calls[1]).not.toHaveProperty("cancellable");
  expect(worker.calls[2]).toMatchObject({ op: "wait", cancellable: true });
});

test("mark goes through while another client holds the write lease (it changes the recording, not the program)", async () => {
  const daemon = inProcessDaemon();
  const worker = daemon.addSession("rec", { mark: ({ label }: { label: string }) => ({ label }), type: () => typedReply });
  await daemon.call("lease.acquire", { session: "rec", owner: "agent-a" }, fakeConnection());
  expect(await daemon.call("mark", { session: "rec", label: "step 1" })).toEqual({ session: "rec", label: "step 1" });
  expect((await failure(daemon.call("type", { session: "rec", text: "x" }))).errorName).toBe("busy");
  expect(worker.calls.map((c) => c.op)).toEqual(["mark"]);
});

test("a resize past the memory budget is refused by the daemon before the worker sees it; one that fits is forwarded", async () => {
  const daemon = inProcessDaemon();
  const worker = daemon.addSession("big", { resize: ({ cols, rows }: { cols: number; rows: number }) => ({ cols, rows, revision: 2 }) });
  daemon.context.registry.get("big")!.spawnParams.scrollback = 100_000;
  const refused = await failure(daemon.call("resize", { session: "big", cols: 500, rows: 50 }));
  expect(refused.errorName).toBe("usage");
  expect(refused.message).toContain(`resizing "big" to 500x50 needs 50,025,000 cells`);
  expect(worker.calls).toEqual([]);
  expect(await daemon.call("resize", { session: "big", cols: 100, rows: 30 })).toEqual({ session: "big", cols: 100, rows: 30, revision: 2 });
  expect(worker.calls).toEqual([{ op: "resize", params: { cols: 100, rows: 30, timeoutMs: 10_000 } }]);
});
