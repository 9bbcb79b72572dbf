// Findings 4 and 6: app folders are code. `desktop install`, `desktop create` and `desktop
// restore` run a folder's main.js as us, so a folder (and every file read from it) must be ours
// or root's and writable by nobody else — the rule user manifests have — or it is refused with
// exit 77 naming it, before any of its code runs; `restore` answers which folders it runs. And
// what is read from a folder or a state file has the manifests' limits: a FIFO is refused at
// once (it blocked the daemon's main thread for good), /dev/zero or a huge file by its size.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, cpSync, existsSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BIN, useWorld } from "../helpers/harness.ts";
import { asAttacker, attacker, isRoot, runBounded, sharedDir, SKIP_REASON } from "./other-user.ts";

setDefaultTimeout(60_000);
if (!isRoot) console.log(`app-folders: the other-user tests are skipped — ${SKIP_REASON}`);

const TODO = resolve(import.meta.dir, "../../examples/apps/todo");
const world = useWorld();
let shared: string;
let desktop: string;
/** What a hostile main.js leaves behind if it ever runs (Bun is reachable from app code). */
let marker: string;

beforeAll(async () => {
  if (isRoot) shared = sharedDir();
  marker = join(world.dir, "evil-ran");
  desktop = (await world.json(["desktop", "create"])).desktop;
});

afterAll(() => {
  if (shared) rmSync(shared, { recursive: true, force: true });
});

const run = (args: string[], withinMs?: number) => runBounded([BIN, ...args], world.env, withinMs);

/** An app folder written by the attacker in the shared directory, mode 777, that would leave
 * the marker if it ran. */
function plantEvilApp(name: string): string {
  const dir = join(shared, name);
  const manifest = JSON.stringify({ id: `com.evil.${name.replace(/\W/g, "")}`, name: "Evil", version: "1.0.0", entry: "main.js", permissions: [] });
  const code = `document.body.setAttribute("view", "Main"); document.body.innerHTML = "<h1>evil</h1>"; globalThis.Bun?.write(${JSON.stringify(marker)}, "ran");`;
  asAttacker(`mkdir -m 777 ${dir} && printf '%s' '${manifest}' > ${dir}/aoapp.json && printf '%s' '${code}' > ${dir}/main.js`);
  return dir;
}

/** A copy of the todo app that is ours. */
function ownApp(name: string): string {
  const dir = join(world.dir, name);
  cpSync(TODO, dir, { recursive: true });
  chmodSync(dir, 0o755);
  return dir;
}

const installedApps = async () => (await world.json(["desktop", "list"])).desktops.flatMap((d: { apps: { name: string }[] }) => d.apps.map((a) => a.name));

test.skipIf(!isRoot)("desktop install refuses (77) an app folder another user owns, before any of its code runs", async () => {
  const evil = plantEvilApp("theirs");
  const result = await run(["desktop", "install", "--desktop", desktop, "--open", evil]);
  expect(result.code).toBe(77);
  expect(result.stderr).toContain(`E_PERMISSION: refusing app folder ${evil}: owned by uid ${attacker().uid}, not 0`);
  expect(result.stderr).toContain("an app folder is code that runs as you");
  expect(await installedApps()).not.toContain("Evil");
  expect(existsSync(marker)).toBe(false);
});

test("desktop install refuses (77) a folder of ours that others can write (777), and a file in it that is not ours", async () => {
  const open = ownApp("open-app");
  chmodSync(open, 0o777);
  const loose = await run(["desktop", "install", "--desktop", desktop, open]);
  expect(loose.code).toBe(77);
  expect(loose.stderr).toContain(`refusing app folder ${open}: mode 777 lets others write to it`);
  chmodSync(open, 0o755);
  chmodSync(join(open, "main.js"), 0o666);
  const writable = await run(["desktop", "install", "--desktop", desktop, open]);
  expect(writable.code).toBe(77);
  expect(writable.stderr).toContain(`app file ${JSON.stringify(join(open, "main.js"))} has mode 666, which lets others write to it`);
  expect(await installedApps()).not.toContain("Todo");
});

test.skipIf(!isRoot)("an entry that is a symlink to another user's file is refused (77)", async () => {
  asAttacker(`printf '%s' 'globalThis.Bun?.write(${JSON.stringify(marker)}, "ran");' > ${shared}/payload.js`);
  const app = ownApp("linked-app");
  rmSync(join(app, "main.js"));
  symlinkSync(join(shared, "payload.js"), join(app, "main.js"));
  const result = await run(["desktop", "install", "--desktop", desktop, "--open", app]);
  expect(result.code).toBe(77);
  expect(result.stderr).toContain(`is owned by uid ${attacker().uid}, not 0: refusing another user's app file`);
  expect(existsSync(marker)).toBe(false);
});

test.skipIf(!isRoot)("desktop restore refuses (77) a state naming another user's folder; a good one answers which folders it runs", async () => {
  const evil = plantEvilApp("restored");
  // A state as another AOTUI runtime (or a hand) writes it: §9.3's fields, no logs or counters.
  const state = (dir: string, id: string) => JSON.stringify({ id, createdAt: Date.now(), apps: [{ appId: "x", alias: "app_3", status: "running", mountedViews: [], dir, views: [], operationLog: [] }], installed: [{ alias: "app_3", appId: "x", dir }] });
  writeFileSync(join(world.dir, "evil-state.json"), state(evil, "desktop_evil"));
  // The preview checks the folders as the restore does: refused alike, nothing run.
  const previewed = await run(["desktop", "restore", "--dry-run", join(world.dir, "evil-state.json")]);
  expect(previewed.code).toBe(77);
  expect(previewed.stderr).toContain(`refusing app folder ${evil}: owned by uid ${attacker().uid}`);
  const refused = await run(["desktop", "restore", join(world.dir, "evil-state.json")]);
  expect(refused.code).toBe(77);
  expect(refused.stderr).toContain(`refusing app folder ${evil}: owned by uid ${attacker().uid}`);
  expect(existsSync(marker)).toBe(false);
  expect((await world.json(["desktop", "list"])).desktops.map((d: { desktop: string }) => d.desktop)).not.toContain("desktop_evil");

  const mine = ownApp("restored-app");
  writeFileSync(join(world.dir, "good-state.json"), state(mine, "desktop_good"));
  const restored = await run(["--json", "desktop", "restore", join(world.dir, "good-state.json")]);
  expect(restored.stderr).toBe("");
  expect(restored.code).toBe(0);
  expect(JSON.parse(restored.stdout)).toMatchObject({ desktop: "desktop_good", folders: [mine], apps: expect.arrayContaining([expect.objectContaining({ name: "Todo" })]) });
  const text = await run(["desktop", "destroy", "--desktop", "desktop_good"]);
  expect(text.code).toBe(0);
});

test("a desktop state without logs or counters restores (it exited 70), and says which folders run", async () => {
  const mine = ownApp("no-logs-app");
  const state = { id: "desktop_nologs", createdAt: Date.now(), apps: [], installed: [{ alias: "app_3", appId: "com.example.todo", dir: mine }] };
  writeFileSync(join(world.dir, "no-logs.json"), JSON.stringify(state));
  // --dry-run says which folders a restore would run, and creates and runs nothing.
  const preview = await run(["desktop", "restore", "--dry-run", join(world.dir, "no-logs.json")]);
  expect(preview.stderr).toBe("");
  expect(preview.code).toBe(0);
  expect(preview.stdout).toBe(`would restore desktop_nologs (nothing created, nothing run)\nwould run code from: ${mine}\n`);
  expect((await world.json(["desktop", "list"])).desktops.map((d: { desktop: string }) => d.desktop)).not.toContain("desktop_nologs");
  expect(JSON.parse((await run(["--json", "desktop", "restore", "--dry-run", join(world.dir, "no-logs.json")])).stdout)).toMatchObject({ desktop: "desktop_nologs", dryRun: true, folders: [mine], apps: [] });
  const restored = await run(["desktop", "restore", join(world.dir, "no-logs.json")]);
  expect(restored.stderr).toBe("");
  expect(restored.code).toBe(0);
  expect(restored.stdout).toStartWith(`restored desktop_nologs\nruns code from: ${mine}\n`);
  writeFileSync(join(world.dir, "bad-logs.json"), JSON.stringify({ ...state, id: "desktop_badlogs", logs: "nope" }));
  const bad = await run(["desktop", "restore", join(world.dir, "bad-logs.json")]);
  expect(bad.code).toBe(65);
  expect(bad.stderr).toContain("not a saved desktop state: logs must be a list of {number, text}");
  expect((await run(["desktop", "destroy", "--desktop", "desktop_nologs"])).code).toBe(0);
});

test("a FIFO as aoapp.json is refused at once (65) and the daemon goes on answering", async () => {
  const app = ownApp("fifo-app");
  rmSync(join(app, "aoapp.json"));
  expect(Bun.spawnSync(["mkfifo", join(app, "aoapp.json")]).exitCode).toBe(0);
  const result = await run(["desktop", "install", "--desktop", desktop, app]);
  expect({ code: result.code, hung: result.hung }).toEqual({ code: 65, hung: false });
  expect(result.stderr).toContain(`app file ${JSON.stringify(join(app, "aoapp.json"))} is not a regular file (a FIFO, socket or device is never read)`);
  const listed = await run(["desktop", "list"], 10_000);
  expect({ code: listed.code, hung: listed.hung }).toEqual({ code: 0, hung: false });
});

test("/dev/zero as aoapp.json, or a 64 MiB main.js, is refused by type or size — never read whole", async () => {
  const zero = ownApp("zero-app");
  rmSync(join(zero, "aoapp.json"));
  symlinkSync("/dev/zero", join(zero, "aoapp.json"));
  const device = await run(["desktop", "install", "--desktop", desktop, zero]);
  expect({ code: device.code, hung: device.hung }).toEqual({ code: 65, hung: false });
  expect(device.stderr).toContain("is not a regular file");
  const big = ownApp("big-app");
  truncateSync(join(big, "main.js"), 64 << 20); // sparse: 64 MiB that take no disk
  const huge = await run(["desktop", "install", "--desktop", desktop, big]);
  expect({ code: huge.code, hung: huge.hung }).toEqual({ code: 65, hung: false });
  expect(huge.stderr).toContain(`is too big: ${64 << 20} bytes is over the ${32 << 20}-byte limit`);
});

test("a FIFO or /dev/zero as a state file or as the manifest to check is refused by the CLI at once (65)", async () => {
  const fifo = join(world.dir, "state.fifo");
  expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
  for (const args of [["desktop", "restore", fifo], ["adapter", "check", fifo], ["desktop", "restore", "/dev/zero"], ["adapter", "check", "/dev/zero"]]) {
    const result = await run(args);
    expect({ args, code: result.code, hung: result.hung }).toEqual({ args, code: 65, hung: false });
    expect(result.stderr).toContain("is not a regular file (a FIFO, socket or device is never read)");
  }
  const big = join(world.dir, "big-state.json");
  writeFileSync(big, "");
  truncateSync(big, 8 << 20);
  const huge = await run(["desktop", "restore", big]);
  expect(huge.code).toBe(65);
  expect(huge.stderr).toContain(`is too big: ${8 << 20} bytes is over the ${1 << 20}-byte limit`);
});

test.skipIf(!isRoot)("a state file another user wrote (it names the code to run) is refused (77)", async () => {
  asAttacker(`printf '%s' '{"id":"desktop_x","createdAt":1,"apps":[],"installed":[]}' > ${shared}/their-state.json`);
  const result = await run(["desktop", "restore", join(shared, "their-state.json")]);
  expect(result.code).toBe(77);
  expect(result.stderr).toContain(`is owned by uid ${attacker().uid}, not 0: refusing another user's state file`);
});
