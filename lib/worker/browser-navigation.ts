// Loads through the browser engine: navigate (Page.navigate), back and forward (a history entry),
// reload. Each answers on the engine's events — the main frame committed the new document (or
// navigated within it), and that document reached its load (or, past a slow subresource, DOM
// parsed and the network nearly idle) — and then on the screen showing it (browser-facet.ts
// `drawn`), so an animated page never holds a load back and a page Carbonyl did not draw is
// found out (and its stall recovered). A failed load is the engine's own error text.
import { TuiwrightError, asTuiwrightError } from "../protocol/errors.ts";
import type { BrowserState, Navigated, Recovered } from "../link/messages.ts";
import { titleOf } from "../link/browser-state.ts";
import type { BrowserEngine } from "../browser/browser-engine.ts";

/** How long a failed load's error page may take to commit. */
const ERROR_PAGE_MS = 5000;

/** How long a navigation may take; settleMs: then also this long still (undefined: not asked). */
export type NavTiming = { timeoutMs: number; settleMs: number | undefined };

/** What a load needs of the session (the browser facet gives it). */
export type LoadingPage = {
  engine: BrowserEngine;
  signal: AbortSignal;
  /** Resolves once the screen shows the engine's current frame (recovering a stall). */
  drawn(deadline: number): Promise<{ recovered?: Recovered }>;
  state(): Promise<BrowserState>;
  revision(): number;
  /** Resolves true once the screen was still `ms`, false at the deadline. */
  still(ms: number, deadline: number): Promise<boolean>;
  /** A new document came: engine refs of the old one are stale from now. */
  settledDocument(): void;
};

/** Where a load is, for its timeout's message. */
type Phase = { now: string };

/** Starts a load with `start` and follows it to the screen. `loaderId`: the document the engine
 * said it is loading (null: a navigation within the document, or not told). */
async function load(page: LoadingPage, what: string, start: () => Promise<{ loaderId: string | null }>, timing: NavTiming): Promise<Navigated> {
  const { engine, signal } = page;
  const deadline = performance.now() + timing.timeoutMs;
  const phase: Phase = { now: "the engine has not committed the new page yet" };
  const commitsBefore = engine.commits;
  try {
    const { loaderId } = await start();
    await engine.until(() => (engine.commits > commitsBefore && (loaderId === null || engine.document?.loaderId === loaderId) ? true : undefined), deadline, what, signal);
    page.settledDocument();
    phase.now = `the engine committed ${engine.url} but it has not loaded (no load event, and the network is not idle)`;
    await engine.until(() => (engine.loaded ? true : undefined), deadline, what, signal);
    phase.now = "the engine loaded the page, but Carbonyl has not drawn it";
    const drawn = await page.drawn(deadline);
    if (timing.settleMs !== undefined) {
      phase.now = `the page is drawn but the screen was not still for ${timing.settleMs} ms`;
      if (!(await page.still(timing.settleMs, deadline))) throw new TuiwrightError("timeout", "not still");
    }
    const state = await page.state();
    return { url: state.url, ...titleOf(state), revision: page.revision(), ...drawn };
  } catch (error) {
    // Anything but a timeout goes on as it came: the facet names engine failures (a closed pipe is
    // the browser's exit, not an internal error).
    if (asTuiwrightError(error).errorName !== "timeout") throw error;
    throw new TuiwrightError("navigation-timeout", `${what} did not finish in ${timing.timeoutMs} ms: ${phase.now}`, {
      details: { url: engine.url, phase: phase.now },
    });
  }
}

/** Loads `url` in the page. */
export function navigate(page: LoadingPage, url: string, timing: NavTiming): Promise<Navigated> {
  return load(page, `loading ${url}`, async () => {
    const { engine } = page;
    const commitsBefore = engine.commits;
    const answer = await engine.call<{ loaderId?: string; errorText?: string }>("Page.navigate", { url });
    if (answer.errorText) {
      // Chromium commits its error page next (another document, in another process): let it, so
      // the next call finds the engine settled on it, not half-way.
      await engine.until(() => (engine.commits > commitsBefore && engine.url.startsWith("chrome-error:") ? true : undefined), performance.now() + ERROR_PAGE_MS, "the error page", page.signal).catch(() => undefined);
      page.settledDocument();
      throw new TuiwrightError("navigation-failed", `${url} did not load: ${answer.errorText}`, { details: { url, reason: answer.errorText } });
    }
    return { loaderId: answer.loaderId ?? null };
  }, timing);
}

/** Back, forward (the engine's history) or reload. */
export async function pressButton(page: LoadingPage, button: "back" | "forward" | "reload", timing: NavTiming): Promise<Navigated> {
  const { engine } = page;
  if (button === "reload") return load(page, "reloading", async () => { await engine.call("Page.reload", {}); return { loaderId: null }; }, timing);
  const history = await engine.history();
  const index = history.currentIndex + (button === "back" ? -1 : 1);
  const entry = history.entries[index];
  if (!entry) {
    throw new TuiwrightError("bad-data", `there is no page to go ${button} to (the engine's history has ${history.entries.length} entr${history.entries.length === 1 ? "y" : "ies"}, this is number ${history.currentIndex + 1})`);
  }
  return load(page, `going ${button} to ${entry.url}`, async () => {
    await engine.call("Page.navigateToHistoryEntry", { entryId: entry.id });
    return { loaderId: null };
  }, timing);
}
