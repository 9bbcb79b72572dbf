import { expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, chownSync, chmodSync, readFileSync, symlinkSync, watch } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { processAlive, World } from "../helpers/harness.ts";

test("the first spawn starts the daemon; the socket dir is 0700 and the socket owner-only", async () => {
  await using world = World.empty();
  const started = await world.run(["spawn", "--", "sh", "-c", "read x"]);
  expect(started.code).toBe(0);
  const dir = lstatSync(dirname(world.socketPath));
  expect(dir.mode & 0o777).toBe(0o700);
  const socket = lstatSync(world.socketPath);
  expect(socket.isSocket()).toBe(true);
  expect(socket.mode & 0o077).toBe(0);
  const pidFile = JSON.parse(readFileSync(`${world.socketPath}.pid`, "utf8"));
  const status = await world.json(["daemon", "status"]);
  expect(status).toMatchObject({ pid: pidFile.pid, version: pidFile.version, namespace: world.namespace, socket: world.socketPath, sessions: 1 });
  expect(lstatSync(`${world.socketPath}.pid`).mode & 0o777).toBe(0o600);
  const stopped = await world.run(["daemon", "stop"]);
  expect(stopped.stdout).toContain("daemon stopped (1 session(s) killed)");
  // `daemon stop` returns once the daemon has gone: socket, pid file and process.
  expect(existsSync(world.socketPath)).toBe(false);
  expect(existsSync(`${world.socketPath}.pid`)).toBe(false);
  expect(processAlive(status.pid)).toBe(false);
});

test("without a daemon, list says so and other verbs exit 69 naming the namespace", async () => {
  await using world = World.empty();
  expect((await world.run(["list"])).stdout.trim()).toBe("no sessions (no daemon running)");
  const snap = await world.run(["snapshot"]);
  expect(snap.code).toBe(69);
  expect(snap.stderr).toContain(`no daemon is running for namespace "${world.namespace}"`);
  expect((await world.run(["daemon", "status"])).code).toBe(69);
  expect((await world.run(["daemon", "stop"])).stdout.trim()).toBe("no daemon running");
});

test("a stale socket left by a dead daemon is removed and a new daemon starts", async () => {
  await using world = World.empty();
  mkdirSync(dirname(world.socketPath), { recursive: true, mode: 0o700 });
  const made = Bun.spawnSync(["python3", "-c", "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])", world.socketPath]);
  expect(made.exitCode).toBe(0);
  expect(lstatSync(world.socketPath).isSocket()).toBe(true);
  expect((await world.run(["spawn", "--", "sh", "-c", "read x"])).code).toBe(0);
  expect((await world.json(["list"])).sessions).toHaveLength(1);
});

test("a symlinked socket directory is refused with exit 77", async () => {
  await using world = World.empty();
  const real = join(world.dir, "real");
  mkdirSync(real, { mode: 0o700 });
  symlinkSync(real, dirname(world.socketPath));
  for (const args of [["spawn", "--", "true"], ["daemon", "run"]]) {
    const result = await world.run(args);
    expect(result.code).toBe(77);
    expect(result.stderr + result.stdout).toContain(`refusing socket directory ${dirname(world.socketPath)}: it is a symlink`);
  }
  expect(existsSync(join(real, `${world.namespace}.sock`))).toBe(false);
});

test("a socket directory owned by another user, or open to others, is refused with exit 77", async () => {
  await using world = World.empty();
  const dir = dirname(world.socketPath);
  mkdirSync(dir, { mode: 0o700 });
  chownSync(dir, 65534, 65534);
  const foreign = await world.run(["spawn", "--", "true"]);
  expect(foreign.code).toBe(77);
  expect(foreign.stderr).toContain("owned by uid 65534");
  chownSync(dir, process.getuid!(), process.getgid!());
  chmodSync(dir, 0o755);
  const open = await world.run(["spawn", "--", "true"]);
  expect(open.code).toBe(77);
  expect(open.stderr).toContain("mode 755 lets others in (want 700)");
});

test("the daemon exits by itself after the idle timeout once it has no sessions and no clients", async () => {
  // Left alone, a daemon with no sessions exits after the timeout and removes its socket.
  await using alone = await World.start({ TUIWRIGHT_IDLE_TIMEOUT_MS: "150" });
  expect(await alone.daemon!.exited).toBe(0);
  expect(existsSync(alone.socketPath)).toBe(false);
  // A client's connection keeps it up (so the timeout can be longer than a loaded machine's
  // pause between start and connect); once its last session is killed and the client is gone,
  // it exits. (A CLI call after a 150 ms timeout raced the idle exit under load and started a
  // second daemon on the same socket.)
  await using world = await World.start({ TUIWRIGHT_IDLE_TIMEOUT_MS: "1000" });
  const rpc = await world.rpc();
  const { name } = (await rpc.call("spawn", { argv: ["sh", "-c", "read x"], env: { PATH: process.env.PATH! } })) as { name: string };
  expect(((await rpc.call("daemon.status", {})) as { idleTimeoutMs: number }).idleTimeoutMs).toBe(1000);
  await rpc.call("kill", { session: name });
  rpc.close();
  expect(await world.daemon!.exited).toBe(0);
  expect(existsSync(world.socketPath)).toBe(false);
});

test("a client of another version gets exit 69 naming the fix; daemon stop still works", async () => {
  await using world = World.empty();
  // A daemon run from source reports version 0.1.0+dev; the binary has a build id.
  const source = Bun.spawn([process.execPath, resolve(import.meta.dir, "../../main.ts"), "daemon", "run"], { env: world.env, stdout: "pipe", stderr: "pipe" });
  const reader = source.stdout.getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toStartWith("ready");
  // Refused before anything runs: the spawn must not have happened.
  const spawn = await world.run(["spawn", "--", "sh", "-c", "read x"]);
  expect(spawn.code).toBe(69);
  expect(spawn.stderr).toMatch(/the daemon \(pid \d+\) runs tuiwright 0\.1\.0\+dev; this client is 0\.1\.0\+[0-9a-f]{12}/);
  expect(spawn.stderr).toContain(`tuiwright daemon stop --ns ${world.namespace}`);
  // ping reports the daemon's version instead of refusing.
  expect((await world.run(["ping"])).stdout).toContain("(0.1.0+dev)");
  expect((await world.run(["daemon", "status"])).stdout).toContain("version 0.1.0+dev, namespace");
  expect((await world.run(["daemon", "status"])).stdout).toContain("0 session(s)");
  expect((await world.run(["daemon", "stop"])).code).toBe(0);
  expect(await source.exited).toBe(0);
});

test("namespaces are separate daemons", async () => {
  await using world = await World.start();
  await world.spawn(["sh", "-c", "read x"], ["--session", "here"]);
  const other = await world.run(["--ns", `${world.namespace}-other`, "list"], { env: { TUIWRIGHT_SOCKET: "" } });
  expect(other.stdout.trim()).toBe("no sessions (no daemon running)");
  const bad = await world.run(["--ns", "../evil", "list"]);
  expect(bad.code).toBe(64);
  expect(bad.stderr).toContain('invalid namespace "../evil"');
});
