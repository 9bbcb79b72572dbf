// Two CLI builds' start, A B A B in one run, against the floor (a compiled Bun hello-world) and
// `tmux capture-pane -p` on the same screen: `snapshot --plain` and `--version` whole processes.
// `bun bench/cli-start-ab.ts BEFORE_BINARY AFTER_BINARY [ROUNDS]` (after `bun run build`; copy a
// build out of the way first: each binary gets its own daemon, namespace tw-ab-a or tw-ab-b,
// stopped at the end). Prints medians, pair-ratio spreads (p25–p75) and the load average, and
// each process's CPU time (user + system), which other jobs on a busy machine disturb less.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { bounded, interleave, stats } from "./measure.ts";

const [before, after, roundsWord] = process.argv.slice(2);
if (!before || !after) {
  console.error("usage: bun bench/cli-start-ab.ts BEFORE_BINARY AFTER_BINARY [ROUNDS]");
  process.exit(64);
}
const rounds = Number(roundsWord ?? 40);
const work = mkdtempSync(join(tmpdir(), "tw-cli-ab-"));
const TMUX = `tw-ab-${process.pid}`;
const envOf = (ns: string) => ({ ...process.env, TUIWRIGHT_NS: ns }) as Record<string, string>;
const sides = [{ name: "before", bin: before, env: envOf("tw-ab-a") }, { name: "after", bin: after, env: envOf("tw-ab-b") }];

function run(argv: string[], env: Record<string, string> = envOf("tw-ab-a")): string {
  const done = Bun.spawnSync(argv, { env, stdout: "pipe", stderr: "pipe" });
  if (done.exitCode !== 0) throw new Error(`${argv.join(" ")}: exit ${done.exitCode}: ${done.stderr}`);
  return done.stdout.toString();
}

/** The same screen everywhere: bash, `seq 1 200`, 140x45. */
function setUp(): string {
  for (const { bin, env } of sides) {
    run([bin, "spawn", "--session", "snap", "--cols", "140", "--rows", "45", "--", "bash", "--norc"], env);
    run([bin, "wait", "--session", "snap", "--regex", "[$#] $"], env);
    run([bin, "type", "--session", "snap", "seq 1 200"], env);
    run([bin, "press", "--session", "snap", "Enter", "--wait-regex", "^200\\n"], env);
  }
  run(["tmux", "-L", TMUX, "new-session", "-d", "-s", "snap", "-x", "140", "-y", "45", "bash --norc"]);
  run(["tmux", "-L", TMUX, "send-keys", "-t", "snap", "seq 1 200", "Enter"]);
  const source = join(work, "hello.ts");
  writeFileSync(source, 'console.log("hello");\n');
  const hello = join(work, "hello");
  // Built as dist/tuiwright is (bytecode, minified): the same start as a plain --compile here (5.25
  // vs 5.29 ms wall, 4.94 vs 5.03 ms CPU, 40 interleaved rounds), so either floor is fair.
  run(["bun", "build", "--compile", "--bytecode", "--minify", "--format", "esm", source, "--outfile", hello]);
  return hello;
}

/** One whole process (killed and failed after 10 s); its CPU time (ms) goes to `cpu`. */
async function timedProcess(argv: string[], env: Record<string, string>, cpu: number[]): Promise<void> {
  const child = Bun.spawn(argv, { env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  const code = await bounded(child.exited, 10_000, argv.join(" "), () => child.kill("SIGKILL"));
  if (code !== 0) throw new Error(`${argv.join(" ")} exited with ${code}`);
  cpu.push(Number(child.resourceUsage()!.cpuTime.total) / 1000);
}

try {
  const hello = setUp();
  const steps: [string, string[], Record<string, string>][] = [
    ["floor", [hello], envOf("tw-ab-a")],
    ["tmux capture-pane", ["tmux", "-L", TMUX, "capture-pane", "-p", "-t", "snap"], envOf("tw-ab-a")],
    ...sides.flatMap(({ name, bin, env }): [string, string[], Record<string, string>][] => [
      [`${name} snapshot`, [bin, "snapshot", "--plain", "--session", "snap"], env],
      [`${name} --version`, [bin, "--version"], env],
    ]),
  ];
  const load = loadavg()[0]!.toFixed(2);
  const cpu = steps.map(() => [] as number[]);
  const samples = await interleave(steps.map(([, argv, env], i) => () => timedProcess(argv, env, cpu[i]!)), rounds, { warmup: 5, what: "cli start" });
  const of = (name: string) => samples[steps.findIndex(([n]) => n === name)]!;
  const cpuOf = (name: string) => cpu[steps.findIndex(([n]) => n === name)]!.slice(5); // after the warm-up rounds
  for (const [name] of steps) {
    const s = stats(of(name));
    const c = stats(cpuOf(name));
    console.log(`${name.padEnd(18)} median ${s.median.toFixed(2)} ms (p25–p75 ${s.p25.toFixed(2)}–${s.p75.toFixed(2)}); CPU ${c.median.toFixed(2)} ms (${(c.median / stats(cpuOf("floor")).median).toFixed(2)}× the floor's)`);
  }
  const ratio = (a: string, b: string) => {
    const pairs = stats(of(a).map((x, i) => x / of(b)[i]!));
    return `${a} / ${b}: ${(stats(of(a)).median / stats(of(b)).median).toFixed(2)}× (pairs ${pairs.p25.toFixed(2)}–${pairs.p75.toFixed(2)})`;
  };
  for (const side of ["before", "after"]) {
    console.log(ratio(`${side} snapshot`, "floor"), "|", ratio(`${side} --version`, "floor"), "|", ratio(`${side} snapshot`, "tmux capture-pane"));
  }
  console.log(ratio("after snapshot", "before snapshot"), "|", ratio("after --version", "before --version"));
  console.log(`${rounds} rounds; load average ${load} before, ${loadavg()[0]!.toFixed(2)} after; ${new Date().toISOString()}`);
} finally {
  for (const { bin, env } of sides) Bun.spawnSync([bin, "daemon", "stop"], { env, stdout: "ignore", stderr: "ignore" });
  Bun.spawnSync(["tmux", "-L", TMUX, "kill-server"], { stdout: "ignore", stderr: "ignore" });
  rmSync(work, { recursive: true, force: true });
}
