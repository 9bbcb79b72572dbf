// Plays a scenario (scenarios.ts) on a live session through the CLI: shared by record.ts
// (which records every state) and click.test.ts (which stops at one state and clicks).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { World } from "../helpers/harness.ts";
import { MARK_PREFIX, type Scenario } from "./scenarios.ts";

/** Same language, zone and pager for every program, whoever records. */
export const BASE_ENV = { LANG: "C.UTF-8", LC_ALL: "C.UTF-8", TZ: "UTC", EDITOR: "vim", PAGER: "less", LESSHISTFILE: "-" };

/** Each world's multiplexer servers live in its own directory, so none meets another's. */
const ownSockets = (world: World) => ({ TMUX_TMPDIR: world.dir, SCREENDIR: `${world.dir}/screens` });

export async function cli(world: World, args: string[], env: Record<string, string> = {}, cwd?: string): Promise<any> {
  const result = await world.run(["--json", ...args], { env: { ...BASE_ENV, ...ownSockets(world), ...env }, cwd });
  if (result.code !== 0) throw new Error(`tuiwright ${args.join(" ")} exited ${result.code}: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** Background processes htop and top show (their pids replace "{pids}" in argv). */
export function startSleepers(count: number): ChildProcess[] {
  return Array.from({ length: count }, (_, i) => spawn("sleep", [String(86400 + i)], { stdio: "ignore" }));
}

/** Starts the scenario's program (spawn flags given) and plays its steps, up to and including
 * the marker `untilMarker` if one is named. Returns the session name. */
export async function play(world: World, scenario: Scenario, work: string, pids: string, spawnFlags: string[], untilMarker?: string): Promise<string> {
  mkdirSync(ownSockets(world).SCREENDIR, { recursive: true, mode: 0o700 });
  const argv = scenario.argv.map((a) => a.replace("{pids}", pids));
  const [cols, rows] = scenario.size;
  const { name } = await cli(world, ["spawn", "--session", scenario.name, "--cwd", work, ...spawnFlags, "--cols", String(cols), "--rows", String(rows), "--", ...argv], scenario.env, work);
  for (const [verb, ...args] of scenario.steps) {
    await cli(world, [verb!, "--session", name, ...args]);
    if (verb === "mark" && untilMarker !== undefined && args[0] === `${MARK_PREFIX}${untilMarker}`) return name;
  }
  if (untilMarker !== undefined) throw new Error(`${scenario.name} has no marker ${untilMarker}`);
  return name;
}

/** Ends what the scenario's program leaves running after its session is killed (a tmux or
 * screen server), as the scenario says. */
export function cleanUp(world: World, scenario: Scenario): void {
  if (!scenario.cleanup) return;
  spawnSync(scenario.cleanup[0]!, scenario.cleanup.slice(1), { env: { ...process.env, ...ownSockets(world) }, stdio: "ignore", timeout: 10_000 });
}
