// JavaScriptCore tiers hot functions up to its JITs, compiling them on background threads. A
// burst of run-once start-up code — module bodies, the zod schemas the MCP SDK builds — makes it
// compile functions that never run again, on a machine whose cores are busy: `tuiwright mcp`
// answered initialize ~10 ms later with the normal policy than with 8 (bench/mcp-startup.ts,
// medians of 40: 41.7 vs 30.8 ms; 64 was no better than 8). During start-up the JIT is made
// that many times more reluctant; normal again at the first tool call.
export const STARTUP_JIT_POLICY = 8;

export function startingUp(): void {
  Bun.unsafe.setJITPolicy(STARTUP_JIT_POLICY);
}

let started = false;

/** Back to the normal JIT (once; later calls do nothing). */
export function startedUp(): void {
  if (started) return;
  started = true;
  Bun.unsafe.setJITPolicy(1);
}
