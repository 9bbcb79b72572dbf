// Dispatch: from a JSON-RPC method and params to a handler — unknown methods, params checked
// against the method's schema (the error names the path of the bad field), the client/daemon
// version check, and the agent-interactive-pty names routed to core methods. The handlers are
// the one stand-in: each records what it was called with and answers with a canned result.
import { expect, test } from "bun:test";
import { createDispatch, type Handlers } from "../../../lib/daemon/dispatch.ts";
import { version } from "../../../lib/runtime/self.ts";
import type { CallContext } from "../../../lib/transport/rpc-server.ts";
import { failure } from "../../helpers/errors.ts";

type Call = { method: string; params: any };

function recordingHandlers(answers: Record<string, unknown> = {}): { handlers: Handlers; calls: Call[] } {
  const calls: Call[] = [];
  const handlers = new Proxy({} as Handlers, {
    get: (_target, method) => async (params: unknown) => {
      calls.push({ method: String(method), params });
      return answers[String(method)] ?? { handled: String(method) };
    },
  });
  return { handlers, calls };
}

const context = (clientVersion?: string): CallContext => ({ connection: {} as CallContext["connection"], ...(clientVersion === undefined ? {} : { clientVersion }) });


test("a known method with valid params reaches its handler with the schema's defaults filled in", async () => {
  const { handlers, calls } = recordingHandlers();
  const dispatch = createDispatch(handlers, "default");
  expect(await dispatch("exec", { session: "sh", command: "ls" }, context())).toEqual({ handled: "exec" });
  expect(calls).toEqual([{ method: "exec", params: { session: "sh", command: "ls", timeoutMs: 60_000, maxOutput: 65_536, queue: false, interactive: false } }]);
});

test("an unknown method is method-not-found naming it, and no handler runs", async () => {
  const { handlers, calls } = recordingHandlers();
  const error = await failure(createDispatch(handlers, "default")("frobnicate", {}, context()));
  expect(error.errorName).toBe("method-not-found");
  expect(error.message).toBe('unknown method "frobnicate"');
  expect(error.toJsonRpc().code).toBe(-32601);
  // An inherited property of the method table is not a method either.
  expect((await failure(createDispatch(handlers, "default")("toString", {}, context()))).errorName).toBe("method-not-found");
  expect(calls).toEqual([]);
});

test("invalid params are a usage error naming the method and the path of each bad field", async () => {
  const { handlers, calls } = recordingHandlers();
  const dispatch = createDispatch(handlers, "default");
  const wrongType = await failure(dispatch("resize", { session: "a", cols: "wide", rows: 24 }, context()));
  expect(wrongType.errorName).toBe("usage");
  expect(wrongType.message).toStartWith('invalid params for "resize": cols: ');
  expect(wrongType.details.issues).toEqual([{ path: "cols", message: expect.any(String) }]);
  expect(wrongType.hint).toContain("method resize");

  const nested = await failure(dispatch("spawn", { argv: ["cat"], env: { HOME: "/root", COUNT: 3 } }, context()));
  expect(nested.message).toStartWith('invalid params for "spawn": env.COUNT: ');
  expect(nested.details.issues).toEqual([{ path: "env.COUNT", message: expect.any(String) }]);

  const unknownKey = await failure(dispatch("ping", { extra: true }, context()));
  expect(unknownKey.details.issues).toEqual([{ path: "extra", message: expect.any(String) }]);

  const notAnObject = await failure(dispatch("ping", "hello", context()));
  expect(notAnObject.details.issues).toEqual([{ path: "(params)", message: expect.any(String) }]);
  expect(calls).toEqual([]);
});

test("a client of another version is refused with how to stop the old daemon; ping and daemon.status/stop still answer", async () => {
  const { handlers, calls } = recordingHandlers();
  const other = "0.0.1+elsewhere";
  const named = await failure(createDispatch(handlers, "work")("list", {}, context(other)));
  expect(named.errorName).toBe("version-mismatch");
  expect(named.message).toBe(`the daemon (pid ${process.pid}) runs tuiwright ${version()}; this client is ${other}`);
  expect(named.hint).toBe("stop the old daemon with `tuiwright daemon stop --ns work`; the next command starts the new one");
  const byDefault = await failure(createDispatch(handlers, "default")("list", {}, context(other)));
  expect(byDefault.hint).toBe("stop the old daemon with `tuiwright daemon stop`; the next command starts the new one");
  // Checked before the method: even an unknown one is a mismatch first.
  expect((await failure(createDispatch(handlers, "default")("frobnicate", {}, context(other)))).errorName).toBe("version-mismatch");
  expect(calls).toEqual([]);

  const dispatch = createDispatch(handlers, "work");
  for (const method of ["ping", "daemon.status", "daemon.stop"]) await dispatch(method, {}, context(other));
  await dispatch("list", {}, context(version()));
  await dispatch("list", {}, context());
  expect(calls.map((c) => c.method)).toEqual(["ping", "daemon.status", "daemon.stop", "list", "list"]);
});

test("an agent-interactive-pty name runs its core method with mapped params and answers in the document's shape", async () => {
  const block = {
    session: "conv", seq: 4, command: "ls", exitCode: 0, output: "a\n", outputTruncated: false, cwd: "/tmp",
    startedAt: "2026-01-01T00:00:00.000Z", endedAt: "2026-01-01T00:00:01.000Z", cursor: 12,
  };
  const { handlers, calls } = recordingHandlers({ exec: block });
  const dispatch = createDispatch(handlers, "default");
  for (const method of ["exec_block", "pty.exec_block"]) {
    expect(await dispatch(method, { conversation_id: "conv", command: "ls", timeout_ms: 5000 }, context())).toMatchObject({
      ok: true, block_id: 4, exit_code: 0, output: "a\n", ts_begin: block.startedAt, ts_end: block.endedAt, cwd: "/tmp",
    });
  }
  // The core call is validated like any other: the core schema's defaults are filled in.
  expect(calls).toEqual([1, 2].map(() => ({
    method: "exec",
    params: { session: "conv", command: "ls", interactive: false, timeoutMs: 5000, maxOutput: 65_536, queue: false },
  })));
});

test("a core name shared with the document (send) is the document's only with its params; bad alias params name the alias", async () => {
  const { handlers, calls } = recordingHandlers({ send: { session: "conv", bytes: 1, cursor: 7 } });
  const dispatch = createDispatch(handlers, "default");
  expect(await dispatch("send", { session: "conv", data: "x" }, context())).toEqual({ session: "conv", bytes: 1, cursor: 7 });
  expect(await dispatch("send", { conversation_id: "conv", data: "y" }, context())).toEqual({ ok: true, session: "conv", bytes: 1, cursor: 7 });
  expect(await dispatch("ctrl_c", { conversation_id: "conv" }, context())).toMatchObject({ ok: true });
  expect(calls.map((c) => c.params)).toEqual([
    { session: "conv", data: "x", secret: false },
    { session: "conv", data: "y", secret: false },
    { session: "conv", data: "\x03", secret: false },
  ]);

  const bad = await failure(dispatch("exec_block", { conversation_id: "conv", command: "" }, context()));
  expect(bad.errorName).toBe("usage");
  expect(bad.message).toStartWith('invalid params for "exec_block": command: ');
  expect(calls).toHaveLength(3);
});
