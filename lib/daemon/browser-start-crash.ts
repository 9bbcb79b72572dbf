// A browser that crashed while starting: Chromium inside Carbonyl now and then dies of its own
// failed CHECK on a loaded machine (seen: `traps: sandbox_ipc_thr … trap int3 in carbonyl` in the
// kernel log, the pipe closing under the start's first Runtime.evaluate). `browse` then starts it
// once more and says so (`restarted: {exit, why}`); a browser that crashes again, or that was
// killed (SIGKILL, SIGTERM: someone's doing, not the browser's), is an error naming its exit.
import type { TuiwrightError } from "../protocol/errors.ts";
import type { ExitStatusValue } from "../protocol/methods.ts";

/** Signals a process dies of by its own fault: a CHECK (int3 → SIGTRAP), abort(), a bad access. */
const CRASH_SIGNALS = new Set(["SIGTRAP", "SIGABRT", "SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE"]);

/** The exit of a browser that crashed itself during the start `failure` reports, or null. */
export function crashedWhileStarting(failure: TuiwrightError): ExitStatusValue | null {
  if (failure.errorName !== "session-exited") return null;
  const exit = failure.details.exit as ExitStatusValue | undefined;
  return exit?.signal && CRASH_SIGNALS.has(exit.signal) ? exit : null;
}
