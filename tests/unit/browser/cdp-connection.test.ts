// The DevTools protocol's framing over a byte channel: NUL-terminated JSON split anywhere, calls
// by id with deadlines, protocol errors, events with their session, and the channel closing.
import { expect, test } from "bun:test";
import { CdpConnection, CdpError, type CdpTransport } from "../../../lib/browser/cdp-connection.ts";

function channel() {
  const written: string[] = [];
  let deliver!: (bytes: Uint8Array) => void;
  let close!: (reason: string) => void;
  const transport: CdpTransport = {
    write: (bytes) => written.push(new TextDecoder().decode(bytes)),
    read: (onData, onClose) => { deliver = onData; close = onClose; },
  };
  return {
    transport, written,
    sendBytes: (bytes: Uint8Array) => deliver(bytes),
    send: (text: string) => deliver(new TextEncoder().encode(text)),
    close: (reason: string) => close(reason),
  };
}

test("a call is one NUL-terminated message; its answer may arrive in pieces, split inside a character", async () => {
  const pipe = channel();
  const cdp = new CdpConnection(pipe.transport);
  const answer = cdp.call("Browser.getVersion", {}, { sessionId: "S" });
  expect(pipe.written).toEqual([`${JSON.stringify({ id: 1, method: "Browser.getVersion", params: {}, sessionId: "S" })}\0`]);
  const bytes = new TextEncoder().encode(`${JSON.stringify({ id: 1, result: { product: "Chrome/111 (Carbonyl) — é" } })}\0`);
  const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of "é"
  pipe.sendBytes(bytes.subarray(0, cut));
  pipe.sendBytes(bytes.subarray(cut));
  expect(await answer).toEqual({ product: "Chrome/111 (Carbonyl) — é" });
});

test("protocol errors reject with the method named; events carry their session", async () => {
  const pipe = channel();
  const cdp = new CdpConnection(pipe.transport);
  const events: unknown[] = [];
  cdp.onEvent((event) => events.push(event));
  const failing = cdp.call("DOM.getBoxModel", { backendNodeId: 9 });
  pipe.send(`${JSON.stringify({ method: "Page.loadEventFired", params: { timestamp: 1 }, sessionId: "S" })}\0${JSON.stringify({ id: 1, error: { code: -32000, message: "Could not compute box model." } })}\0`);
  const error = await failing.catch((e: unknown) => e as CdpError);
  expect(error).toBeInstanceOf(CdpError);
  expect(error).toMatchObject({ kind: "protocol", method: "DOM.getBoxModel", code: -32000, message: "DOM.getBoxModel: Could not compute box model." });
  expect(events).toEqual([{ method: "Page.loadEventFired", params: { timestamp: 1 }, sessionId: "S" }]);
});

test("a call the engine does not answer in time rejects as timeout; a late answer is dropped", async () => {
  const pipe = channel();
  const cdp = new CdpConnection(pipe.transport);
  const error = await cdp.call("Page.navigate", { url: "x" }, { timeoutMs: 20 }).catch((e: unknown) => e as CdpError);
  expect(error).toMatchObject({ kind: "timeout", message: "the browser engine did not answer Page.navigate in 20 ms" });
  pipe.send(`${JSON.stringify({ id: 1, result: {} })}\0`);
});

test("the channel closing rejects calls in flight and every later one as closed", async () => {
  const pipe = channel();
  const cdp = new CdpConnection(pipe.transport);
  let closedWith = "";
  cdp.onClose((reason) => { closedWith = reason; });
  const inFlight = cdp.call("Page.reload");
  pipe.close("the channel was closed");
  expect(await inFlight.catch((e: unknown) => e)).toMatchObject({ kind: "closed", message: "the browser engine went away during Page.reload (the channel was closed)" });
  expect(await cdp.call("Page.enable").catch((e: unknown) => e)).toMatchObject({ kind: "closed" });
  expect(closedWith).toBe("the channel was closed");
  expect(cdp.closed).toBe("the channel was closed");
});

test("something that is not JSON ends the connection instead of being guessed at", async () => {
  const pipe = channel();
  const cdp = new CdpConnection(pipe.transport);
  const pending = cdp.call("Page.enable");
  pipe.send("{not json\0");
  expect(await pending.catch((e: unknown) => e)).toMatchObject({ kind: "closed" });
  expect(cdp.closed).toBe("the engine sent a message that is not JSON");
});
