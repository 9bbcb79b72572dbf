// Browser sessions (Carbonyl): navigation through its own bar. The AWI-TTY document's names
// for these (go_back, get_url, timeout_ms, …) are its compat table, compat/awi-tty.ts.
import * as v from "valibot";
import { doc } from "../schemas.ts";
import { type MethodDef, Navigated, NavSettle, NavTimeout, writer } from "./common.ts";

const NAV_FLAGS = { timeoutMs: "--timeout", settleMs: "--settle" };
const settling = { timeoutMs: v.optional(NavTimeout, 30_000), settleMs: v.optional(NavSettle) };

export const BROWSER_METHODS = {
  navigate: {
    title: "Browsers: load a URL from the URL bar and wait until the page has loaded and settled",
    cli: { verb: "navigate", summary: "browsers: load URL from the URL bar; returns when the page has loaded and settled", words: ["url"], flags: NAV_FLAGS },
    readOnly: false,
    params: v.strictObject({ ...writer, url: doc(v.pipe(v.string(), v.minLength(1)), "an absolute http(s), file, data or about URL"), ...settling }),
    result: Navigated,
  },
  back: {
    title: "Browsers: the back button, then wait until the page has settled",
    cli: { verb: "back", summary: "browsers: the back button; returns when the page has settled", flags: NAV_FLAGS },
    readOnly: false,
    params: v.strictObject({ ...writer, ...settling }),
    result: Navigated,
  },
  forward: {
    title: "Browsers: the forward button, then wait until the page has settled",
    cli: { verb: "forward", summary: "browsers: the forward button; returns when the page has settled", flags: NAV_FLAGS },
    readOnly: false,
    params: v.strictObject({ ...writer, ...settling }),
    result: Navigated,
  },
  reload: {
    title: "Browsers: the reload button, then wait until the page has settled",
    cli: { verb: "reload", summary: "browsers: the reload button; returns when the page has settled", flags: NAV_FLAGS },
    readOnly: false,
    params: v.strictObject({ ...writer, ...settling }),
    result: Navigated,
  },
} as const satisfies Record<string, MethodDef>;
