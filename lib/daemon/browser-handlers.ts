// Browser sessions and the AWI-TTY method names. Navigation drives Carbonyl's own navigation
// bar, in the session's worker (lib/worker/browser-navigation.ts); the AWI-TTY aliases are thin:
// each calls the worker operation its tuiwright method uses and returns the document's shape.
import { titleOf } from "../link/browser-state.ts";
import { carbonylKey, carbonylMouse, carbonylText, type MouseAction } from "../browser/carbonyl-input.ts";
import { navFlags } from "../browser/nav-state.ts";
import { browserUrl } from "../browser/url.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import { METHODS } from "../protocol/methods.ts";
import { version } from "../runtime/self.ts";
import { sizeFits } from "../protocol/size-limits.ts";
import { checkMemoryBudget } from "./memory-budget.ts";
import type { Handlers } from "./dispatch.ts";
import type { DaemonContext } from "./handlers.ts";
import type { SessionEntry } from "./registry.ts";

type BrowserHandlers = Pick<Handlers,
  | "scroll" | "navigate" | "go_back" | "go_forward" | "reload" | "get_url" | "get_nav_state" | "get_title" | "send_key"
  | "type_text" | "paste" | "set_viewport" | "wait_for_frame_quiescence" | "wait_for_title_contains" | "get_capabilities" | "subscribe_events"
  | "mouse_move" | "mouse_down" | "mouse_up">;

/** The document's feature names for what a browser session offers (get_capabilities). */
const DOCUMENT_FEATURES = ["navigate", "send_key", "scroll", "snapshot:text", "snapshot:ansi", "get_title", "get_url", "get_nav_state", "set_viewport",
  "type_text", "paste", "wait_for_frame_quiescence", "wait_for_title_contains", "click", "mouse_move", "mouse_down", "mouse_up", "ping", "subscribe_events"];

const MODIFIER_PREFIX = { ctrl: "C-", alt: "M-", meta: "M-", shift: "S-" } as const;
type Modifier = keyof typeof MODIFIER_PREFIX;

/** AWI-TTY's {key, char, modifiers} as one of tuiwright's key names (C-, M-, S- prefixes). */
export function awiKey(key: string, char: string | undefined, modifiers: Modifier[] | Partial<Record<Modifier, boolean>> | undefined): string {
  let name = key;
  if (key === "Char") {
    if (char === undefined) throw new TuiwrightError("invalid-key", 'key "Char" needs char, the character to send');
    name = char;
  } else if (char !== undefined) {
    throw new TuiwrightError("invalid-key", `char goes with key "Char", not ${JSON.stringify(key)}`);
  }
  const list = Array.isArray(modifiers) ? modifiers : Object.entries(modifiers ?? {}).filter(([, on]) => on).map(([m]) => m as Modifier);
  const prefixes = [...new Set(list.map((m) => MODIFIER_PREFIX[m]))].sort();
  return prefixes.join("") + name;
}

/** A literal substring as a title condition (a leading and trailing / would read as a regex). */
const literalTitle = (substring: string) => `/${substring.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/`;

/** The session, if it is a browser session; else not-a-browser (exit 64). */
export function requireBrowser(entry: SessionEntry): SessionEntry {
  if (entry.spawnParams.browser === undefined) {
    throw new TuiwrightError("not-a-browser", `session ${JSON.stringify(entry.name)} is not a browser session (${entry.argv[0]})`);
  }
  return entry;
}

export function createBrowserHandlers(context: DaemonContext, writable: (session: string | undefined, lease: string | undefined) => SessionEntry): BrowserHandlers {
  const { registry } = context;
  const browserState = (session: string | undefined) => {
    const entry = requireBrowser(registry.resolve(session));
    return entry.worker.call("browser", {}).then((state) => ({ entry, state }));
  };
  const isBrowser = (entry: SessionEntry) => entry.spawnParams.browser !== undefined;
  /** Whether each browser session's left button is held (mouse_down without mouse_up yet). */
  const held = new WeakMap<SessionEntry, boolean>();
  const mouse = async (action: MouseAction, { session, lease, row, col }: { session?: string; lease?: string; row: number; col: number }) => {
    const entry = requireBrowser(writable(session, lease));
    if (row >= entry.rows || col >= entry.cols) throw new TuiwrightError("bad-data", `cell ${row},${col} is outside the ${entry.cols}x${entry.rows} screen`);
    const result = await entry.worker.call("browserInput", { data: carbonylMouse(action, row, col, held.get(entry) ?? false), label: `mouse ${action} ${row},${col}` });
    if (action !== "move") held.set(entry, action === "down");
    return { ok: true as const, session: entry.name, held: held.get(entry) ?? false, revision: result.revisionAfter };
  };

  return {
    async scroll({ session, lease, delta, row, col, settle_ms }) {
      const entry = writable(session, lease);
      const result = await entry.worker.call("scroll", { delta, ...(row === undefined ? {} : { row }), ...(col === undefined ? {} : { col }), settleMs: settle_ms });
      return { ok: true, session: entry.name, ...result };
    },

    async navigate({ session, lease, url, timeout_ms, settle_ms }) {
      const target = browserUrl(url);
      const entry = requireBrowser(writable(session, lease));
      return { ok: true, session: entry.name, ...(await entry.worker.call("navigate", { url: target, timeoutMs: timeout_ms, settleMs: settle_ms })) };
    },

    async go_back({ session, lease, timeout_ms, settle_ms }) {
      const entry = requireBrowser(writable(session, lease));
      return { ok: true, session: entry.name, ...(await entry.worker.call("navButton", { button: "back", timeoutMs: timeout_ms, settleMs: settle_ms })) };
    },

    async go_forward({ session, lease, timeout_ms, settle_ms }) {
      const entry = requireBrowser(writable(session, lease));
      return { ok: true, session: entry.name, ...(await entry.worker.call("navButton", { button: "forward", timeoutMs: timeout_ms, settleMs: settle_ms })) };
    },

    async reload({ session, lease, timeout_ms, settle_ms }) {
      const entry = requireBrowser(writable(session, lease));
      return { ok: true, session: entry.name, ...(await entry.worker.call("navButton", { button: "reload", timeoutMs: timeout_ms, settleMs: settle_ms })) };
    },

    async get_url({ session }) {
      const { entry, state } = await browserState(session);
      return { session: entry.name, url: state.url };
    },

    async get_nav_state({ session }) {
      const { entry, state } = await browserState(session);
      return { session: entry.name, ...navFlags(state) };
    },

    async get_title({ session }) {
      const entry = registry.resolve(session);
      if (isBrowser(entry)) return { session: entry.name, ...titleOf(await entry.worker.call("browser", {})) };
      const { value } = await entry.worker.call("get", { what: "title" });
      return { session: entry.name, title: String(value) };
    },

    async send_key({ session, lease, key, char, modifiers }) {
      const entry = writable(session, lease);
      if (isBrowser(entry)) {
        const data = carbonylKey(key, char, modifiers);
        const sent = await entry.worker.call("browserInput", { data, label: `send_key ${key}${char === undefined ? "" : ` ${char}`}` });
        return { ok: true, session: entry.name, revision: sent.revisionAfter };
      }
      const result = await entry.worker.call("press", { keys: [awiKey(key, char, modifiers)] });
      return { ok: true, session: entry.name, revision: result.revisionAfter };
    },

    async type_text({ session, lease, text }) {
      const entry = writable(session, lease);
      if (isBrowser(entry)) {
        const sent = await entry.worker.call("browserInput", { data: carbonylText(text), label: "type_text" });
        return { ok: true, session: entry.name, revision: sent.revisionAfter };
      }
      const result = await entry.worker.call("type", { text, paste: false, secret: false });
      return { ok: true, session: entry.name, revision: result.revisionAfter };
    },

    async paste({ session, lease, text }) {
      const entry = writable(session, lease);
      if (isBrowser(entry)) {
        // Carbonyl has no bracketed paste: the text arrives typed, byte by byte.
        const sent = await entry.worker.call("browserInput", { data: carbonylText(text), label: "paste" });
        return { ok: true, session: entry.name, revision: sent.revisionAfter };
      }
      const result = await entry.worker.call("type", { text, paste: true, secret: false });
      return { ok: true, session: entry.name, revision: result.revisionAfter };
    },

    async set_viewport({ session, lease, cols, rows }) {
      if (!sizeFits(cols, rows)) {
        throw new TuiwrightError("invalid-viewport", `invalid viewport ${cols}x${rows}`, { details: { cols, rows } });
      }
      const entry = writable(session, lease);
      const sized = (e: SessionEntry) => ({ name: e.name, cols: e.cols, rows: e.rows, scrollback: e.spawnParams.scrollback });
      checkMemoryBudget({ ...sized(entry), cols, rows }, registry.all().filter((e) => e !== entry).map(sized), `resizing ${JSON.stringify(entry.name)} to ${cols}x${rows}`);
      const result = await entry.worker.call("resize", { cols, rows });
      entry.cols = result.cols;
      entry.rows = result.rows;
      return { ok: true, session: entry.name, cols: result.cols, rows: result.rows };
    },

    async wait_for_frame_quiescence({ session, idle_ms, timeout_ms }, call) {
      const entry = registry.resolve(session);
      // From the call: a screen that was still before it does not count.
      const result = await entry.worker.call("wait", { settledMs: idle_ms, timeoutMs: timeout_ms, mode: "any", includeText: false, fromNow: true }, context.hungUp(call.connection));
      return { ok: true, session: entry.name, revision: result.revision, elapsed_ms: result.elapsedMs };
    },

    async wait_for_title_contains({ session, substring, timeout_ms }, call) {
      const entry = registry.resolve(session);
      const result = await entry.worker.call("wait", { title: literalTitle(substring), timeoutMs: timeout_ms, mode: "any", includeText: false }, context.hungUp(call.connection));
      const { value } = await entry.worker.call("get", { what: "title" });
      return { ok: true, session: entry.name, title: String(value), revision: result.revision, elapsed_ms: result.elapsedMs };
    },

    async get_capabilities({ session }) {
      // The session the other calls would act on, if there is one.
      const entry = session !== undefined || registry.size > 0 ? registry.resolve(session) : null;
      return {
        version: version(),
        features: [...new Set([...DOCUMENT_FEATURES, ...Object.keys(METHODS).filter((name) => !name.startsWith("debug."))])],
        snapshot_formats: ["text", "ansi", "cells", "outline", "svg", "png"],
        platform: "unix",
        session_id: entry?.name ?? null,
      };
    },

    mouse_move: (params) => mouse("move", params),
    mouse_down: (params) => mouse("down", params),
    mouse_up: (params) => mouse("up", params),

    async subscribe_events({ session, types, debounce_ms }, call) {
      if (session !== undefined) registry.resolve(session); // throws no-such-session
      const subscription = context.events.subscribe(call.connection, {
        session: session ?? null,
        types: types ?? ["screen", "title", "bell", "exit", "resize", "lease"],
        debounceMs: debounce_ms,
      });
      return { ok: true, subscription };
    },
  };
}
