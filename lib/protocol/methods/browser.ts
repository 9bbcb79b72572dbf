// Browser sessions (Carbonyl): navigation through the browser engine (the DevTools protocol on a
// private pipe); each answers once the engine has loaded the page and the screen shows it. The
// AWI-TTY document's names for these (go_back, get_url, timeout_ms, …) are its compat table,
// compat/awi-tty.ts.
import * as v from "valibot";
import { doc } from "../schemas.ts";
import { type MethodDef, Navigated, NavSettle, NavTimeout, writer } from "./common.ts";

const NAV_FLAGS = { timeoutMs: "--timeout", settleMs: "--settle" };
const settling = { timeoutMs: v.optional(NavTimeout, 30_000), settleMs: v.optional(NavSettle) };

const WHAT = { back: "go back in the engine's history", forward: "go forward in the engine's history", reload: "reload the page" } as const;

/** Back, forward or reload; the call returns when the page is loaded and drawn. */
function navButton<B extends "back" | "forward" | "reload">(button: B) {
  return {
    tool: "browser",
    forward: true,
    title: `Browsers: ${WHAT[button]}; returns once the engine loaded the page and the screen shows it`,
    cli: { verb: button, summary: `browsers: ${WHAT[button]}; returns once the page is loaded and on the screen`, flags: NAV_FLAGS },
    readOnly: false,
    params: v.strictObject({ ...writer, ...settling }),
    result: Navigated,
  } as const;
}

export const BROWSER_METHODS = {
  navigate: {
    tool: "browser",
    forward: true,
    title: "Browsers: load a URL; returns once the engine loaded the page and the screen shows it",
    cli: { verb: "navigate", summary: "browsers: load URL; returns once the page is loaded and on the screen (exit 69 with the engine's error if it cannot load)", words: ["url"], flags: NAV_FLAGS },
    readOnly: false,
    params: v.strictObject({ ...writer, url: doc(v.pipe(v.string(), v.minLength(1)), "an absolute http(s), file, data or about URL"), ...settling }),
    result: Navigated,
  },
  back: navButton("back"),
  forward: navButton("forward"),
  reload: navButton("reload"),
} as const satisfies Record<string, MethodDef>;
