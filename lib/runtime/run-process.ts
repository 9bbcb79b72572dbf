// `tuiwright run`: a non-interactive command with real pipes (not a PTY): stdout and stderr
// apart, optional stdin, and a timeout that kills the whole process group.
import { TuiwrightError } from "../protocol/errors.ts";

/** Output as bytes: a program's output is not always text (gzip -c). */
export type RunResult = { exitCode: number | null; signal: string | null; stdout: Uint8Array; stderr: Uint8Array; timedOut: boolean; elapsedMs: number };

export async function runProcess(argv: string[], options: { cwd: string; env: Record<string, string>; stdin?: string | Uint8Array; timeoutMs?: number }): Promise<RunResult> {
  const started = performance.now();
  let proc: Bun.Subprocess<"pipe" | "ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(argv, {
      cwd: options.cwd,
      env: options.env,
      stdin: options.stdin === undefined ? "ignore" : "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: true, // its own process group, so a timeout reaches its children too
    }) as Bun.Subprocess<"pipe" | "ignore", "pipe", "pipe">;
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") throw new TuiwrightError("no-such-program", `no such program: ${JSON.stringify(argv[0])}`);
    throw new TuiwrightError("io", `could not start ${JSON.stringify(argv[0])}: ${(error as Error).message}`);
  }
  if (options.stdin !== undefined && proc.stdin && typeof proc.stdin !== "number") {
    proc.stdin.write(options.stdin);
    void proc.stdin.end();
  }
  let timedOut = false;
  const timer = options.timeoutMs === undefined ? null : setTimeout(() => {
    timedOut = true;
    try { process.kill(-proc.pid, "SIGKILL"); } catch { /* already gone */ }
  }, options.timeoutMs);
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).bytes(), new Response(proc.stderr).bytes(), proc.exited]);
  if (timer) clearTimeout(timer);
  return {
    exitCode: proc.signalCode ? null : proc.exitCode,
    signal: proc.signalCode ? String(proc.signalCode) : null,
    stdout,
    stderr,
    timedOut,
    elapsedMs: Math.round(performance.now() - started),
  };
}
