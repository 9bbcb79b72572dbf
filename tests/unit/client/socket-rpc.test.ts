// The npm package's client talks JSON-RPC to the daemon over node:net. Here the daemon is an
// in-process Unix socket server that answers as a test tells it: in pieces, out of order, with
// errors and notifications, or by hanging up.
import { afterEach, expect, test } from "bun:test";
import { SocketRpc, TuiwrightError } from "../../../lib/client/portable.ts";
import { cleanUp, FakeDaemon, onCleanUp, reply, tempDir, type Request } from "./fake-daemon.ts";

afterEach(cleanUp);

async function connected(): Promise<{ daemon: FakeDaemon; rpc: SocketRpc }> {
  const daemon = await FakeDaemon.start();
  const rpc = await SocketRpc.connect(daemon.path);
  onCleanUp(() => rpc.close());
  return { daemon, rpc };
}

test("a call is one JSON-RPC request line, and its reply resolves it", async () => {
  const { daemon, rpc } = await connected();
  const answer = rpc.call("list", {});
  const [request] = await daemon.received(1);
  expect(request).toEqual({ jsonrpc: "2.0", id: request!.id, method: "list", params: {} });
  daemon.send(reply(request!.id, { sessions: [] }));
  expect(await answer).toEqual({ sessions: [] });
});

test("calls in flight answered out of order each settle the call their id names", async () => {
  const { daemon, rpc } = await connected();
  const calls = ["a", "b", "c"].map((name) => rpc.call("get", { session: name, what: "title" }));
  const requests = await daemon.received(3);
  expect(new Set(requests.map((r) => r.id)).size).toBe(3);
  // c's answer first, then b's, then a's, the last two in one write.
  daemon.send(reply(requests[2]!.id, `title of ${requests[2]!.params.session}`));
  expect(await calls[2]).toBe("title of c");
  daemon.send(reply(requests[1]!.id, `title of ${requests[1]!.params.session}`), reply(requests[0]!.id, `title of ${requests[0]!.params.session}`));
  expect(await Promise.all(calls)).toEqual(["title of a", "title of b", "title of c"]);
});

test("a reply split across chunks, even inside a multi-byte character, settles its call whole", async () => {
  const { daemon, rpc } = await connected();
  const slow = rpc.call("snapshot", {});
  const quick = rpc.call("ping", {});
  const [first, second] = await daemon.received(2);
  const text = "é漢🙂 — the screen";
  const bytes = Buffer.from(JSON.stringify(reply(first!.id, { text })) + "\n");
  const cut = bytes.indexOf(Buffer.from("漢")) + 1; // inside 漢's three bytes
  // The ping's whole reply and the start of the snapshot's in one write; the ping resolving shows
  // the client has read that chunk, so the rest of the snapshot's reply comes in another.
  daemon.socket!.write(Buffer.concat([Buffer.from(JSON.stringify(reply(second!.id, "pong")) + "\n"), bytes.subarray(0, cut)]));
  expect(await quick).toBe("pong");
  daemon.socket!.write(bytes.subarray(cut, cut + 3));
  daemon.socket!.write(bytes.subarray(cut + 3));
  expect(await slow).toEqual({ text });
});

test("an error reply rejects with a TuiwrightError of the same name, code, message and hint", async () => {
  const { daemon, rpc } = await connected();
  const missing = rpc.call("snapshot", { session: "nope" });
  const byCode = rpc.call("wait", {});
  const [first, second] = await daemon.received(2);
  daemon.send(
    { jsonrpc: "2.0", id: first!.id, error: { code: -32004, message: "no session named nope", data: { name: "no-such-session", hint: "run `tuiwright list`", known: ["a"] } } },
    { jsonrpc: "2.0", id: second!.id, error: { code: -32010, message: "timed out after 5 ms" } },
  );
  const error = await missing.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TuiwrightError);
  expect(error).toMatchObject({ errorName: "no-such-session", code: -32004, exitCode: 66, message: "no session named nope", hint: "run `tuiwright list`", details: { known: ["a"] } });
  expect(await byCode.catch((e: unknown) => e)).toMatchObject({ errorName: "timeout", code: -32010, exitCode: 124 });
});

test("an error the daemon could not tie to a request (id null) fails every call in flight", async () => {
  const { daemon, rpc } = await connected();
  const calls = [rpc.call("list", {}), rpc.call("list", {})].map((call) => call.catch((e: TuiwrightError) => e.errorName));
  await daemon.received(2);
  daemon.send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error", data: { name: "parse-error", hint: "" } } });
  expect(await Promise.all(calls)).toEqual(["parse-error", "parse-error"]);
});

test("notifications (events) are ignored and do not settle a call", async () => {
  const { daemon, rpc } = await connected();
  const answer = rpc.call("ping", {});
  const [request] = await daemon.received(1);
  daemon.send({ jsonrpc: "2.0", method: "event", params: { type: "screen", session: "a", id: request!.id } }, { jsonrpc: "2.0", method: "event", params: { result: "not me" } }, reply(request!.id, "pong"));
  expect(await answer).toBe("pong");
});

test("a reply to no call in flight is dropped; the call it does not answer keeps waiting for its own", async () => {
  const { daemon, rpc } = await connected();
  const answer = rpc.call("ping", {});
  const [request] = await daemon.received(1);
  daemon.send(reply(request!.id + 100, "stray"), reply(request!.id, "pong"));
  expect(await answer).toBe("pong");
});

test("the daemon hanging up rejects every call in flight with daemon-unavailable", async () => {
  const { daemon, rpc } = await connected();
  const calls = [rpc.call("wait", { text: ["x"] }), rpc.call("wait", { text: ["y"] })].map((call) => call.catch((e: unknown) => e));
  await daemon.received(2);
  daemon.socket!.destroy();
  for (const error of await Promise.all(calls)) {
    expect(error).toBeInstanceOf(TuiwrightError);
    expect(error).toMatchObject({ errorName: "daemon-unavailable", exitCode: 69, message: "the daemon closed the connection" });
  }
});

test("a call after the daemon hung up fails at once with daemon-unavailable instead of waiting forever", async () => {
  const { daemon, rpc } = await connected();
  const first = rpc.call("ping", {}).catch((e: TuiwrightError) => e.errorName);
  await daemon.received(1);
  daemon.socket!.destroy();
  expect(await first).toBe("daemon-unavailable");
  expect(await rpc.call("ping", {}).catch((e: TuiwrightError) => e.errorName)).toBe("daemon-unavailable");
});

test("a call after close() fails with daemon-unavailable instead of waiting forever", async () => {
  const { rpc } = await connected();
  rpc.close();
  expect(await rpc.call("ping", {}).catch((e: TuiwrightError) => e.errorName)).toBe("daemon-unavailable");
});

test("connecting where no daemon listens is daemon-unavailable, naming the path", async () => {
  const dir = tempDir();
  const error = await SocketRpc.connect(`${dir}/none.sock`).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TuiwrightError);
  expect(error).toMatchObject({ errorName: "daemon-unavailable" });
  expect((error as Error).message).toContain(`cannot connect to ${dir}/none.sock`);
});

test("a request over the 1 MiB frame limit is refused before anything is sent", async () => {
  const { daemon, rpc } = await connected();
  const error = await rpc.call("adapter.check", { text: "x".repeat(1 << 20) }).catch((e: unknown) => e);
  expect(error).toMatchObject({ errorName: "bad-data" });
  const answer = rpc.call("ping", {}); // the connection still works, and the refused request never went out
  const [request] = await daemon.received(1);
  expect(request!.method).toBe("ping");
  daemon.send(reply(request!.id, "pong"));
  expect(await answer).toBe("pong");
});

test("long type text goes out as several requests, one after another, and their results add up to one", async () => {
  const { daemon, rpc } = await connected();
  const text = "a".repeat(600 * 1024);
  const typed = rpc.call("type", { session: "s", text, wait: { text: ["done"] } });
  const pieces: Request[] = [];
  for (let n = 1; ; n++) {
    const request = (await daemon.received(n))[n - 1]!;
    pieces.push(request);
    const last = pieces.reduce((sum, p) => sum + p.params.text.length, 0) === text.length;
    daemon.send(reply(request.id, { session: "s", bytes: request.params.text.length, revisionBefore: n, revisionAfter: n + 1 }));
    if (last) break;
  }
  expect(pieces.length).toBeGreaterThan(1);
  expect(pieces.map((p) => p.params.text).join("")).toBe(text);
  expect(pieces.map((p) => p.params.wait !== undefined)).toEqual([...pieces.slice(1).map(() => false), true]); // the wait goes with the last
  expect(await typed).toEqual({ session: "s", bytes: text.length, revisionBefore: 1, revisionAfter: pieces.length + 1 });
});
