// JavaScriptCore tiers hot functions up to its JITs, compiling them on background threads. A
// burst of run-once start-up code — the MCP SDK builds a few hundred zod schemas when it loads —
// makes it compile functions that will never run again: measured, that costs `tuiwright mcp`
// more time to its first answer than it saves (bench/mcp-startup.ts). During start-up the JIT
// is made that many times more reluctant; normal once the program is at work.
export const STARTUP_JIT_POLICY = 8;

export function startingUp(): void {
  Bun.unsafe.setJITPolicy(STARTUP_JIT_POLICY);
}

export function startedUp(): void {
  Bun.unsafe.setJITPolicy(1);
}
