// Driving Carbonyl's navigation bar like a person: click the URL field, erase it, type, Enter;
// press a button. Each ends when the page has changed and then stayed still for a moment —
// the only signal a terminal browser gives that a load is over. Carbonyl's headless Chromium
// draws a failed load as nothing at all (no error page, old title), so a navigation also asks
// the server itself, once, and reports a refused or unknown host instead of timing out.
import { TuiwrightError, asTuiwrightError } from "../protocol/errors.ts";
import type { WaitSpec } from "../protocol/methods.ts";
import type { BrowserState, Navigated, WorkerCall } from "../link/messages.ts";
import { titleOf } from "../link/browser-state.ts";
import { unreachable } from "../browser/probe.ts";
import { releaseFocusToPage } from "../browser/carbonyl-input.ts";

/** After the server was found unreachable: how long Chromium gets to show something anyway. */
const UNREACHABLE_GRACE_MS = 2000;
/** Erasing the URL bar: how long one round may take to show an empty bar, and how many rounds. */
const ERASE_ROUND_MS = 3000;
const ERASE_ROUNDS = 8;
/** How long a reload gets to change the screen before an unchanged screen counts as reloaded. */
const RELOAD_REDRAW_MS = 2000;

/** The worker's own ops, called as the daemon would call them. */
type Call = WorkerCall;

/** How long a navigation may take, and how long the page must then stay still to count as loaded. */
/** settleMs undefined: the default, {@link TITLED_SETTLE_MS} once the page announced its title, else {@link DEFAULT_SETTLE_MS}. */
export type NavTiming = { timeoutMs: number; settleMs: number | undefined };

/** Stillness that counts as loaded when nothing else is known about the page. */
export const DEFAULT_SETTLE_MS = 300;
/** Stillness that counts as loaded once the new page has announced its title and drawn after
 * that: Chromium has committed and parsed it and painted, so a pause this long is the end of its
 * paints, not a gap before them (measured: bench/browser-nav.ts, every result the loaded page). */
export const TITLED_SETTLE_MS = 100;

/** The load has begun to show: the screen moved past `revision` (a reload, which may redraw
 * the same page, only needs the action). The rest of "loaded" is {@link settled}. */
function drew(revision: number | null, { timeoutMs }: NavTiming): WaitSpec {
  if (revision === null) return { settledMs: 1, mode: "any", timeoutMs };
  return { changedSince: revision, mode: "all", timeoutMs };
}

/** At most this share of the page's rows may keep changing for an animated page to count as
 * loaded (a ticker, a clock, a spinner), once the title is announced. */
const ANIMATED_SHARE = 0.25;

/** Loaded, after the page drew: the first of
 *  - still: the screen did not change for settleMs;
 *  - animated: the page announced its title after the action (or back/forward returned to a page
 *    whose title this session saw), and over a window of settleMs
 *    only a few rows (≤ a quarter of the page, at least 2) changed.
 * Returns which, or throws timeout at the deadline. */
export async function settled(call: Call, titlesBefore: number, settleMs: number | undefined, deadline: number, signal?: AbortSignal): Promise<"still" | "animated"> {
  const lines = async () => (await call("snapshot", { format: "text", raw: true, scrollback: 0, includeMeta: false })).text?.split("\n") ?? [];
  const still = async (ms: number): Promise<boolean> => {
    const left = deadline - performance.now();
    if (left <= 0) throw new TuiwrightError("timeout", "the page did not settle");
    try {
      await call("wait", { settledMs: ms, mode: "any", includeText: false, timeoutMs: Math.min(Math.ceil(left), ms * 2) }, signal);
      return true;
    } catch (error) {
      if (asTuiwrightError(error).errorName !== "timeout") throw error;
      return false;
    }
  };
  let before = await lines();
  for (;;) {
    if (settleMs !== undefined) {
      if (await still(settleMs)) return "still";
    } else if (await still(TITLED_SETTLE_MS)) {
      // Still for the short window: enough when the page announced its title and then drew (its
      // first paint follows the parse that yields the title; a pause between the commit and that
      // paint is not the end of the load). Else wait out the default: stillness counts from the
      // last change, so the short window is not lost.
      const now = await call("browser", {});
      if ((now.titlesSet > titlesBefore && now.revision > now.titleRevision) || await still(DEFAULT_SETTLE_MS)) return "still";
    }
    const state = await call("browser", {});
    const after = await lines();
    // Back/forward restore a page without announcing its title again: a remembered one counts.
    if (state.titlesSet > titlesBefore || state.pageTitle.title !== null && state.pageTitle.source === "remembered") {
      const changed = after.filter((line, i) => line !== before[i]).length;
      if (changed <= Math.max(2, Math.floor(after.length * ANIMATED_SHARE))) return "animated";
    }
    before = after;
  }
}

/** Where a load is, for the timeout's message. */
type Phase = { now: string };

/** Runs `act` (which starts the load and waits with the signal) against a probe of `url`. */
async function load(call: Call, what: string, url: string | null, act: (signal: AbortSignal, phase: Phase) => Promise<unknown>, { timeoutMs }: NavTiming): Promise<Navigated> {
  // Seen after a history of back/forward/reload and an animated page: Carbonyl draws a page's text
  // not at all, so a white page after a white page shows no change.
  const phase: Phase = { now: "the screen never changed (a page that looks like the one before, or Carbonyl drew none of its text)" };
  const controller = new AbortController();
  const waiting: Promise<"loaded"> = act(controller.signal, phase).then(() => "loaded");
  waiting.catch(() => undefined); // observed below; never an unhandled rejection
  const probe = url === null ? Promise.resolve(null) : unreachable(url);
  const unreachableFirst = probe.then((reason): "loaded" | { reason: string } | Promise<"loaded"> => (reason ? { reason } : waiting));
  const first = await Promise.race([waiting, unreachableFirst]).catch((error: unknown) => {
    const failure = asTuiwrightError(error);
    if (failure.errorName === "timeout") return "timeout" as const;
    throw failure;
  });
  if (first === "timeout") {
    const now = await call("browser", {});
    throw new TuiwrightError("navigation-timeout", `${what} did not finish in ${timeoutMs} ms, ${phase.now} (the URL bar shows ${JSON.stringify(now.url)}, title ${JSON.stringify(now.title)})`, {
      details: { url: now.url, title: now.title, phase: phase.now },
    });
  }
  if (first !== "loaded") {
    // The server cannot be reached. Give Chromium a moment: only a page that changed and shows
    // text (a cache, a proxy that answers for it) counts as loaded after all.
    const late = await Promise.race([waiting, Bun.sleep(UNREACHABLE_GRACE_MS).then(() => "pending" as const)]).catch(() => "pending" as const);
    controller.abort();
    const now = await call("browser", {});
    if (late !== "loaded" || now.pageBlank) throw new TuiwrightError("navigation-failed", `${url} did not load: ${first.reason}`, { details: { url, reason: first.reason } });
  }
  const after = await call("browser", {});
  return { url: after.url, ...titleOf(after), revision: after.revision };
}

/** Type `url` into the URL bar and load it. */
export async function navigate(call: Call, url: string, cols: number, timing: NavTiming): Promise<Navigated> {
  const shown = await call("browser", {});
  // Clicking the field gives it the keyboard; Carbonyl's field edits with Backspace only (no
  // select-all), and Down puts its cursor after the last character even when the text is longer
  // than the bar shows. Erase until the bar reads empty (Backspace at the start does nothing).
  await call("click", { row: 0, col: cols - 2, button: "left" });
  const erase = `\x1b[B${"\x7f".repeat(Math.max(shown.url.length, cols * 4))}`;
  for (let round = 1; ; round++) {
    const emptied = await call("browserInput", { data: erase, label: "erase the URL bar", wait: { ref: "@carbonyl.url", refValue: "/^$/", mode: "any", timeoutMs: ERASE_ROUND_MS } })
      .then(() => true, (error: unknown) => { if (asTuiwrightError(error).errorName !== "timeout") throw error; return false; });
    // (The wait counts only screens after the keys: a bar that was already empty never changes.)
    if (emptied || (await call("get", { what: "url" })).value === "") break;
    if (round === ERASE_ROUNDS) throw new TuiwrightError("navigation-failed", `the URL bar could not be emptied to type ${url}`, { details: { url } });
  }
  await call("type", {
    text: url, paste: false, raw: false, secret: false,
    // The bar shows cols - 13 characters: a longer URL is checked by what fits.
    wait: { ref: "@carbonyl.url", refValue: url.slice(0, Math.max(1, cols - 13)), settledMs: 200, mode: "any", timeoutMs: 5000 },
  });
  const typed = await call("browser", {});
  const revision = url === shown.url ? null : typed.revision;
  const deadline = performance.now() + timing.timeoutMs;
  await load(call, `loading ${url}`, url, async (signal, phase) => {
    await call("press", { keys: ["Enter"], wait: drew(revision, timing) }, signal);
    phase.now = "the page drew but did not settle (neither still nor animated with a title)";
    return settled(call, typed.titlesSet, timing.settleMs, deadline, signal);
  }, timing);
  // The URL bar keeps the keyboard after Enter; give it back to the page.
  await call("browserInput", { data: releaseFocusToPage(), label: "focus the page", navigated: url });
  const after = await call("browser", {});
  return { url: after.url, ...titleOf(after), revision: after.revision };
}

/** Press one of the navigation buttons. */
export async function pressButton(call: Call, button: "back" | "forward" | "reload", timing: NavTiming): Promise<Navigated> {
  const state: BrowserState = await call("browser", {});
  if (button === "back" && !state.canGoBack) throw new TuiwrightError("bad-data", "there is no page to go back to (the back button is disabled)");
  if (button === "forward" && !state.canGoForward) throw new TuiwrightError("bad-data", "there is no page to go forward to (the forward button is disabled)");
  const revision = button === "reload" ? null : state.revision;
  const what = button === "reload" ? "reloading" : `going ${button}`;
  const deadline = performance.now() + timing.timeoutMs;
  return load(call, what, button === "reload" ? state.url : null, async (signal, phase) => {
    if (button === "reload") {
      // A reload may redraw the very same frame; it usually blanks and repaints, so wait a moment
      // for a change before counting stillness (else keys sent next race the reload's commit,
      // which puts the page's URL back into the bar).
      await call("click", { target: "@carbonyl.reload", button: "left", wait: { changedSince: state.revision, mode: "all", timeoutMs: RELOAD_REDRAW_MS } }, signal)
        .catch((error: unknown) => { if (asTuiwrightError(error).errorName !== "timeout") throw error; });
    } else {
      await call("click", { target: `@carbonyl.${button}`, button: "left", wait: drew(revision, timing) }, signal);
    }
    phase.now = "the page drew but did not settle (neither still nor animated with a title)";
    return settled(call, state.titlesSet, timing.settleMs, deadline, signal);
  }, timing);
}
