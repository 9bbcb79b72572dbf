// Measuring that cannot hang and cannot lie: every wait is bounded (a row that runs out of time
// fails, it does not stall the run), pairs run interleaved A B A B so a machine that speeds up or
// slows down mid-run moves both sides alike, and every figure is a median with its spread.

/** A row's measurement ran out of time or failed: the row is reported as failed. */
export class BenchTimeout extends Error {}

/** `work` or a BenchTimeout after `ms`; `onTimeout` gets the chance to kill what is stuck. */
export async function bounded<T>(work: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => { onTimeout?.(); reject(new BenchTimeout(`${what}: no answer within ${ms} ms`)); }, ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `probe` back to back (no sleep: the anchor's best case) until it is true, bounded. */
export async function pollUntil(probe: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await probe())) {
    if (performance.now() > deadline) throw new BenchTimeout(`${what}: not within ${ms} ms`);
  }
}

export type Stats = { median: number; p25: number; p75: number; min: number; max: number; n: number };

export function stats(samples: number[]): Stats {
  if (samples.length === 0) throw new Error("no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p25: at(0.25), p75: at(0.75), min: sorted[0]!, max: sorted.at(-1)!, n: sorted.length };
}

export const ms = (x: number) => `${x.toFixed(x < 1 ? 3 : 2)} ms`;

/** "median (p25–p75, n)": the figure to quote and how far it spreads. */
export function spread(s: Stats): string {
  const f = (x: number) => x.toFixed(s.median < 1 ? 3 : 2);
  return `${ms(s.median)} (${f(s.p25)}–${f(s.p75)})`;
}

/** The ratio of the medians, and the spread of the per-pair ratios (A/B of each interleaved pair). */
export function pairRatio(a: number[], b: number[]): string {
  const pairs = a.slice(0, Math.min(a.length, b.length)).map((x, i) => x / b[i]!);
  const r = stats(pairs);
  return `${(stats(a).median / stats(b).median).toFixed(2)}× (pairs ${r.p25.toFixed(2)}–${r.p75.toFixed(2)})`;
}

/** Runs each of `steps` once per round, in turn (A B C A B C …), `rounds` times after `warmup`
 * rounds; each step bounded by `stepMs`; `between` (untimed) runs before each round. A step that returns a number gives its own sample
 * (a latency it measured itself) instead of its elapsed time. Returns the samples (ms) of each step. */
export async function interleave(steps: (() => Promise<void | number>)[], rounds: number, options: { warmup?: number; stepMs?: number; what?: string; between?: (round: number) => Promise<void> } = {}): Promise<number[][]> {
  const samples = steps.map(() => [] as number[]);
  const warmup = options.warmup ?? 0;
  for (let round = 0; round < warmup + rounds; round++) {
    if (options.between) await bounded(options.between(round), 30_000, `${options.what ?? "step"}: set-up before round ${round}`);
    for (let i = 0; i < steps.length; i++) {
      const started = performance.now();
      const own = await bounded(steps[i]!(), options.stepMs ?? 10_000, `${options.what ?? "step"} ${i} in round ${round}`);
      if (round >= warmup) samples[i]!.push(typeof own === "number" ? own : performance.now() - started);
    }
  }
  return samples;
}

/** One whole process from start to exit, killed (and failed) after `timeoutMs`. */
export async function wholeProcess(argv: string[], env: Record<string, string | undefined>, timeoutMs = 10_000): Promise<void> {
  const child = Bun.spawn(argv, { env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  const code = await bounded(child.exited, timeoutMs, argv.join(" "), () => child.kill("SIGKILL"));
  if (code !== 0) throw new Error(`${argv.join(" ")} exited with ${code}`);
}

/** Whether a helper program runs here (a floor row is skipped, saying so, when it does not). */
export function runs(argv: string[]): boolean {
  try {
    return Bun.spawnSync(argv, { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
  } catch {
    return false;
  }
}
