// Re-records the truth corpus: every scenario (scenarios.ts) played by tuiwright itself on a
// real PTY, recorded as asciicast v3 with a `truth:NAME` marker at each labelled state.
//   bun run build && bun tests/truth/record.ts [NAME...]
// then look at each changed state (bun tests/truth/show.ts CAST) and update its labels: the
// checker refuses labels whose text is no longer where they say. Each step waits on screen
// state, never on time.
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";
import { SCENARIOS, type Scenario } from "./scenarios.ts";
import { makeScratch } from "./scratch.ts";

const OUT = join(import.meta.dir, "casts");
/** Same language, zone and no user config for every program, whoever records. */
const BASE_ENV = { LANG: "C.UTF-8", LC_ALL: "C.UTF-8", TZ: "UTC", EDITOR: "vim", PAGER: "less", LESSHISTFILE: "-" };

async function cli(world: World, args: string[], env: Record<string, string> = {}, cwd?: string): Promise<any> {
  const result = await world.run(["--json", ...args], { env: { ...BASE_ENV, ...env }, cwd });
  if (result.code !== 0) throw new Error(`tuiwright ${args.join(" ")} exited ${result.code}: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout);
}

function startSleepers(count: number): ChildProcess[] {
  return Array.from({ length: count }, (_, i) => spawn("sleep", [String(86400 + i)], { stdio: "ignore" }));
}

async function record(world: World, scenario: Scenario, work: string): Promise<void> {
  const sleepers = startSleepers(scenario.sleepers ?? 0);
  const cast = join(world.dir, `${scenario.name}.cast`);
  rmSync(cast, { force: true });
  try {
    const pids = sleepers.map((s) => s.pid).join(",");
    const argv = scenario.argv.map((a) => a.replace("{pids}", pids));
    const [cols, rows] = scenario.size;
    const { name } = await cli(world, ["spawn", "--session", scenario.name, "--cwd", work, "--cast", cast, "--cols", String(cols), "--rows", String(rows), "--", ...argv], scenario.env, work);
    try {
      for (const [verb, ...args] of scenario.steps) await cli(world, [verb!, "--session", name, ...args]);
    } finally {
      await cli(world, ["kill", "--session", name, "--grace", "500"]).catch(() => {});
    }
    copyFileSync(cast, join(OUT, `${scenario.name}.cast`));
  } finally {
    for (const s of sleepers) s.kill();
  }
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !SCENARIOS.some((s) => s.name === w));
if (unknown.length) throw new Error(`no scenario named ${unknown.join(", ")}; they are: ${SCENARIOS.map((s) => s.name).join(" ")}`);
mkdirSync(OUT, { recursive: true });
const world = await World.start();
const failed: string[] = [];
try {
  const work = makeScratch(join(world.dir, "work"));
  mkdirSync(join(work, "w3m-home"), { recursive: true });
  for (const scenario of SCENARIOS.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
    try {
      await record(world, scenario, work);
      console.log(`recorded ${scenario.name}`);
    } catch (error) {
      failed.push(scenario.name);
      console.error(`FAILED ${scenario.name}: ${(error as Error).message.slice(0, 2000)}`);
    }
  }
} finally {
  await world[Symbol.asyncDispose]();
}
if (failed.length) {
  console.error(`${failed.length} scenario(s) failed: ${failed.join(" ")}`);
  process.exit(1);
}
