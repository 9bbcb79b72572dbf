// A browser that crashed while starting: Chromium inside Carbonyl now and then dies of its own
// failed CHECK on a loaded machine (seen: `traps: sandbox_ipc_thr … trap int3 in carbonyl` in the
// kernel log, the pipe closing under the start's first Runtime.evaluate; Carbonyl then exits 127,
// or dies of the signal itself if the trap was its own). `browse` then starts it
// once more and says so (`restarted: {exit, why}`); a browser that crashes again, or that was
// killed (SIGKILL, SIGTERM: someone's doing, not the browser's), is an error naming its exit.
// The same goes for Carbonyl's screen stall at start: the engine has the page and the screen
// never drew it through two nudges; only a new browser has ended that stall (exit null).
import { isBrowserCrash } from "../browser/carbonyl-exit.ts";
import type { TuiwrightError } from "../protocol/errors.ts";
import type { ExitStatusValue } from "../protocol/methods.ts";

/** The exit of a browser that crashed itself during the start `failure` reports, or null. */
function crashedWhileStarting(failure: TuiwrightError): ExitStatusValue | null {
  if (failure.errorName !== "session-exited") return null;
  const exit = failure.details.exit as ExitStatusValue | undefined;
  // Carbonyl's 127 is its Chromium dying of a signal (lib/browser/carbonyl-exit.ts).
  return isBrowserCrash(exit) ? exit : null;
}

/** Why a start that failed this way is worth one more browser (what the daemon's log says), and
 * the first browser's exit (null: it was killed for a screen that never drew); null when not. */
export function startAgainAfter(failure: TuiwrightError): { exit: ExitStatusValue | null; what: string } | null {
  const crash = crashedWhileStarting(failure);
  if (crash) return { exit: crash, what: "the browser crashed while starting" };
  if (failure.errorName === "snapshot-unavailable" && failure.details.wedged === true) return { exit: null, what: "the browser's screen never drew its first page" };
  return null;
}
