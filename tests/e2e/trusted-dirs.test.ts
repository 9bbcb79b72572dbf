// Another local user must never get code run as us, in exactly the setting the tool is for:
// cron or `env -i`, with no HOME and no XDG variables, and a binary or state that could fall
// back into the shared temp directory. Each attack is played by a real second user (created
// with useradd when the tests run as root; skipped with the reason otherwise) against a victim
// user whose home comes from the passwd entry.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, World } from "../helpers/harness.ts";

const isRoot = process.getuid?.() === 0;
const VICTIM = "twtest-victim";
const ATTACKER = "twtest-attacker";
if (!isRoot) console.log("trusted-dirs: skipped — switching users needs root (CI runs as root)");

type User = { uid: number; gid: number; home: string };
type Run = { code: number; stdout: string; stderr: string };

function passwd(name: string): User | null {
  const line = readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid, , home] = line.split(":");
  return { uid: Number(uid), gid: Number(gid), home: home! };
}

function ensureUser(name: string): User {
  if (!passwd(name)) {
    const made = Bun.spawnSync(["useradd", "--create-home", "--shell", "/bin/sh", name]);
    if (made.exitCode !== 0 && !passwd(name)) throw new Error(`useradd ${name}: ${made.stderr.toString()}`);
  }
  const user = passwd(name)!;
  mkdirSync(user.home, { recursive: true, mode: 0o700 });
  Bun.spawnSync(["chown", `${user.uid}:${user.gid}`, user.home]);
  chmodSync(user.home, 0o700);
  return user;
}

async function as(user: User, argv: string[], env: Record<string, string>, cwd = "/"): Promise<Run> {
  const proc = Bun.spawn(["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "env", "-i", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv], {
    stdin: "ignore", stdout: "pipe", stderr: "pipe", cwd, env: {},
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

let victim: User;
let attacker: User;
let shared: string; // a directory like /tmp: world-writable and sticky
let bin: string; // the victim's binary, in a subdirectory of the shared directory
const namespace = `trust${process.pid}`;
/** The victim's environment under cron: no HOME, no XDG variables, a minimal PATH. */
let cronEnv: Record<string, string>;

beforeAll(() => {
  if (!isRoot) return;
  victim = ensureUser(VICTIM);
  attacker = ensureUser(ATTACKER);
  shared = mkdtempSync("/tmp/tw-shared-");
  chmodSync(shared, 0o1777);
  mkdirSync(join(shared, "bin"), { mode: 0o755 });
  Bun.spawnSync(["chown", `${victim.uid}:${victim.gid}`, join(shared, "bin")]);
  bin = join(shared, "bin", "tuiwright");
  copyFileSync(BIN, bin);
  chmodSync(bin, 0o755);
  cronEnv = { PATH: "/usr/bin:/bin", TMPDIR: shared, TUIWRIGHT_NS: namespace, LANG: "C.UTF-8" };
});

afterAll(async () => {
  if (!isRoot) return;
  await as(victim, [bin, "daemon", "stop"], cronEnv);
  Bun.spawnSync(["pkill", "-KILL", "-u", String(victim.uid), "-f", "tuiwright"]);
  rmSync(join(victim.home, ".local/state/tuiwright", namespace), { recursive: true, force: true });
  rmSync(shared, { recursive: true, force: true });
});

test.skipIf(!isRoot)("with no HOME the state goes to the passwd home, and a tree planted in the shared directory is never used", async () => {
  // The attacker pre-creates the old fallback tree: a daemon.log symlink to a file of the
  // victim's, world-writable directories for shells and transcripts.
  const planted = join(shared, ".local/state/tuiwright", namespace);
  const plant = `mkdir -p ${planted}/shells ${planted}/transcripts ${planted}/casts && chmod -R 777 ${shared}/.local && ln -s ${victim.home}/precious ${planted}/daemon.log`;
  expect((await as(attacker, ["sh", "-c", plant], { PATH: "/usr/bin:/bin" })).code).toBe(0);
  writeFileSync(join(victim.home, "precious"), "untouched\n");
  Bun.spawnSync(["chown", `${victim.uid}:${victim.gid}`, join(victim.home, "precious")]);

  const spawned = await as(victim, [bin, "--json", "spawn", "--shell", "bash", "--session", "cron"], cronEnv);
  expect(spawned.stderr).toBe("");
  expect(spawned.code).toBe(0);
  const exec = await as(victim, [bin, "exec", "--session", "cron", "--", "echo from-cron"], cronEnv);
  expect(exec.stdout).toContain("from-cron");
  expect(exec.code).toBe(0);

  expect(readFileSync(join(victim.home, "precious"), "utf8")).toBe("untouched\n");
  expect(readdirSync(planted).sort()).toEqual(["casts", "daemon.log", "shells", "transcripts"]);
  for (const dir of ["shells", "transcripts", "casts"]) expect(readdirSync(join(planted, dir))).toEqual([]);

  const state = join(victim.home, ".local/state/tuiwright", namespace);
  for (const dir of [state, join(state, "shells"), join(state, "transcripts"), join(state, "casts")]) {
    const stat = lstatSync(dir);
    expect({ dir, directory: stat.isDirectory(), uid: stat.uid, mode: stat.mode & 0o777 }).toEqual({ dir, directory: true, uid: victim.uid, mode: 0o700 });
  }
  expect(lstatSync(join(state, "daemon.log")).isFile()).toBe(true);
  // The rc file bash read sits in a fresh 0700 directory of its own.
  const [shellDir] = readdirSync(join(state, "shells"));
  expect(statSync(join(state, "shells", shellDir!)).mode & 0o777).toBe(0o700);
  expect(statSync(join(state, "shells", shellDir!, "bashrc")).mode & 0o777).toBe(0o600);
});

test.skipIf(!isRoot)("a state, config or data root that another user controls is refused with 77, naming it", async () => {
  const hostile = join(shared, "hostile");
  expect((await as(attacker, ["sh", "-c", `mkdir -m 777 ${hostile}`], { PATH: "/usr/bin:/bin" })).code).toBe(0);
  for (const variable of ["XDG_STATE_HOME"]) {
    const run = await as(victim, [bin, "spawn", "--session", "x", "--", "true"], { ...cronEnv, TUIWRIGHT_NS: `${namespace}b`, [variable]: hostile });
    expect(run.code).toBe(77);
    expect(run.stderr).toContain(`refusing state directory ${hostile}: owned by uid ${attacker.uid}, not ${victim.uid}`);
  }
  // The shared directory itself (world-writable) is no state root either.
  const sticky = await as(victim, [bin, "spawn", "--session", "x", "--", "true"], { ...cronEnv, TUIWRIGHT_NS: `${namespace}c`, XDG_STATE_HOME: shared });
  expect(sticky.code).toBe(77);
  expect(sticky.stderr).toContain(`refusing state directory ${shared}:`);
  expect(sticky.stderr).toContain("lets others write to it");
  // A HOME that belongs to someone else is refused too.
  const foreignHome = await as(victim, [bin, "spawn", "--session", "x", "--", "true"], { ...cronEnv, TUIWRIGHT_NS: `${namespace}d`, HOME: attacker.home });
  expect(foreignHome.code).toBe(77);
  expect(foreignHome.stderr).toContain(`refusing state directory ${attacker.home}`);
});

test.skipIf(!isRoot)("a manifest planted by another user is never loaded: the config root is verified", async () => {
  const config = join(shared, "config");
  const plant = `mkdir -p -m 777 ${config}/tuiwright/adapters && printf 'name = "evil"\\n' > ${config}/tuiwright/adapters/evil.toml`;
  expect((await as(attacker, ["sh", "-c", plant], { PATH: "/usr/bin:/bin" })).code).toBe(0);
  const list = await as(victim, [bin, "--json", "adapter", "list"], { ...cronEnv, TUIWRIGHT_NS: `${namespace}e`, XDG_CONFIG_HOME: config });
  await as(victim, [bin, "daemon", "stop"], { ...cronEnv, TUIWRIGHT_NS: `${namespace}e` });
  expect(list.code).toBe(0);
  const listed = JSON.parse(list.stdout);
  expect(listed.adapters.map((m: { name: string }) => m.name)).not.toContain("evil");
  expect(JSON.stringify(listed.errors)).toContain(`refusing adapters directory ${config}: owned by uid ${attacker.uid}`);
});

test.skipIf(!isRoot)("Carbonyl is never run from beside the binary or from a shared directory", async () => {
  const marker = join(shared, "pwned");
  const fake = `#!/bin/sh\ntouch ${marker}\n`;
  const places = [
    join(shared, "node_modules/@fathyb/carbonyl-linux-amd64/build"), // <binary dir>/../node_modules
    join(shared, ".local/share/tuiwright/carbonyl/node_modules/@fathyb/carbonyl-linux-amd64/build"), // $TMPDIR/.local/share
  ];
  const plant = places.map((dir) => `mkdir -p ${dir} && printf '${fake.replace(/\n/g, "\\n")}' > ${dir}/carbonyl && chmod 755 ${dir}/carbonyl`).join(" && ");
  expect((await as(attacker, ["sh", "-c", `${plant} && chmod -R 777 ${shared}/node_modules ${shared}/.local`], { PATH: "/usr/bin:/bin" })).code).toBe(0);

  const browse = await as(victim, [bin, "browse", "--session", "web", "http://127.0.0.1:9/"], { ...cronEnv, TUIWRIGHT_NS: `${namespace}f` });
  await as(victim, [bin, "daemon", "stop"], { ...cronEnv, TUIWRIGHT_NS: `${namespace}f` });
  expect(existsSync(marker)).toBe(false);
  expect(browse.code).toBe(69);
  expect(browse.stderr).toContain("Carbonyl is not installed");
  expect(browse.stderr).toContain(`${victim.home}/.local/share/tuiwright/carbonyl`);
});

test("a FIFO, a directory and a symlink loop named *.toml are reported by path and never block the daemon", async () => {
  await using world = World.empty();
  const adapters = join(world.dir, "config/tuiwright/adapters");
  mkdirSync(adapters, { recursive: true, mode: 0o700 });
  expect(Bun.spawnSync(["mkfifo", join(adapters, "fifo.toml")]).exitCode).toBe(0);
  mkdirSync(join(adapters, "dir.toml"));
  Bun.spawnSync(["ln", "-s", "loop.toml", join(adapters, "loop.toml")]);
  writeFileSync(join(adapters, "big.toml"), "#".repeat(1024 * 1024 + 1));
  const env = { XDG_CONFIG_HOME: join(world.dir, "config") };
  const listed = await world.run(["--json", "adapter", "list"], { env });
  expect(listed.code).toBe(0);
  const errors = Object.fromEntries(JSON.parse(listed.stdout).errors.map((e: { file: string; message: string }) => [e.file.slice(adapters.length + 1), e.message]));
  expect(errors["fifo.toml"]).toContain("fifo.toml: is not a regular file (a FIFO, socket or device is never read)");
  expect(errors["dir.toml"]).toContain("dir.toml: is a directory, not a manifest file");
  expect(errors["loop.toml"]).toContain("loop.toml: is a symlink loop");
  expect(errors["big.toml"]).toContain("1048577 bytes is over the 1048576-byte limit");
  // The daemon still answers: nothing blocked its main thread.
  expect((await world.run(["--json", "list"], { env })).code).toBe(0);
});

test("config.toml is read like a manifest: a FIFO is refused by path instead of blocking gc or the daemon", async () => {
  await using world = World.empty();
  const config = join(world.dir, "config/tuiwright");
  mkdirSync(config, { recursive: true, mode: 0o700 });
  expect(Bun.spawnSync(["mkfifo", join(config, "config.toml")]).exitCode).toBe(0);
  const gc = await world.run(["gc", "--dry-run"], { env: { XDG_CONFIG_HOME: join(world.dir, "config") } });
  expect(gc.code).toBe(65);
  expect(gc.stderr).toContain(`config file "${join(config, "config.toml")}" is not a regular file`);
});

test("a relative TUIWRIGHT_ADAPTERS_DIR is named as the problem: built-ins only, nothing read from the cwd", async () => {
  await using world = World.empty({ TUIWRIGHT_ADAPTERS_DIR: "my-adapters" });
  const listed = await world.run(["--json", "adapter", "list"]);
  expect(listed.code).toBe(0);
  const { adapters, errors } = JSON.parse(listed.stdout);
  expect(adapters.every((a: { origin: string }) => a.origin === "builtin")).toBe(true);
  expect(JSON.stringify(errors)).toContain('TUIWRIGHT_ADAPTERS_DIR must be an absolute path, got \\"my-adapters\\"');
});
