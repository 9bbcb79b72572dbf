// The AWI-TTY document's names (the Carbonyl agent-socket document: go_back, get_url,
// send_key, set_viewport, wait_for_frame_quiescence, … with snake_case params and
// `{ok: true}` results) as a compat table beside the core. Each alias validates the
// document's params, calls core methods, and returns the document's shape. navigate, reload,
// scroll and snapshot are core names too: a call carrying the document's params (timeout_ms,
// settle_ms, include_meta) is the document's; the core results of those names already carry the
// document's fields (ok, width/height/lines), so its plain calls read them too.
import * as v from "valibot";
import { TuiwrightError } from "../errors.ts";
import { METHODS } from "../methods.ts";
import { cell, NavSettle, NavTimeout, writer } from "../methods/common.ts";
import { EventType, SessionName, SnapshotFormat } from "../schemas.ts";
import { sizeFits } from "../size-limits.ts";
import type { CompatAlias, CompatTable, CoreCall } from "./alias.ts";

const target = { session: v.optional(SessionName) };
const navigation = { timeout_ms: v.optional(NavTimeout), settle_ms: v.optional(NavSettle) };
const DocTimeout = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 3600_000)), 10_000);
/** The document's feature names for what a session offers (get_capabilities). */
const DOCUMENT_FEATURES = ["navigate", "send_key", "scroll", "snapshot:text", "snapshot:ansi", "get_title", "get_url", "get_nav_state", "set_viewport",
  "type_text", "paste", "wait_for_frame_quiescence", "wait_for_title_contains", "click", "mouse_move", "mouse_down", "mouse_up", "ping", "subscribe_events"];

const MODIFIER_PREFIX = { ctrl: "C-", alt: "M-", meta: "M-", shift: "S-" } as const;
type Modifier = keyof typeof MODIFIER_PREFIX;
const Modifiers = v.optional(v.union([
  v.array(v.picklist(["ctrl", "alt", "shift", "meta"])),
  v.strictObject({ ctrl: v.optional(v.boolean()), alt: v.optional(v.boolean()), shift: v.optional(v.boolean()), meta: v.optional(v.boolean()) }),
], 'modifiers is a list like ["ctrl"] or an object like {"ctrl": true}'));

/** The document's {key, char, modifiers} as one of tuiwright's key names (C-, M-, S- prefixes;
 * meta is M-, as alt: terminals send the two alike). */
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

const only = <T extends Record<string, unknown>>(fields: T) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
const settling = (params: { timeout_ms?: number; settle_ms?: number }) => only({ timeoutMs: params.timeout_ms, settleMs: params.settle_ms });

/** The session a call names, by asking the core (no-such-session when there is none). */
const sessionName = async (core: CoreCall, session: string | undefined) => (await core("get", only({ session, what: "size" }))).session;

const navButton = (method: "back" | "forward" | "reload", title: string): CompatAlias => ({
  title, readOnly: false, aliasOf: method,
  params: v.strictObject({ ...writer, ...navigation }),
  run: ({ session, lease, ...params }, core) => core(method, { ...only({ session, lease }), ...settling(params) }),
});

const mouseAt = (action: "move" | "down" | "up", title: string): CompatAlias => ({
  title, readOnly: false, aliasOf: "mouse",
  params: v.strictObject({ ...writer, ...cell }),
  run: (params, core) => core("mouse", { ...params, action }),
});

const typed = (paste: boolean, title: string): CompatAlias => ({
  title, readOnly: false, aliasOf: "type",
  params: v.strictObject({ ...writer, text: v.string() }),
  async run(params, core) {
    const typedText = await core("type", { ...params, paste });
    return { ok: true, session: typedText.session, revision: typedText.revisionAfter };
  },
});

export const AWI_TTY = {
  navigate: {
    title: "AWI-TTY: load a URL and wait until the page has settled (timeout_ms, settle_ms)",
    readOnly: false, aliasOf: "navigate",
    params: v.strictObject({ ...writer, url: v.pipe(v.string(), v.minLength(1)), ...navigation }),
    run: ({ session, lease, url, ...params }, core) => core("navigate", { ...only({ session, lease }), url, ...settling(params) }),
  },
  go_back: navButton("back", "AWI-TTY: the back button, then wait until the page has settled"),
  go_forward: navButton("forward", "AWI-TTY: the forward button, then wait until the page has settled"),
  reload: navButton("reload", "AWI-TTY: the reload button, then wait until the page has settled"),
  scroll: {
    title: "AWI-TTY: turn the mouse wheel (settle_ms)",
    readOnly: false, aliasOf: "scroll",
    params: v.strictObject({ ...writer, delta: v.number(), row: v.optional(v.number()), col: v.optional(v.number()), settle_ms: v.optional(v.number()) }),
    run: ({ settle_ms, ...params }, core) => core("scroll", { ...params, ...only({ settleMs: settle_ms }) }),
  },
  snapshot: {
    title: "AWI-TTY: the screen as text or ANSI, with width, height and lines; include_meta adds cursor, url, title, nav",
    readOnly: true, aliasOf: "snapshot",
    params: v.strictObject({ ...target, format: v.optional(SnapshotFormat), include_meta: v.optional(v.boolean()) }),
    run: ({ include_meta, ...params }, core) => core("snapshot", { ...params, includeMeta: include_meta === true }),
  },
  get_url: {
    title: "AWI-TTY: the URL in the URL bar", readOnly: true, aliasOf: "get",
    params: v.strictObject(target),
    async run(params, core) {
      const got = await core("get", { ...params, what: "url" });
      return { session: got.session, url: got.value };
    },
  },
  get_nav_state: {
    title: "AWI-TTY: whether back and forward can be used", readOnly: true, aliasOf: "get",
    params: v.strictObject(target),
    async run(params, core) {
      const got = await core("get", { ...params, what: "nav" });
      return { session: got.session, ...(got.value as object) };
    },
  },
  get_title: {
    title: "AWI-TTY: the title (a browser's page title, or null with title_reason)", readOnly: true, aliasOf: "get",
    params: v.strictObject(target),
    async run(params, core) {
      const { session, title, title_source, title_reason } = await core("get", { ...params, what: "title" });
      return { session, title, ...only({ title_source, title_reason }) };
    },
  },
  send_key: {
    title: "AWI-TTY: press one key: Tab, Enter, Up, … or Char with char, with modifiers",
    readOnly: false, aliasOf: "press",
    params: v.strictObject({
      ...writer,
      key: v.pipe(v.string(), v.minLength(1)),
      char: v.optional(v.pipe(v.string(), v.length(1, "char is one character"))),
      modifiers: Modifiers,
    }),
    async run({ key, char, modifiers, ...params }, core) {
      const pressed = await core("press", { ...params, keys: [awiKey(key, char, modifiers)] });
      return { ok: true, session: pressed.session, revision: pressed.revisionAfter };
    },
  },
  type_text: typed(false, "AWI-TTY: type literal text"),
  paste: typed(true, "AWI-TTY: paste text (bracketed paste when the program enabled it; a browser gets it typed)"),
  set_viewport: {
    title: "AWI-TTY: resize the terminal (invalid-viewport on sizes out of range)",
    readOnly: false, aliasOf: "resize",
    params: v.strictObject({ ...writer, cols: v.number(), rows: v.number() }),
    async run(params, core) {
      if (!sizeFits(params.cols, params.rows)) {
        throw new TuiwrightError("invalid-viewport", `invalid viewport ${params.cols}x${params.rows}`, { details: { cols: params.cols, rows: params.rows } });
      }
      const sized = await core("resize", params);
      return { ok: true, session: sized.session, cols: sized.cols, rows: sized.rows, ...(sized.redrawn === undefined ? {} : { redrawn: sized.redrawn, nudged: sized.nudged }) };
    },
  },
  wait_for_frame_quiescence: {
    title: "AWI-TTY: wait until the screen has not changed for idle_ms (counted from the call)",
    readOnly: true, aliasOf: "wait",
    params: v.strictObject({ ...target, idle_ms: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000)), timeout_ms: DocTimeout }),
    async run({ session, idle_ms, timeout_ms }, core) {
      const name = await sessionName(core, session);
      const waited = await core("wait", { session: name, settledMs: idle_ms, timeoutMs: timeout_ms, fromNow: true });
      return { ok: true, session: name, revision: waited.revision, elapsed_ms: waited.elapsedMs };
    },
  },
  wait_for_title_contains: {
    title: "AWI-TTY: wait until the title contains a substring",
    readOnly: true, aliasOf: "wait",
    params: v.strictObject({ ...target, substring: v.pipe(v.string(), v.minLength(1)), timeout_ms: DocTimeout }),
    async run({ session, substring, timeout_ms }, core) {
      const name = await sessionName(core, session);
      const waited = await core("wait", { session: name, title: literalTitle(substring), timeoutMs: timeout_ms });
      const { value } = await core("get", { session: name, what: "title" });
      return { ok: true, session: name, title: String(value), revision: waited.revision, elapsed_ms: waited.elapsedMs };
    },
  },
  mouse_move: mouseAt("move", "AWI-TTY: move the mouse to a cell (a drag while mouse_down holds the button)"),
  mouse_down: mouseAt("down", "AWI-TTY: press the left mouse button at a cell (held until mouse_up)"),
  mouse_up: mouseAt("up", "AWI-TTY: release the left mouse button at a cell"),
  get_capabilities: {
    title: "AWI-TTY: version, features, snapshot formats, platform, the session",
    readOnly: true, aliasOf: "capabilities",
    params: v.strictObject(target),
    async run({ session }, core) {
      const [{ version }, { current }] = await Promise.all([core("ping", {}), core("list", {})]);
      return {
        version,
        features: [...new Set([...DOCUMENT_FEATURES, ...Object.keys(METHODS).filter((name) => !name.startsWith("debug."))])],
        snapshot_formats: SnapshotFormat.options,
        platform: "unix",
        // The session the other calls would act on, if there is one.
        session_id: session === undefined ? current : await sessionName(core, session),
      };
    },
  },
  subscribe_events: {
    title: "AWI-TTY: receive events as `event` notifications on this connection",
    readOnly: true, aliasOf: "subscribe",
    params: v.strictObject({
      session: v.optional(SessionName),
      types: v.optional(v.pipe(v.array(EventType), v.minLength(1, "name at least one event type"))),
      debounce_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000))),
    }),
    async run({ debounce_ms, ...params }, core) {
      const { subscription } = await core("subscribe", { ...params, ...only({ debounceMs: debounce_ms }) });
      return { ok: true, subscription };
    },
  },
} satisfies Record<string, CompatAlias>;

export type AwiTtyName = keyof typeof AWI_TTY;
export const AWI_TTY_TABLE: CompatTable = { document: "awi-tty-carbonyl-agent-socket", prefix: "awi.", aliases: AWI_TTY };
