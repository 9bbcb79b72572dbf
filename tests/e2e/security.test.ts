// Who can reach a daemon and what it leaves on disk: another user can neither connect nor list,
// everything in the state directory is owner-only, and a --secret reaches no file at all.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { BIN, useWorld } from "../helpers/harness.ts";

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

const world = useWorld();

/** Runs argv as uid/gid 65534 with no supplementary groups. */
async function asNobody(argv: string[], env: Record<string, string>) {
  const proc = Bun.spawn(["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", ...argv], { env, stdout: "pipe", stderr: "pipe", cwd: "/" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

// Switching users needs root; CI runs as root (it installs packages with apt-get).
test.skipIf(!isRoot)("another user can neither connect to the socket nor list the sessions", async () => {
  await world.json(["spawn", "--session", "mine", "--", "cat"]);
  const probe = `import socket,sys
s=socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1]); print("connected")
except OSError as e:
    print(type(e).__name__)`;
  const connect = await asNobody(["/usr/bin/python3", "-c", probe, world.socketPath], { PATH: process.env.PATH! });
  expect(connect.stdout.trim()).toBe("PermissionError");
  const list = await asNobody([BIN, "--json", "list"], { PATH: process.env.PATH!, HOME: "/nonexistent", TUIWRIGHT_SOCKET: world.socketPath, TUIWRIGHT_NS: world.namespace });
  expect(list.code).toBe(77);
  expect(list.stdout).not.toContain("mine");
  expect(JSON.parse(list.stdout).error).toMatchObject({ code: -32006, message: expect.stringContaining("permission denied (it belongs to another user)") });
});

test("the state directory is owner-only: 0700 directories, 0600 files, a --secret in none of them", async () => {
  const { name } = await world.spawn(["bash", "--norc", "--noprofile"]);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  await world.json(["type", "--session", name, "--secret", "pa55-w0rd-xyzzy", "--wait-text", "pa55-w0rd-xyzzy"]);
  await world.json(["press", "--session", name, "C-u"]);
  const shell = await world.json(["spawn", "--shell", "bash", "--session", "sh"]);
  expect(shell.name).toBe("sh");
  await world.json(["exec", "--session", "sh", "--", "echo transcript"]);
  await world.json(["kill", "--session", name]);

  const state = join(world.dir, "state");
  const loose: string[] = [];
  const holders: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const mode = statSync(path).mode & 0o777;
      if (entry.isDirectory()) {
        if (mode & 0o077) loose.push(`${path} ${mode.toString(8)}`);
        walk(path);
      } else if (entry.isFile()) {
        if (mode & 0o077) loose.push(`${path} ${mode.toString(8)}`);
        if (readFileSync(path, "latin1").includes("pa55-w0rd-xyzzy")) holders.push(path);
      }
    }
  };
  walk(state);
  expect(loose).toEqual([]);
  expect(holders).toEqual([]);
  expect(world.daemonLog()).not.toContain("pa55-w0rd-xyzzy");
  expect(readdirSync(state, { recursive: true }).some((p) => String(p).endsWith(".cast"))).toBe(true);
}, 30_000);
