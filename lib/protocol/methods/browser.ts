// Browser sessions (Carbonyl): navigation through its own bar. The AWI-TTY document's names
// for these (go_back, get_url, timeout_ms, …) are its compat table, compat/awi-tty.ts.
import * as v from "valibot";
import { doc } from "../schemas.ts";
import { type MethodDef, Navigated, NavSettle, NavTimeout, writer } from "./common.ts";

const NAV_FLAGS = { timeoutMs: "--timeout", settleMs: "--settle" };
const settling = { timeoutMs: v.optional(NavTimeout, 30_000), settleMs: v.optional(NavSettle) };

/** One of the bar's buttons, pressed; the call returns when the page has settled. */
function navButton<B extends "back" | "forward" | "reload">(button: B) {
  return {
    title: `Browsers: the ${button} button, then wait until the page has settled`,
    cli: { verb: button, summary: `browsers: the ${button} button; returns when the page has settled`, flags: NAV_FLAGS },
    readOnly: false,
    params: v.strictObject({ ...writer, ...settling }),
    result: Navigated,
  } as const;
}

export const BROWSER_METHODS = {
  navigate: {
    title: "Browsers: load a URL from the URL bar and wait until the page has loaded and settled",
    cli: { verb: "navigate", summary: "browsers: load URL from the URL bar; returns when the page has loaded and settled", words: ["url"], flags: NAV_FLAGS },
    readOnly: false,
    params: v.strictObject({ ...writer, url: doc(v.pipe(v.string(), v.minLength(1)), "an absolute http(s), file, data or about URL"), ...settling }),
    result: Navigated,
  },
  back: navButton("back"),
  forward: navButton("forward"),
  reload: navButton("reload"),
} as const satisfies Record<string, MethodDef>;
