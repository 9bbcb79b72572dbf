// CPU the daemon spends on a 5 s wait over a session that changes its screen ~100 times a
// second, with a literal --text condition versus a case-insensitive --regex (the slowest
// everyday shape for re2js). `bun bench/regex-wait-cpu.ts` after `bun run build` (~15 s).
import { readFileSync } from "node:fs";
import { World } from "../tests/helpers/harness.ts";

const TICKS = 100; // clock ticks per second (getconf CLK_TCK)

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

await using world = await World.start();
const { name } = await world.spawn(["bash", "-c", "i=0; while :; do i=$((i+1)); echo tick $i; sleep 0.01; done"]);
const daemonPid = world.daemon!.pid;
for (const [label, condition] of [["idle (no wait)", null], ["--text never-there", ["--text", "never-there"]], ["--regex /(?:never|nowhere)/i", ["--regex", "/(?:never|nowhere)/i"]], ["--regex (a+)+$", ["--regex", "(a+)+$"]]] as const) {
  const before = cpuSeconds(daemonPid);
  const started = performance.now();
  if (condition) await world.run(["wait", "--session", name, ...condition, "--timeout", "5000"]);
  else await Bun.sleep(5000); // the baseline: the same session with nobody waiting
  const wall = (performance.now() - started) / 1000;
  console.log(`${label}: daemon CPU ${(((cpuSeconds(daemonPid) - before) / wall) * 100).toFixed(1)}% over ${wall.toFixed(2)} s`);
}
await world.run(["kill", "--session", name]);
