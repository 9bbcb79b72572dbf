// Re-records the truth corpus: every scenario (scenarios.ts) played by tuiwright itself on a
// real PTY, recorded as asciicast v3 with a `truth:NAME` marker at each labelled state.
//   bun run build && bun tests/truth/record.ts [NAME...]
// then look at each changed state (bun tests/truth/show.ts CAST) and update its labels: the
// checker refuses labels whose text is no longer where they say. Each step waits on screen
// state, never on time.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";
import { cleanUp, cli, play, startSleepers } from "./play.ts";
import { SCENARIOS, type Scenario } from "./scenarios.ts";
import { makeScratch } from "./scratch.ts";

const OUT = join(import.meta.dir, "casts");

async function record(world: World, scenario: Scenario, work: string): Promise<void> {
  const sleepers = startSleepers(scenario.sleepers ?? 0);
  const cast = join(world.dir, `${scenario.name}.cast`);
  rmSync(cast, { force: true });
  try {
    const name = await play(world, scenario, work, sleepers.map((s) => s.pid).join(","), ["--cast", cast]).catch(async (error) => {
      await cli(world, ["kill", "--session", scenario.name, "--grace", "500"]).catch(() => {});
      throw error;
    });
    await cli(world, ["kill", "--session", name, "--grace", "500"]).catch(() => {});
    copyFileSync(cast, join(OUT, `${scenario.name}.cast`));
  } finally {
    cleanUp(world, scenario);
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
