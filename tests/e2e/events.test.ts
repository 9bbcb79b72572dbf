import { expect, test } from "bun:test";
import { useWorld } from "../helpers/harness.ts";
import type { RpcClient } from "../../lib/transport/rpc-client.ts";

const world = useWorld();

type Event = { subscription: string; type: string; session: string; revision: number; hash: string; at: string; exit?: unknown; coalesced?: number; owner?: string | null };

/** Collects a subscription's events; `until` resolves once one matches, counting those already seen. */
function collector(rpc: RpcClient) {
  const seen: Event[] = [];
  let check: (() => void) | null = null;
  rpc.onNotification = (message) => {
    if (message.method !== "event") return;
    seen.push(message.params as Event);
    check?.();
  };
  return {
    seen,
    until(predicate: (event: Event) => boolean): Promise<Event[]> {
      return new Promise((resolve) => {
        check = () => { if (seen.some(predicate)) resolve(seen); };
        check();
      });
    },
  };
}

function collect(rpc: RpcClient, until: (event: Event) => boolean): Promise<Event[]> {
  return collector(rpc).until(until);
}

test("a subscriber sees screen events while seq runs, then the exit event", async () => {
  const { name } = await world.spawn(["sh", "-c", "read go; seq 1 100; echo done; read x; exit 4"]);
  const rpc = await world.rpc();
  const { subscription } = (await rpc.call("subscribe", { session: name })) as { subscription: string };
  const events = collect(rpc, (e) => e.type === "exit");
  await world.json(["type", "--session", name, "go\r", "--wait-text", "done"]);
  await world.json(["type", "--session", name, "bye\r"]);
  const seen = await events;
  const screens = seen.filter((e) => e.type === "screen");
  expect(screens.length).toBeGreaterThan(1);
  expect(seen.every((e) => e.session === name && e.subscription === subscription)).toBe(true);
  const revisions = screens.map((e) => e.revision);
  expect(revisions).toEqual([...revisions].sort((a, b) => a - b)); // in order
  expect(seen.at(-1)).toMatchObject({ type: "exit", exit: { code: 4, signal: null } });
  expect(seen.at(-1)!.hash).toMatch(/^[0-9a-f]{8}$/);
  rpc.close();
});

test("debounce folds screen events: fewer of them, folded counts, and the last one is the final screen", async () => {
  // 60 lines, 5 ms apart: a stream of separate screen changes over ~300 ms.
  const paced = "import sys,time\nsys.stdin.readline()\nfor i in range(60):\n  print(f'line {i}', flush=True); time.sleep(0.005)\nprint('finished', flush=True)\nsys.stdin.read()";
  const { name } = await world.spawn(["python3", "-c", paced]);
  const plain = await world.rpc();
  const debounced = await world.rpc();
  await plain.call("subscribe", { session: name, types: ["screen"] });
  await debounced.call("subscribe", { session: name, types: ["screen"], debounceMs: 100 });
  const raw = collector(plain);
  const folded = collector(debounced);
  await world.json(["type", "--session", name, "go\r", "--wait-text", "finished"]);
  const finalRevision = (await world.json(["wait", "--session", name, "--settled", "150"])).revision;
  const [all, coalesced] = await Promise.all([raw.until((e) => e.revision === finalRevision), folded.until((e) => e.revision === finalRevision)]);
  // A loaded machine delivers several lines per read (17 screens, not 60, in one CI run): the
  // stream is still long (≥ 300 ms) next to the 100 ms debounce, which folds it to a few.
  expect(all.length).toBeGreaterThan(10);
  expect(coalesced.length).toBeLessThan(all.length / 2);
  expect(coalesced.some((e) => (e.coalesced ?? 1) > 1)).toBe(true);
  expect(coalesced.at(-1)!.revision).toBe(finalRevision); // the latest wins
  plain.close();
  debounced.close();
});

test("types filter: only the asked-for events arrive; title and resize events carry their values", async () => {
  const { name } = await world.spawn(["sh", "-c", "read a; printf '\\033]2;new title\\007'; read b"]);
  const rpc = await world.rpc();
  await rpc.call("subscribe", { session: name, types: ["title", "resize"] });
  const events = collect(rpc, (e) => e.type === "resize");
  await world.json(["type", "--session", name, "x\r", "--wait-title", "new title"]);
  await world.json(["resize", "--session", name, "100", "30"]);
  const seen = await events;
  expect(seen.map((e) => e.type)).toEqual(["title", "resize"]);
  expect(seen[0]).toMatchObject({ title: "new title" });
  expect(seen[1]).toMatchObject({ cols: 100, rows: 30 });
  rpc.close();
});

test("the events CLI streams JSON lines and stops after --count", async () => {
  const { name } = await world.spawn(["sh", "-c", "read go; echo one; read x"]);
  const proc = Bun.spawn([`${import.meta.dir}/../../dist/tuiwright`, "events", "--session", name, "--types", "screen", "--count", "1"], {
    env: world.env, stdout: "pipe", stderr: "pipe",
  });
  const reader = proc.stderr.getReader();
  const { value } = await reader.read(); // the stream is live once it says so
  expect(new TextDecoder().decode(value)).toContain("subscribed (sub-");
  await world.json(["type", "--session", name, "go\r"]);
  expect(await proc.exited).toBe(0);
  const lines = (await new Response(proc.stdout).text()).trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({ type: "screen", session: name });
});

test("bad subscriptions: unknown type, unknown session, someone else's subscription", async () => {
  const bad = await world.run(["events", "--types", "screen,nope"]);
  expect(bad.code).toBe(64);
  expect(bad.stderr).toContain('unknown event type "nope"');
  const ghost = await world.run(["events", "--session", "ghost", "--count", "1"]);
  expect(ghost.code).toBe(66);
  const a = await world.rpc();
  const b = await world.rpc();
  const { subscription } = (await a.call("subscribe", {})) as { subscription: string };
  const error = await b.call("unsubscribe", { subscription }).then(() => null, (e) => e);
  expect(error?.errorName).toBe("bad-data");
  expect(await a.call("unsubscribe", { subscription })).toEqual({ subscription, unsubscribed: true });
  a.close();
  b.close();
});
