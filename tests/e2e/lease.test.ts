import { expect, test } from "bun:test";
import { useWorld } from "../helpers/harness.ts";
import type { TuiwrightError } from "../../lib/protocol/errors.ts";

const world = useWorld();

test("while one owner holds the lease, other writers get 75 naming it; reads stay open; release frees it", async () => {
  const { name } = await world.spawn(["cat"]);
  const lease = await world.json(["lease", "acquire", "--session", name, "--owner", "agent-1", "--ttl", "60000"]);
  expect(lease).toMatchObject({ session: name, owner: "agent-1" });
  expect(lease.token).toMatch(/^[0-9a-f-]{36}$/);

  for (const args of [["type", "x"], ["press", "Enter"], ["resize", "90", "20"], ["signal", "INT"], ["kill"]]) {
    const refused = await world.run([args[0]!, "--session", name, ...args.slice(1)]);
    expect({ args, code: refused.code }).toEqual({ args, code: 75 });
    expect(refused.stderr).toMatch(new RegExp(`session "${name}" is leased to "agent-1" for another \\d+\\.\\d s`));
  }
  const second = await world.run(["lease", "acquire", "--session", name, "--owner", "agent-2"]);
  expect(second.code).toBe(75);
  expect((await world.json(["snapshot", "--session", name])).session).toBe(name);

  await world.json(["type", "--session", name, "--lease", lease.token, "mine\r", "--wait-regex", "^mine$"]);
  const viaEnv = await world.run(["press", "--session", name, "Enter"], { env: { TUIWRIGHT_LEASE: lease.token } });
  expect(viaEnv.code).toBe(0);

  const wrong = await world.run(["lease", "release", "--session", name, "--lease", "not-the-token"]);
  expect(wrong.code).toBe(77);
  await world.json(["lease", "release", "--session", name, "--lease", lease.token]);
  expect((await world.run(["type", "--session", name, "free"])).code).toBe(0);
  const again = await world.run(["lease", "release", "--session", name, "--lease", lease.token]);
  expect(again.code).toBe(65);
  expect(again.stderr).toContain("has no write lease to release");
});

test("a lease without a TTL dies with its connection, and subscribers are told", async () => {
  const { name } = await world.spawn(["cat"]);
  const holder = await world.rpc();
  const watcher = await world.rpc();
  await holder.call("lease.acquire", { session: name, owner: "long-lived" });
  const refused = await world.run(["type", "--session", name, "x"]);
  expect(refused.stderr).toContain('leased to "long-lived" until its connection closes');
  await watcher.call("subscribe", { session: name, types: ["lease"] });
  const freed = new Promise((resolve) => { watcher.onNotification = (m) => resolve(m.params); });
  holder.close();
  expect(await freed).toMatchObject({ type: "lease", session: name, owner: null });
  expect((await world.run(["type", "--session", name, "x"])).code).toBe(0);
  watcher.close();
});

test("a lease with a TTL expires on its own and renews with its token", async () => {
  const { name } = await world.spawn(["cat"]);
  const rpc = await world.rpc();
  await rpc.call("subscribe", { session: name, types: ["lease"] });
  const owners: (string | null)[] = [];
  const expired = new Promise<void>((resolve) => {
    rpc.onNotification = (m) => {
      const owner = (m.params as { owner: string | null }).owner;
      owners.push(owner);
      if (owner === null) resolve();
    };
  });
  const lease = (await rpc.call("lease.acquire", { session: name, owner: "short", ttlMs: 150 })) as { token: string };
  const renewed = (await rpc.call("lease.acquire", { session: name, owner: "short", ttlMs: 150, lease: lease.token })) as { token: string };
  expect(renewed.token).toBe(lease.token);
  const stolen = await rpc.call("lease.acquire", { session: name, owner: "thief" }).then(() => null, (e: TuiwrightError) => e);
  expect(stolen?.errorName).toBe("busy");
  await expired;
  expect(owners).toEqual(["short", null]);
  expect((await world.run(["type", "--session", name, "x"])).code).toBe(0);
  rpc.close();
});
