import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { TuiwrightError } from "../../lib/protocol/errors.ts";
import { processGone, useWorld, World } from "../helpers/harness.ts";

const world = useWorld();

test("a crashed worker fails only its own session; the daemon and other sessions carry on", async () => {
  const victim = await world.spawn(["bash", "--norc"], ["--session", "victim"]);
  await world.spawn(["bash", "--norc"], ["--session", "survivor"]);
  await world.json(["wait", "--session", "victim", "--regex", "[$#]$"]);
  await world.json(["wait", "--session", "survivor", "--regex", "[$#]$"]);

  const rpc = await world.rpc();
  // A wait in flight on the victim when it crashes fails as an internal error.
  const inFlight = rpc.call("wait", { session: "victim", text: ["never-printed"], timeoutMs: 30_000 }).catch((e: TuiwrightError) => e);
  await rpc.call("debug.crashWorker", { session: "victim" });
  const error = (await inFlight) as TuiwrightError;
  expect(error.errorName).toBe("internal");
  expect(error.message).toContain('session "victim": its worker crashed');
  rpc.close();

  const listed = await world.json(["list"]);
  expect(listed.sessions.find((s: any) => s.name === "victim").state).toBe("crashed");
  // Its program does not outlive the worker that owned its terminal.
  // SIGKILL was sent when the worker crashed; its delivery takes a moment on a loaded machine.
  expect(await processGone(victim.pid)).toBe(true);
  const snap = await world.run(["snapshot", "--session", "victim"]);
  expect(snap.code).toBe(69);
  expect(snap.stderr).toContain('session "victim" crashed');

  await world.json(["type", "--session", "survivor", "echo still-$((40+2))"]);
  await world.json(["press", "--session", "survivor", "Enter", "--wait-regex", "^still-42$"]);
  expect((await world.json(["kill", "--session", "victim"])).session).toBe("victim");
  expect((await world.json(["list"])).sessions.map((s: any) => s.name)).toEqual(["survivor"]);
});

test("a crashed worker's programs get SIGHUP first, as when a terminal closes, so they can clean up", async () => {
  const mark = `${world.dir}/cleaned-up`;
  // A program that removes its lock on SIGHUP (as pyenv's rehash does); SIGKILL would leave it.
  const { pid } = await world.spawn(["bash", "-c", `trap 'echo cleaned > ${mark}; exit 0' HUP; echo ready; read line`], ["--session", "locker"]);
  await world.json(["wait", "--session", "locker", "--text", "ready"]);
  const rpc = await world.rpc();
  await rpc.call("debug.crashWorker", { session: "locker" });
  rpc.close();
  expect(await processGone(pid)).toBe(true);
  expect(readFileSync(mark, "utf8")).toBe("cleaned\n");
});

test("debug.crashWorker and debug.memory are refused unless the daemon runs with TUIWRIGHT_DEBUG=1", async () => {
  await using other = await World.start({ TUIWRIGHT_DEBUG: "0" });
  await other.spawn(["sh", "-c", "read x"], ["--session", "safe"]);
  const rpc = await other.rpc();
  const error = await rpc.call("debug.crashWorker", { session: "safe" }).then(() => null, (e: TuiwrightError) => e);
  expect(error?.errorName).toBe("permission");
  const memory = await rpc.call("debug.memory", {}).then(() => null, (e: TuiwrightError) => e);
  expect(memory?.errorName).toBe("permission");
  rpc.close();
});

test("debug.memory reports the daemon's heap and each session worker's", async () => {
  const rpc = await world.rpc();
  const { name } = await world.spawn(["sh", "-c", "read x"], ["--session", "probed"]);
  const report = (await rpc.call("debug.memory", { gc: true, types: 3 })) as { rssBytes: number; daemon: { heapSize: number; types: Record<string, number> }; sessions: { session: string; heap: { objectCount: number } | null }[] };
  expect(report.rssBytes).toBeGreaterThan(0);
  expect(report.daemon.heapSize).toBeGreaterThan(0);
  expect(Object.keys(report.daemon.types)).toHaveLength(3);
  expect(report.sessions.find((s) => s.session === name)?.heap?.objectCount).toBeGreaterThan(0);
  rpc.close();
});
