// The event hub: subscriptions filtered by session and type, delivered as JSON-RPC
// notifications; screen events debounced per session (first at once, the rest folded into the
// latest at the window's end); any other event flushes a held screen event first; ownership of
// subscriptions by connection. (Drops for a connection that stopped reading, and the per-
// connection limit: tests/unit/transport/connection-limits.test.ts.) The connection is the
// transport's interface, recorded in memory; waits are on deliveries, never on a clock.
import { expect, test } from "bun:test";
import { EventHub, type SessionEvent } from "../../../lib/daemon/event-hub.ts";
import type { Connection } from "../../../lib/runtime/unix-socket.ts";

type Recorded = Connection & { sent: any[]; next(): Promise<any> };

let ids = 0;
function connection(): Recorded {
  const waiting: ((message: any) => void)[] = [];
  const recorded: Recorded = {
    id: ++ids,
    sent: [],
    queuedBytes: 0,
    send(data) {
      const text = String(data);
      expect(text.endsWith("\n")).toBe(true); // one notification per line
      const message = JSON.parse(text);
      recorded.sent.push(message);
      waiting.shift()?.(message);
    },
    end() {},
    /** The next notification sent from now on. */
    next: () => new Promise((resolve) => waiting.push(resolve)),
  };
  return recorded;
}

const screen = (revision: number, session = "s"): SessionEvent => ({ type: "screen", session, revision, hash: `h${revision}`, at: "t" });
const exit = (session = "s"): SessionEvent => ({ type: "exit", session, revision: 9, hash: "h9", at: "t", exit: { code: 0, signal: null } });
const params = (c: Recorded) => c.sent.map((m) => m.params);

test("a subscriber gets its session's events of its types as JSON-RPC notifications naming the subscription", () => {
  const hub = new EventHub();
  const mine = connection();
  const all = connection();
  const id = hub.subscribe(mine, { session: "s", types: ["screen", "exit"], debounceMs: 0 });
  const everyId = hub.subscribe(all, { session: null, types: ["exit", "title"], debounceMs: 0 });
  expect(id).not.toBe(everyId);
  hub.publish(screen(1));
  hub.publish(screen(2, "other"));
  hub.publish({ type: "title", session: "s", revision: 3, hash: "h3", at: "t", title: "hi" });
  hub.publish(exit("other"));
  hub.publish(exit());
  expect(mine.sent).toEqual([
    { jsonrpc: "2.0", method: "event", params: { subscription: id, ...screen(1) } },
    { jsonrpc: "2.0", method: "event", params: { subscription: id, ...exit() } },
  ]);
  expect(params(all).map((p) => [p.subscription, p.type, p.session])).toEqual([
    [everyId, "title", "s"], [everyId, "exit", "other"], [everyId, "exit", "s"],
  ]);
});

test("debounced screen events: the first at once, the rest of the window folded into the latest with coalesced", async () => {
  const hub = new EventHub();
  const c = connection();
  hub.subscribe(c, { session: null, types: ["screen"], debounceMs: 40 });
  hub.publish(screen(1));
  expect(params(c).map((p) => p.revision)).toEqual([1]);
  const folded = c.next();
  hub.publish(screen(2));
  hub.publish(screen(3));
  hub.publish(screen(4));
  expect(c.sent).toHaveLength(1);
  expect((await folded).params).toMatchObject({ revision: 4, hash: "h4", coalesced: 3 });
  // A lone event held for the window's end is sent as it is (no coalesced).
  const lone = c.next();
  hub.publish(screen(5));
  expect((await lone).params.revision).toBe(5);
  expect(params(c).map((p) => p.coalesced)).toEqual([undefined, 3, undefined]);
});

test("the debounce is per session: another session's first screen event goes out at once", () => {
  const hub = new EventHub();
  const c = connection();
  hub.subscribe(c, { session: null, types: ["screen"], debounceMs: 60_000 });
  hub.publish(screen(1, "a"));
  hub.publish(screen(2, "a")); // held
  hub.publish(screen(1, "b"));
  expect(params(c).map((p) => `${p.session}${p.revision}`)).toEqual(["a1", "b1"]);
  hub.dropConnection(c); // clears the held event's timer
});

test("another event of the session sends the held screen event first, even when only screens are subscribed", () => {
  const hub = new EventHub();
  const both = connection();
  const screensOnly = connection();
  hub.subscribe(both, { session: null, types: ["screen", "exit"], debounceMs: 60_000 });
  hub.subscribe(screensOnly, { session: null, types: ["screen"], debounceMs: 60_000 });
  hub.publish(screen(1));
  hub.publish(screen(2));
  hub.publish(screen(3));
  hub.publish(exit("elsewhere")); // another session's event leaves this one held
  expect(params(both).map((p) => p.type)).toEqual(["screen", "exit"]);
  hub.publish(exit());
  expect(params(both).map((p) => [p.type, p.revision, p.coalesced])).toEqual([["screen", 1, undefined], ["exit", 9, undefined], ["screen", 3, 2], ["exit", 9, undefined]]);
  expect(params(screensOnly).map((p) => [p.type, p.revision, p.coalesced])).toEqual([["screen", 1, undefined], ["screen", 3, 2]]);
});

test("a subscription belongs to its connection: another cannot end it; ending it stops events, held ones too", async () => {
  const hub = new EventHub();
  const owner = connection();
  const stranger = connection();
  const witness = connection();
  const id = hub.subscribe(owner, { session: null, types: ["screen"], debounceMs: 30 });
  hub.subscribe(witness, { session: null, types: ["screen"], debounceMs: 30 });
  expect(() => hub.unsubscribe(id, stranger)).toThrow(`no subscription "${id}" on this connection`);
  expect(() => hub.unsubscribe("sub-999", owner)).toThrow('no subscription "sub-999" on this connection');
  hub.publish(screen(1));
  hub.publish(screen(2)); // held by both
  hub.unsubscribe(id, owner);
  expect(hub.size).toBe(1);
  // The witness's window was opened after the owner's: once it is flushed, the owner's would have been too.
  expect((await witness.next()).params.revision).toBe(2);
  expect(params(owner).map((p) => p.revision)).toEqual([1]);
});

test("a closed connection's subscriptions all go; other connections keep theirs", async () => {
  const hub = new EventHub();
  const leaving = connection();
  const staying = connection();
  hub.subscribe(leaving, { session: "s", types: ["screen"], debounceMs: 30 });
  hub.subscribe(leaving, { session: null, types: ["exit"], debounceMs: 0 });
  hub.subscribe(staying, { session: null, types: ["screen"], debounceMs: 30 });
  expect(hub.size).toBe(3);
  hub.publish(screen(1));
  hub.publish(screen(2)); // held by both
  hub.dropConnection(leaving);
  expect(hub.size).toBe(1);
  const flushed = staying.next();
  hub.publish(exit()); // flushes what is held for the subscriptions left
  expect((await flushed).params.revision).toBe(2);
  expect(params(leaving).map((p) => p.revision)).toEqual([1]);
});

test("observers in the daemon see every event, subscribed or not, until they stop observing", () => {
  const hub = new EventHub();
  const seen: string[] = [];
  const stop = hub.observe((event) => seen.push(`${event.type}:${event.session}`));
  hub.publish(screen(1));
  hub.publish(exit("x"));
  stop();
  hub.publish(screen(2));
  expect(seen).toEqual(["screen:s", "exit:x"]);
});
