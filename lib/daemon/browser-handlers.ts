// Browser sessions: navigation drives Carbonyl's own navigation bar, in the session's worker
// (lib/worker/browser-navigation.ts);
// keys, text and the mouse are encoded the way Carbonyl reads them (lib/browser/carbonyl-input.ts),
// so a key it would misread (C-c is its exit key) is refused instead of sent. The AWI-TTY
// document's names for these are a compat table (lib/protocol/compat/awi-tty.ts).
import { carbonylKey, carbonylMouse, carbonylText } from "../browser/carbonyl-input.ts";
import { splitModifiers } from "../terminal/keys.ts";
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

/** One of tuiwright's key names (C-, M-, S- prefixes; a character) as the bytes Carbonyl reads. */
export function carbonylKeyName(name: string): string {
  const { mods, base } = splitModifiers(name);
  return [...base].length === 1 ? carbonylKey("Char", base, mods) : carbonylKey(base, undefined, mods);
}

/** press and type on a browser session: Carbonyl's bytes, through the worker's raw input. */
export async function browserInput(entry: SessionEntry, params: Omit<Params<"press">, "session" | "lease"> | Omit<Params<"type">, "session" | "lease">) {
  if (params.to !== undefined) {
    throw new TuiwrightError("usage", "--to on a browser session: click the node first (click REF), then type or press", { hint: "Carbonyl has no keyboard focus tuiwright can see; a click puts the page's focus there" });
  }
  const [data, label] = "keys" in params
    ? [params.keys.map(carbonylKeyName).join(""), `press ${params.keys.join(" ")}`]
    // Carbonyl has no bracketed paste: a paste arrives typed, byte by byte.
    : [carbonylText(params.text), params.paste ? "paste" : "type"];
  const secret = "secret" in params && params.secret === true;
  return entry.worker.call("browserInput", { data, label, secret, ...(params.wait === undefined ? {} : { wait: params.wait }) });
}

export function createBrowserHandlers(writable: Writable): BrowserHandlers {
  /** Whether each browser session's left button is held (mouse down without up yet). */
  const held = new WeakMap<SessionEntry, boolean>();
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

    async mouse({ session, lease, action, row, col }) {
      const entry = requireBrowser(writable(session, lease));
      if (row >= entry.rows || col >= entry.cols) throw new TuiwrightError("bad-data", `cell ${row},${col} is outside the ${entry.cols}x${entry.rows} screen`);
      const result = await entry.worker.call("browserInput", { data: carbonylMouse(action, row, col, held.get(entry) ?? false), label: `mouse ${action} ${row},${col}` });
      if (action !== "move") held.set(entry, action === "down");
      return { ok: true, session: entry.name, held: held.get(entry) ?? false, revision: result.revisionAfter };
    },
  };
}
