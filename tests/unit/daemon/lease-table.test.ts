// Write leases: one holder per session, refused callers told who holds it and for how long,
// renewal with the token, release only with the token, expiry on a timer, and leases tied to
// the connection that took them. Every change of holder is reported; waits are on those
// reports, never on a clock.
import { expect, test } from "bun:test";
import { LeaseTable } from "../../../lib/daemon/lease-table.ts";
import type { Connection } from "../../../lib/runtime/unix-socket.ts";
import { thrown } from "../../helpers/errors.ts";

let ids = 0;
const connection = (): Connection => ({ id: ++ids, queuedBytes: 0, send() {}, end() {} });

function table() {
  const changes: [string, string | null][] = [];
  const waiting: (() => void)[] = [];
  const leases = new LeaseTable((session, owner) => {
    changes.push([session, owner]);
    waiting.shift()?.();
  });
  return { leases, changes, nextChange: () => new Promise<void>((resolve) => waiting.push(resolve)) };
}


test("a lease is held until its connection closes; others are refused as busy, naming the holder", () => {
  const { leases, changes } = table();
  const mine = connection();
  const lease = leases.acquire("s", { owner: "agent-1", connection: mine });
  expect(lease).toEqual({ session: "s", owner: "agent-1", token: expect.stringMatching(/^[0-9a-f-]{36}$/), expiresAt: null });
  expect(changes).toEqual([["s", "agent-1"]]);

  const busy = thrown(() => leases.acquire("s", { owner: "agent-2", connection: connection() }));
  expect(busy.errorName).toBe("busy");
  expect(busy.exitCode).toBe(75);
  expect(busy.message).toBe('session "s" is leased to "agent-1" until its connection closes');
  expect(busy.details).toEqual({ owner: "agent-1" });
  expect(busy.hint).toContain("--lease");

  expect(() => leases.check("s", undefined)).toThrow('session "s" is leased to "agent-1"');
  expect(() => leases.check("s", "not-the-token")).toThrow('session "s" is leased to "agent-1"');
  leases.check("s", lease.token);
  leases.check("other-session", undefined); // a session without a lease is free
  expect(changes).toHaveLength(1);
});

test("the token renews a lease (same token) and can hand it to a new owner name", () => {
  const { leases, changes } = table();
  const first = leases.acquire("s", { owner: "a", connection: connection() });
  const renewed = leases.acquire("s", { owner: "a", token: first.token, ttlMs: 60_000, connection: connection() });
  expect(renewed.token).toBe(first.token);
  expect(Date.parse(renewed.expiresAt!)).toBeGreaterThan(Date.now());
  expect(changes).toEqual([["s", "a"]]); // same owner: no change to report
  expect(thrown(() => leases.acquire("s", { owner: "b", token: "guess", connection: connection() })).errorName).toBe("busy");
  const handed = leases.acquire("s", { owner: "b", token: first.token, connection: connection() });
  expect(handed).toMatchObject({ owner: "b", token: first.token, expiresAt: null });
  expect(changes).toEqual([["s", "a"], ["s", "b"]]);
  leases.release("s", first.token); // clears the renewed lease's timer too
});

test("release needs the lease's token; without a lease it is bad data", () => {
  const { leases, changes } = table();
  const none = thrown(() => leases.release("s", "anything"));
  expect(none.errorName).toBe("bad-data");
  expect(none.message).toBe('session "s" has no write lease to release');
  const { token } = leases.acquire("s", { owner: "a", connection: connection() });
  const wrong = thrown(() => leases.release("s", "wrong"));
  expect(wrong.errorName).toBe("permission");
  expect(wrong.message).toBe(`the write lease on session "s" is held by "a"; the token given is not its token`);
  leases.check("s", token); // still held
  leases.release("s", token);
  leases.check("s", undefined);
  expect(changes).toEqual([["s", "a"], ["s", null]]);
  expect(leases.acquire("s", { owner: "b", connection: connection() }).token).not.toBe(token);
});

test("a lease with a TTL says how long it has left and expires by itself, reported as released", async () => {
  const { leases, changes, nextChange } = table();
  const long = leases.acquire("long", { owner: "a", ttlMs: 600_000, connection: connection() });
  expect(Date.parse(long.expiresAt!) - Date.now()).toBeGreaterThan(590_000);
  expect(thrown(() => leases.check("long", undefined)).message).toMatch(/^session "long" is leased to "a" for another (599|600)\.\d s$/);

  const expired = nextChange().then(() => nextChange());
  leases.acquire("short", { owner: "b", ttlMs: 20, connection: connection() }); // first change: acquired
  await expired; // second change: expired
  expect(changes.filter(([session]) => session === "short")).toEqual([["short", "b"], ["short", null]]);
  leases.check("short", undefined);
  leases.forget("long");
});

test("a closed connection ends the leases it holds without a TTL, and only those", () => {
  const { leases, changes } = table();
  const closing = connection();
  leases.acquire("a", { owner: "x", connection: closing });
  leases.acquire("b", { owner: "x", ttlMs: 600_000, connection: closing }); // a TTL lease outlives its connection
  leases.acquire("c", { owner: "y", connection: connection() });
  leases.dropConnection(closing);
  leases.check("a", undefined);
  expect(() => leases.check("b", undefined)).toThrow("leased");
  expect(() => leases.check("c", undefined)).toThrow("leased");
  expect(changes).toEqual([["a", "x"], ["b", "x"], ["c", "y"], ["a", null]]);
  leases.forget("b");
});

test("a session that is gone takes its lease with it, silently", () => {
  const { leases, changes } = table();
  leases.acquire("s", { owner: "a", ttlMs: 600_000, connection: connection() });
  leases.forget("s");
  leases.forget("never-leased");
  leases.check("s", undefined);
  expect(changes).toEqual([["s", "a"]]);
});
