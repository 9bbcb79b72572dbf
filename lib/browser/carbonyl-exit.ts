// How Carbonyl ends: it runs Chromium as a child of its own and, when that child dies of a signal
// (a failed CHECK's int3, a bad access), exits 127 itself (fathyb/carbonyl src/browser/bridge.rs:
// `status.code().unwrap_or(127)`) after writing the child's stderr — so which signal it was is
// lost. Seen beside two `yes` loads: `traps: sandbox_ipc_thr … trap int3 in carbonyl` in the
// kernel log, and the browser's exit 127, after 8–60 navigations.
import type { ExitStatusValue } from "../protocol/methods.ts";

/** The exit code of a Carbonyl whose Chromium process died of a signal. */
export const CHROMIUM_KILLED_EXIT = 127;

/** Signals a process dies of by its own fault: a CHECK (int3 → SIGTRAP), abort(), a bad access.
 * SIGKILL, SIGTERM, SIGHUP are someone's doing, not the browser's. */
const CRASH_SIGNALS = new Set(["SIGTRAP", "SIGABRT", "SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE"]);

/** Whether the browser ended by a crash of its own: Carbonyl's 127, or a crash signal of its own. */
export function isBrowserCrash(exit: ExitStatusValue | null | undefined): exit is ExitStatusValue {
  if (!exit) return false;
  if (exit.code === CHROMIUM_KILLED_EXIT) return true;
  return exit.signal !== null && CRASH_SIGNALS.has(exit.signal);
}

/** A browser's exit, said so that 127 is not read as "command not found". */
export function describeBrowserExit(exit: ExitStatusValue): string {
  if (exit.signal) return `killed by ${exit.signal}`;
  if (exit.code === CHROMIUM_KILLED_EXIT) return `exit code ${exit.code}: Carbonyl's Chromium process died of a signal, a crash of its own or a kill`;
  return `exit code ${exit.code}`;
}
