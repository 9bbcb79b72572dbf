// Browser sessions (Carbonyl): what differs from a program session. Keys, text, clicks, the
// wheel and the mouse go through the browser engine (browser-facet.ts) — every modifier and any
// character, with the held buttons the facet keeps; a snapshot refreshes the engine's outline
// first; a resize waits for the page to be drawn again; url, nav and title are the engine's.
// Everything else (marks, waits, status, blocks, turns) is the program kind's.
import { navFlags, titleOf } from "../link/browser-state.ts";
import type { WaitSpec } from "../protocol/methods.ts";
import { browserUrl } from "../browser/url.ts";
import type { BrowserFacet, NavLimits } from "./browser-facet.ts";
import type { KindOps, SessionKind } from "./session-kind.ts";

type Aim = { to?: string; revision?: number; wait?: WaitSpec };
/** Only the aim's fields that were given (the facet tells "not given" from undefined). */
const aimOf = ({ to, revision, wait }: Aim): Aim => ({ ...(to === undefined ? {} : { to }), ...(revision === undefined ? {} : { revision }), ...(wait === undefined ? {} : { wait }) });

export function browserKind(browser: BrowserFacet, program: KindOps): SessionKind {
  const button = (name: "back" | "forward" | "reload"): KindOps[typeof name] => async (params: NavLimits, signal) =>
    ({ ok: true, ...(await browser.navButton({ button: name, timeoutMs: params.timeoutMs, settleMs: params.settleMs }, signal)) });
  return {
    name: "browser",
    ops: {
      ...program,
      snapshot: async (params, signal) => { await browser.beforeSnapshot(params); return program.snapshot(params, signal); },
      // The page's own state: the whole URL (the bar shows cols - 13 characters of it), and a
      // title that says where it came from or why there is none (never the last page's).
      get: async (params, signal) => {
        const { what } = params;
        if (what !== "url" && what !== "nav" && what !== "title") return program.get(params, signal);
        const state = await browser.state();
        if (what === "url") return { what, value: state.url, url: state.url };
        if (what === "nav") return { what, value: navFlags(state), ...navFlags(state) };
        const title = titleOf(state);
        return { what, value: title.title, ...title };
      },
      type: (params, signal) => browser.keys({ text: params.text, paste: params.paste, secret: params.secret, ...aimOf(params) }, signal),
      press: (params, signal) => browser.keys({ keys: params.keys, ...aimOf(params) }, signal),
      click: (params, signal) => browser.click(params, signal),
      scroll: async (params, signal) => ({ ok: true, ...(await browser.scroll(params, signal)) }),
      resize: (params, signal) => browser.resize(params, signal),
      mouse: async (params) => ({ ok: true, ...(await browser.mouse(params)) }),
      navigate: async ({ url, timeoutMs, settleMs }, signal) => {
        const target = browserUrl(url);
        return { ok: true, ...(await browser.navigate({ url: target, timeoutMs, settleMs }, signal)) };
      },
      back: button("back"),
      forward: button("forward"),
      reload: button("reload"),
      // A browser the caller signals and that dies of it is not restarted as a crash of its own.
      signal: (params, signal) => { browser.signalled(); return program.signal(params, signal); },
      browser: () => browser.state(),
      browserReady: (params, signal) => browser.ready(params, signal),
      browserRestore: (params, signal) => browser.restore(params, signal),
    },
  };
}
