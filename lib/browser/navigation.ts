// Driving Carbonyl's navigation bar like a person: click the URL field, erase it, type, Enter;
// press a button. Each ends when the page has changed and then stayed still for a moment —
// the only signal a terminal browser gives that a load is over. Carbonyl's headless Chromium
// draws a failed load as nothing at all (no error page, old title), so a navigation also asks
// the server itself, once, and reports a refused or unknown host instead of timing out.
import { TuiwrightError, asTuiwrightError } from "../protocol/errors.ts";
import type { WaitSpec } from "../protocol/methods.ts";
import type { BrowserState, WorkerOps } from "../session/messages.ts";
import { unreachable } from "./probe.ts";

/** After the server was found unreachable: how long Chromium gets to show something anyway. */
const UNREACHABLE_GRACE_MS = 2000;

export type Call = <Op extends keyof WorkerOps>(op: Op, params: WorkerOps[Op][0], signal?: AbortSignal) => Promise<WorkerOps[Op][1]>;

export type Navigated = { url: string; title: string; revision: number };
/** How long a navigation may take, and how long the page must then stay still to count as loaded. */
export type NavTiming = { timeoutMs: number; settleMs: number };

/** Settled for settleMs after the screen moved past `revision` (or, for a reload that may
 * redraw the same page, settled after the action). */
function loaded(revision: number | null, { timeoutMs, settleMs }: NavTiming): WaitSpec {
  if (revision === null) return { settledMs: settleMs, mode: "any", timeoutMs };
  return { changedSince: revision, settledMs: settleMs, mode: "all", timeoutMs };
}

/** Runs `act` (which starts the load and waits with the signal) against a probe of `url`. */
async function load(call: Call, what: string, url: string | null, act: (signal: AbortSignal) => Promise<unknown>, { timeoutMs }: NavTiming): Promise<Navigated> {
  const controller = new AbortController();
  const waiting: Promise<"loaded"> = act(controller.signal).then(() => "loaded");
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
    throw new TuiwrightError("navigation-timeout", `${what} did not finish in ${timeoutMs} ms (the URL bar shows ${JSON.stringify(now.url)}, title ${JSON.stringify(now.title)})`, {
      details: { url: now.url, title: now.title },
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
  return { url: after.url, title: after.title, revision: after.revision };
}

/** Type `url` into the URL bar and load it. */
export async function navigate(call: Call, url: string, cols: number, timing: NavTiming): Promise<Navigated> {
  const shown = await call("browser", {});
  // A click past the end of the field puts the cursor after the last character; Carbonyl's
  // field edits with Backspace (it has no select-all). A URL longer than the bar shows only
  // in part, so erase a bar's width at least (Backspace at the start does nothing).
  await call("click", { row: 0, col: cols - 2, button: "left" });
  await call("press", { keys: Array.from({ length: Math.max(shown.url.length, cols) + 2 }, () => "Backspace") });
  await call("type", {
    text: url, paste: false, secret: false,
    wait: { ref: "@carbonyl.url", refValue: url, settledMs: 200, mode: "any", timeoutMs: 5000 },
  });
  const typed = await call("browser", {});
  const revision = url === shown.url ? null : typed.revision;
  return load(call, `loading ${url}`, url, (signal) => call("press", { keys: ["Enter"], wait: loaded(revision, timing) }, signal), timing);
}

/** Press one of the navigation buttons. */
export async function pressButton(call: Call, button: "back" | "forward" | "reload", timing: NavTiming): Promise<Navigated> {
  const state: BrowserState = await call("browser", {});
  if (button === "back" && !state.canGoBack) throw new TuiwrightError("bad-data", "there is no page to go back to (the back button is disabled)");
  if (button === "forward" && !state.canGoForward) throw new TuiwrightError("bad-data", "there is no page to go forward to (the forward button is disabled)");
  const revision = button === "reload" ? null : state.revision;
  const what = button === "reload" ? "reloading" : `going ${button}`;
  return load(call, what, button === "reload" ? state.url : null, (signal) =>
    call("click", { target: `@carbonyl.${button}`, button: "left", wait: loaded(revision, timing) }, signal), timing);
}
