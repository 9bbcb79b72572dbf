// Retention for cron: `gc` keeps the newest N and what is younger than D days of recordings,
// shell transcripts and rc directories; flags > env > config.toml > defaults; files of live
// sessions and files tuiwright did not name are never touched; the daemon applies the policy at
// start; a failed spawn leaves no cast behind.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";

let world: World;
let state: string;
beforeAll(async () => {
  world = await World.start();
  state = join(world.dir, "state", "tuiwright", world.namespace);
});
afterAll(async () => { await world[Symbol.asyncDispose](); });

const casts = () => (existsSync(join(state, "casts")) ? readdirSync(join(state, "casts")).sort() : []);
const DAY_S = 86_400;

function age(path: string, days: number): void {
  const when = Date.now() / 1000 - days * DAY_S;
  utimesSync(path, when, when);
}

async function finishedSession(name: string): Promise<string> {
  await world.spawn(["true"], ["--session", name]);
  expect((await world.run(["wait", "--session", name, "--exit"])).code).toBe(0);
  const cast = (await world.run(["--plain", "get", "cast", "--session", name])).stdout.trim();
  expect((await world.run(["kill", "--session", name])).code).toBe(0);
  return cast;
}

test("a spawn that fails leaves no recording, rc directory or transcript", async () => {
  const before = casts();
  expect((await world.run(["spawn", "--session", "bad1", "--", "/no/such/program"])).code).toBe(66);
  expect((await world.run(["spawn", "--session", "bad2", "--cwd", "/no/such/dir", "--", "bash"])).code).toBe(66);
  expect((await world.run(["spawn", "--session", "bad3", "--cwd", "/no/such/dir", "--shell", "bash"])).code).toBe(66);
  expect(casts()).toEqual(before);
  const shells = existsSync(join(state, "shells")) ? readdirSync(join(state, "shells")) : [];
  expect(shells.filter((n) => n.startsWith("bad"))).toEqual([]);
});

test("gc --keep N keeps the newest N (--dry-run deletes nothing); --keep-days D removes older ones; live sessions and foreign files stay", async () => {
  const first = await finishedSession("r1");
  const second = await finishedSession("r2");
  const third = await finishedSession("r3");
  age(first, 3); age(second, 2); age(third, 1);
  await world.spawn(["bash", "--norc", "--noprofile"], ["--session", "live"]);
  const live = (await world.run(["--plain", "get", "cast", "--session", "live"])).stdout.trim();
  age(live, 400);
  writeFileSync(join(state, "casts", "notes.txt"), "mine");
  writeFileSync(join(state, "casts", "handmade.cast"), "mine");
  age(join(state, "casts", "handmade.cast"), 400);

  const dry = await world.run(["--json", "gc", "--keep", "1", "--dry-run"]);
  expect(dry.code).toBe(0);
  const planned = JSON.parse(dry.stdout);
  expect(planned.removed.map((r: any) => r.path).sort()).toEqual([first, second].sort());
  expect(planned.removed.every((r: any) => r.reason === "count" && r.kind === "cast")).toBe(true);
  expect(existsSync(first)).toBe(true);

  const kept = await world.run(["gc", "--keep", "1"]);
  expect(kept.code).toBe(0);
  expect(kept.stdout).toContain(`removed ${first} (cast,`);
  expect(kept.stdout).toMatch(/removed 2 item\(s\), [\d.]+ kB; kept 1 in /);
  expect([existsSync(first), existsSync(second), existsSync(third), existsSync(live)]).toEqual([false, false, true, true]);

  age(third, 40);
  const aged = await world.run(["--plain", "gc", "--keep-days", "30"]);
  expect(aged.stdout.trim()).toBe(third);
  expect(existsSync(live)).toBe(true);
  expect(existsSync(join(state, "casts", "notes.txt")) && existsSync(join(state, "casts", "handmade.cast"))).toBe(true);
  await world.run(["kill", "--session", "live"]);
});

test("the policy comes from config.toml or the environment when no flag gives it; bad values are clear errors", async () => {
  const config = join(world.dir, "config.toml");
  writeFileSync(config, "[retention]\nkeep = 0\nkeep_days = 7\n");
  const fromConfig = JSON.parse((await world.run(["--json", "gc", "--dry-run"], { env: { TUIWRIGHT_CONFIG: config } })).stdout);
  expect(fromConfig.policy).toEqual({ keep: 0, keepDays: 7, maxCastBytes: 256 * 1024 * 1024 });
  const fromEnv = JSON.parse((await world.run(["--json", "gc", "--dry-run"], { env: { TUIWRIGHT_CONFIG: config, TUIWRIGHT_KEEP_DAYS: "3" } })).stdout);
  expect(fromEnv.policy).toEqual({ keep: 0, keepDays: 3, maxCastBytes: 256 * 1024 * 1024 });
  const fromFlag = JSON.parse((await world.run(["--json", "gc", "--dry-run", "--keep-days", "2"], { env: { TUIWRIGHT_CONFIG: config, TUIWRIGHT_KEEP_DAYS: "3" } })).stdout);
  expect(fromFlag.policy).toEqual({ keep: 0, keepDays: 2, maxCastBytes: 256 * 1024 * 1024 });

  writeFileSync(config, "[retention]\nkeep_dayz = 7\n");
  const badKey = await world.run(["gc"], { env: { TUIWRIGHT_CONFIG: config } });
  expect(badKey.code).toBe(65);
  expect(badKey.stderr).toContain(`${config}: unknown key retention.keep_dayz`);
  writeFileSync(config, "[retention]\nkeep = -1\n");
  const negative = await world.run(["gc"], { env: { TUIWRIGHT_CONFIG: config } });
  expect(negative.code).toBe(65);
  expect(negative.stderr).toContain("retention.keep must be a whole number ≥ 0 (0: no limit); got -1");
  const badEnv = await world.run(["gc"], { env: { TUIWRIGHT_KEEP: "lots" } });
  expect(badEnv.code).toBe(64);
  expect(badEnv.stderr).toContain('TUIWRIGHT_KEEP must be a whole number ≥ 0; got "lots"');
  const badFlag = await world.run(["gc", "--keep", "x"]);
  expect(badFlag.code).toBe(64);
  expect((await world.run(["gc", "extra"])).stderr).toContain('gc takes no arguments; got "extra"');
});

test("the daemon applies the policy when it starts", async () => {
  const old = await finishedSession("old");
  age(old, 45);
  const transcript = join(state, "transcripts", "gone-20200101T000000000Z");
  mkdirSync(transcript, { recursive: true });
  writeFileSync(join(transcript, "blocks.jsonl"), "{}\n");
  age(transcript, 45);
  expect((await world.run(["daemon", "stop"])).code).toBe(0);
  await world.daemon!.exited;
  await world.startDaemon();
  expect(existsSync(old)).toBe(false);
  expect(existsSync(transcript)).toBe(false);
  expect(world.daemonLog()).toMatch(/retention removed 2 old recording\(s\)\/transcript\(s\), \d+ bytes \(keep 1000, keep-days 30\)/);
});
