// Browser sessions: navigation, history, keys, text and the mouse go through the browser engine
// in the session's worker (lib/worker/browser-facet.ts, browser-navigation.ts), so keys carry
// every modifier and any character, and loads answer on the engine's events and the drawn
// screen. The AWI-TTY document's names for these are a compat table (lib/protocol/compat/awi-tty.ts).
import { browserUrl } from "../browser/url.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import type { Params } from "../protocol/methods.ts";
import type { Handlers } from "./dispatch.ts";
import type { SessionEntry } from "./registry.ts";

type BrowserHandlers = Pick<Handlers, "navigate" | "back" | "forward" | "reload" | "mouse">;
type Writable = (session: string | undefined, lease: string | undefined) => SessionEntry;

export const isBrowser = (entry: SessionEntry) => entry.spawnParams.browser !== undefined;

/** The session, if it is a browser session; else not-a-browser (exit 64). */
export function requireBrowser(entry: SessionEntry): SessionEntry {
  if (!isBrowser(entry)) {
    throw new TuiwrightError("not-a-browser", `session ${JSON.stringify(entry.name)} is not a browser session (${entry.argv[0]})`);
  }
  return entry;
}

/** press and type on a browser session: the engine's key events and text input. */
export async function browserInput(entry: SessionEntry, params: Omit<Params<"press">, "session" | "lease"> | Omit<Params<"type">, "session" | "lease">) {
  const { wait, to, revision } = params;
  const aimed = { ...(to === undefined ? {} : { to }), ...(revision === undefined ? {} : { revision }), ...(wait === undefined ? {} : { wait }) };
  if ("keys" in params) return entry.worker.call("browserKeys", { keys: params.keys, ...aimed });
  return entry.worker.call("browserKeys", { text: params.text, paste: params.paste, secret: params.secret, ...aimed });
}

export function createBrowserHandlers(writable: Writable): BrowserHandlers {
  const button = (name: "back" | "forward" | "reload"): BrowserHandlers[typeof name] => async ({ session, lease, timeoutMs, settleMs }) => {
    const entry = requireBrowser(writable(session, lease));
    return { ok: true, session: entry.name, ...(await entry.worker.call("navButton", { button: name, timeoutMs, settleMs })) };
  };

  return {
    async navigate({ session, lease, url, timeoutMs, settleMs }) {
      const target = browserUrl(url);
      const entry = requireBrowser(writable(session, lease));
      return { ok: true, session: entry.name, ...(await entry.worker.call("navigate", { url: target, timeoutMs, settleMs })) };
    },
    back: button("back"),
    forward: button("forward"),
    reload: button("reload"),

    async mouse({ session, lease, action, row, col, button: pressed, modifiers }) {
      const entry = requireBrowser(writable(session, lease));
      const result = await entry.worker.call("browserMouse", { action, row, col, button: pressed, modifiers });
      return { ok: true, session: entry.name, ...result };
    },
  };
}
