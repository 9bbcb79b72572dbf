// What the daemon does between a JSON-RPC call and a session's worker, run in process against
// the real dispatch and handlers with fake workers (tests/helpers/in-process-daemon.ts): which
// op a method becomes and with which params, the session's name on the reply, write leases, and
// the errors for a session that is not there — in milliseconds, beside the e2e suite.
import { expect, test } from "bun:test";
import { failure } from "../../helpers/errors.ts";
import { fakeConnection, inProcessDaemon } from "../../helpers/in-process-daemon.ts";

test("a forwarded reader becomes the worker op of the same name, without session or lease, and the reply names the session", async () => {
  const daemon = inProcessDaemon();
  const worker = daemon.addSession("sh", { status: () => ({ mode: "idle", cursor: 7 }) });
  expect(await daemon.call("status", { session: "sh" })).toEqual({ session: "sh", mode: "idle", cursor: 7 });
  expect(worker.calls).toEqual([{ op: "status", params: {} }]);
});

test("type and snapshot reach the worker with the schema's defaults filled in", async () => {
  const daemon = inProcessDaemon();
  const worker = daemon.addSession("ed", { type: () => ({ ok: true }), snapshot: () => ({ text: "hello", revision: 4 }) });
  expect(await daemon.call("type", { session: "ed", text: "hi" })).toMatchObject({ session: "ed", ok: true });
  const typed = worker.calls[0]!;
  expect(typed.op).toBe("type");
  expect(typed.params).toMatchObject({ text: "hi", paste: false, raw: false });
  expect(typed.params).not.toHaveProperty("session");
  expect(await daemon.call("snapshot", { session: "ed" })).toMatchObject({ text: "hello" });
  expect(worker.calls[1]!.op).toBe("snapshot");
});

test("without a session named, the call goes to the only session; an unknown one is no-such-session (66) and no worker is called", async () => {
  const daemon = inProcessDaemon();
  const worker = daemon.addSession("only", { status: () => ({ mode: "idle" }) });
  expect(await daemon.call("status", {})).toMatchObject({ session: "only" });
  const missing = await failure(daemon.call("status", { session: "nope" }));
  expect(missing.errorName).toBe("no-such-session");
  expect(missing.exitCode).toBe(66);
  expect(worker.calls).toHaveLength(1);
});

test("a write lease held by another client refuses a forwarded writer before the worker sees it; its token lets it through", async () => {
  const daemon = inProcessDaemon();
  const worker = daemon.addSession("shared", { send: () => ({ ok: true }) });
  const holder = fakeConnection();
  const lease = (await daemon.call("lease.acquire", { session: "shared", owner: "agent-a" }, holder)) as { token: string };
  const refused = await failure(daemon.call("send", { session: "shared", data: "rm -rf /\r" }));
  expect(refused.errorName).toBe("busy");
  expect(refused.message).toContain("agent-a");
  expect(worker.calls).toEqual([]);
  expect(await daemon.call("send", { session: "shared", data: "ls\r", lease: lease.token }, holder)).toMatchObject({ session: "shared", ok: true });
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
