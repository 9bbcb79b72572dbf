// Faults: a program killed with SIGKILL, a daemon killed with SIGKILL (its sessions reported as
// lost, leftover programs killed, casts still replayable), a client that hangs up mid-wait, and
// a disk that fills up under a recording (the session keeps running, the error is reported).
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";
import { RawSocket } from "../helpers/raw-socket.ts";

const isRoot = process.getuid?.() === 0;
let world: World | undefined;
afterEach(async () => {
  await world?.[Symbol.asyncDispose]();
  world = undefined;
});

/** Resolves once `pid` has exited (a pidfd wakes us; no polling), false after 10 s. */
async function exited(pid: number): Promise<boolean> {
  const probe = "import os,select,sys\ntry: fd=os.pidfd_open(int(sys.argv[1]))\nexcept ProcessLookupError: sys.exit(0)\nsys.exit(0 if select.select([fd],[],[],10)[0] else 1)";
  return (await Bun.spawn(["/usr/bin/python3", "-c", probe, String(pid)]).exited) === 0;
}

test("a program killed with SIGKILL: the session says so and its cast replays", async () => {
  world = await World.start();
  const { name, pid } = await world.spawn(["cat"]);
  await world.json(["type", "--session", name, "before-kill\r", "--wait-text", "before-kill"]);
  process.kill(pid, "SIGKILL");
  const waited = await world.json(["wait", "--session", name, "--exit"]);
  expect(waited.fired).toContain("exit");
  const { sessions } = await world.json(["list"]);
  expect(sessions[0]).toMatchObject({ state: "exited", exit: { signal: "SIGKILL" } });
  const replay = await world.run(["replay", sessions[0].cast, "--plain"]);
  expect(replay.code).toBe(0);
  expect(replay.stdout).toContain("before-kill");
});

test("a daemon killed with SIGKILL: list says its sessions are lost, the next daemon kills leftovers, casts replay", async () => {
  world = await World.start();
  // This program ignores SIGHUP and never reads its terminal (cat would end on the hangup's EIO), so it
  // outlives its terminal: a leak unless someone kills it.
  const stubborn = await world.spawn(["bash", "-c", "trap '' HUP; echo stubborn-ready; exec sleep 1000000"], ["--session", "stubborn"]);
  await world.json(["wait", "--session", "stubborn", "--text", "stubborn-ready"]);
  const cast = (await world.json(["get", "--session", "stubborn", "cast"])).value;
  world.daemon!.kill("SIGKILL");
  await world.daemon!.exited;

  const offline = await world.json(["list"]);
  expect(offline.lost).toEqual([expect.objectContaining({ name: "stubborn", pid: stubborn.pid, killed: false, cast })]);
  expect((await world.run(["list"])).stdout).toContain("lost: stubborn (bash -c");

  await world.startDaemon(); // finds the stale socket and the ledger
  const after = await world.json(["list"]);
  expect(after.sessions).toEqual([]);
  expect(after.lost).toEqual([expect.objectContaining({ name: "stubborn", killed: true })]);
  expect(await exited(stubborn.pid)).toBe(true);
  expect(world.daemonLog()).toContain("the previous daemon died with 1 session(s): stubborn");
  const replay = await world.run(["replay", cast, "--plain"]);
  expect(replay.code).toBe(0);
  expect(replay.stdout).toContain("stubborn-ready");
  // A clean shutdown leaves no ledger: the daemon after it reports nothing lost.
  await world.json(["daemon", "stop"]);
  await world.startDaemon();
  expect((await world.json(["list"])).lost).toEqual([]);
});

test("a client that hangs up mid-wait takes its wait with it; the daemon serves the next client at once", async () => {
  world = await World.start();
  const { name } = await world.spawn(["cat"]);
  const waiter = await RawSocket.open(world.socketPath);
  waiter.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "wait", params: { session: name, text: ["never-shown"], timeoutMs: 600_000 } }) + "\n");
  // The wait is in flight once a later call on the same connection has been answered.
  expect((await waiter.call({ jsonrpc: "2.0", id: 2, method: "daemon.status" })).result.pendingCalls).toBe(1);
  for (let i = 0; i < 50; i++) {
    const raw = await RawSocket.open(world.socketPath);
    raw.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "wait", params: { session: name, text: ["never-shown"], timeoutMs: 600_000 } }) + "\n");
    raw.close();
  }
  waiter.close();
  // Closes are handled in the daemon's event loop; a few round trips at most see them all.
  let pending = -1;
  for (let attempt = 0; attempt < 50 && pending !== 0; attempt++) pending = (await world.json(["daemon", "status"])).pendingCalls;
  expect(pending).toBe(0);
  await world.json(["type", "--session", name, "still-fine", "--wait-text", "still-fine"]);
  const waited = await world.json(["wait", "--session", name, "--text", "still-fine", "--timeout", "1000"]);
  expect(waited.fired).toEqual(['text "still-fine"']);
});

test.skipIf(!isRoot)("a full disk stops the recording, not the session; the error is in the session's info", async () => {
  world = await World.start();
  const disk = mkdtempSync(join(tmpdir(), "tw-full-"));
  mkdirSync(disk, { recursive: true });
  const mount = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk]);
  expect(mount.exitCode).toBe(0);
  try {
    const cast = join(disk, "session.cast");
    const { name } = await world.spawn(["bash", "-c", "head -c 200000 /dev/zero | tr '\\0' x; echo; echo flood-done; exec cat"], ["--cast", cast]);
    await world.json(["wait", "--session", name, "--text", "flood-done"]);
    await world.json(["type", "--session", name, "after-full\r", "--wait-text", "after-full"]);
    const { sessions } = await world.json(["list"]);
    expect(sessions[0].state).toBe("running");
    const snapshot = await world.json(["snapshot", "--session", name, "--include-meta"]);
    expect(snapshot.meta.recording).toMatchObject({ path: cast, error: expect.stringMatching(/recording stopped: .*(ENOSPC|no space|disk is full)/i) });
    // What was written before the disk filled is still a cast that replays.
    const replay = await world.run(["replay", cast, "--plain"]);
    expect(replay.code).toBe(0);
    await world.json(["kill", "--session", name]);
  } finally {
    Bun.spawnSync(["umount", disk]);
  }
});

test("a program that never reads its input: typing returns at once, the session stays responsive and killable", async () => {
  world = await World.start();
  const { name } = await world.spawn(["sleep", "1000"]);
  // Far more than the PTY's input buffer holds: the rest waits in our queue, not in a blocked write.
  const typed = await world.run(["type", "--session", name, "y".repeat(100_000)]);
  expect(typed.code).toBe(0);
  expect((await world.run(["snapshot", "--session", name, "--plain"])).code).toBe(0);
  expect((await world.json(["daemon", "status"])).sessions).toBe(1);
  expect((await world.run(["kill", "--session", name])).code).toBe(0);
  expect((await world.json(["list"])).sessions).toEqual([]);
});
