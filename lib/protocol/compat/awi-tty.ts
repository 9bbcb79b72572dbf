// The AWI-TTY document's names (the Carbonyl agent-socket document: go_back, get_url,
// send_key, set_viewport, wait_for_frame_quiescence, … with snake_case params and
// `{ok: true}` results) as a compat table beside the core. Each alias validates the
// document's params, calls core methods, and returns the document's shape (stated as its
// result schema, which `capabilities` lists). navigate, reload, scroll, snapshot and click are
// core names too: a call carrying the document's params (timeout_ms, settle_ms, include_meta)
// or named awi.NAME is the document's; the core results of those names already carry the
// document's fields (ok, width/height/lines), so its plain calls read them too.
//
// The document drives a browser, so its calls address browser sessions: the session named
// (refused with not-a-browser when it is another kind), else the current session if it is a
// browser, else the most recently started running browser. A browser that has exited answers
// every call with session-exited.
import * as v from "valibot";
import { TuiwrightError } from "../errors.ts";
import { METHODS } from "../methods.ts";
import { cell, NavSettle, NavTimeout, PageTitle, Recovered, writer } from "../methods/common.ts";
import { MouseModifiers } from "../methods/input.ts";
import { doc, EventType, Revision, SessionName, SnapshotFormat } from "../schemas.ts";
import { sizeFits } from "../size-limits.ts";
import { describeControl, firstControl, requireText } from "../text-input.ts";
import type { CompatTable, CoreCall, DocumentedAlias } from "./alias.ts";

const target = { session: v.optional(SessionName) };
const navigation = { timeout_ms: v.optional(NavTimeout), settle_ms: v.optional(NavSettle) };
const DocTimeout = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 3600_000)), 10_000);
/** The document's feature names for what a session offers (get_capabilities). */
const DOCUMENT_FEATURES = ["navigate", "send_key", "scroll", "snapshot:text", "snapshot:ansi", "get_title", "get_url", "get_nav_state", "set_viewport",
  "type_text", "paste", "wait_for_frame_quiescence", "wait_for_title_contains", "click", "mouse_move", "mouse_down", "mouse_up", "ping", "subscribe_events"];

const MODIFIER_PREFIX = { ctrl: "C-", alt: "M-", meta: "Meta-", shift: "S-" } as const;
type Modifier = keyof typeof MODIFIER_PREFIX;
const Modifiers = v.optional(v.union([
  v.array(v.picklist(["ctrl", "alt", "shift", "meta"])),
  v.strictObject({ ctrl: v.optional(v.boolean()), alt: v.optional(v.boolean()), shift: v.optional(v.boolean()), meta: v.optional(v.boolean()) }),
], 'modifiers is a list like ["ctrl"] or an object like {"ctrl": true}'));

const graphemes = (text: string) => [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].length;

/** The document's {key, char, modifiers} as one of tuiwright's key names (C-, M-, S-, Meta-
 * prefixes: a browser's engine carries meta apart from alt). `char` is one character, any
 * (the engine types é or 中 as a keyboard would); more than one is invalid-key, as a bad key is. */
export function awiKey(key: string, char: string | undefined, modifiers: Modifier[] | Partial<Record<Modifier, boolean>> | undefined): string {
  let name = key;
  if (key === "Char") {
    if (char === undefined) throw new TuiwrightError("invalid-key", 'key "Char" needs char, the character to send');
    if (graphemes(char) !== 1) throw new TuiwrightError("invalid-key", `char must be exactly one character; got ${JSON.stringify(char)}`, { details: { char } });
    if (firstControl(char) >= 0) {
      throw new TuiwrightError("invalid-key", `${describeControl(char)} is a control character, not a key name; name the key (C-c, Escape, …)`, { details: { char } });
    }
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

type Listed = { name: string; kind: string; state: string; exit: { code: number | null; signal: string | null } | null };

/** The browser session a call is for (see the file's head); `live`: refuse one that has exited. */
export async function browserSession(core: CoreCall, session: string | undefined, live = true): Promise<string> {
  const { sessions, current } = await core("list", {}) as { sessions: Listed[]; current: string | null };
  let chosen: Listed | undefined;
  if (session !== undefined) {
    chosen = sessions.find((s) => s.name === session);
    if (!chosen) {
      throw new TuiwrightError("no-such-session", `no session named ${JSON.stringify(session)}${sessions.length ? ` (sessions: ${sessions.map((s) => s.name).join(", ")})` : ""}`);
    }
    if (chosen.kind !== "browser") {
      throw new TuiwrightError("not-a-browser", `session ${JSON.stringify(session)} is a ${chosen.kind} session; AWI-TTY calls drive browser sessions`, {
        hint: `name a browser session${sessions.some((s) => s.kind === "browser") ? ` (${sessions.filter((s) => s.kind === "browser").map((s) => s.name).join(", ")})` : ""}, or start one with \`tuiwright browse URL\``,
      });
    }
  } else {
    const browsers = sessions.filter((s) => s.kind === "browser");
    if (browsers.length === 0) {
      throw new TuiwrightError("no-such-session", `there is no browser session${sessions.length ? ` (sessions: ${sessions.map((s) => `${s.name} (${s.kind})`).join(", ")})` : ""}`, {
        hint: "start one with `tuiwright browse URL`",
      });
    }
    chosen = browsers.find((s) => s.name === current) ?? browsers.filter((s) => s.state === "running").at(-1) ?? browsers.at(-1)!;
  }
  if (live && chosen.state !== "running") {
    const how = chosen.exit ? (chosen.exit.signal ? `killed by ${chosen.exit.signal}` : `exit code ${chosen.exit.code}`) : chosen.state;
    throw new TuiwrightError("session-exited", `browser session ${JSON.stringify(chosen.name)} has exited (${how})`, {
      hint: `start it again with \`tuiwright reset --session ${chosen.name}\`, or a new one with \`tuiwright browse URL\``,
    });
  }
  return chosen.name;
}

const Done = (extra: v.ObjectEntries = {}) => v.object({ ok: v.literal(true), session: v.string(), revision: Revision, ...extra });
/** Keys and text: a JavaScript dialog the input opened or answered (the core result's). */
const KeyDone = () => Done({ dialog: METHODS.press.result.entries.dialog });
const dialogOf = (reply: { dialog?: unknown }) => (reply.dialog === undefined ? {} : { dialog: reply.dialog });

const navButton = (method: "back" | "forward" | "reload", title: string): DocumentedAlias => ({
  title, readOnly: false, aliasOf: method,
  params: v.strictObject({ ...writer, ...navigation }),
  result: METHODS[method].result,
  async run({ session, lease, ...params }, core) {
    return core(method, { session: await browserSession(core, session), ...only({ lease }), ...settling(params) });
  },
});

const mouseAt = (action: "move" | "down" | "up", title: string): DocumentedAlias => ({
  title, readOnly: false, aliasOf: "mouse",
  params: v.strictObject({ ...writer, ...cell, button: v.optional(v.picklist(["left", "middle", "right"])), modifiers: v.optional(MouseModifiers) }),
  result: METHODS.mouse.result,
  async run({ session, ...params }, core) {
    return core("mouse", { ...params, session: await browserSession(core, session), action });
  },
});

const typed = (paste: boolean, title: string): DocumentedAlias => ({
  title, readOnly: false, aliasOf: "type",
  params: v.strictObject({ ...writer, text: v.string() }),
  result: KeyDone(),
  async run({ session, ...params }, core) {
    // Bad input is refused before anything else is looked at (a paste leaves controls out).
    if (!paste) requireText(params.text);
    const typedText = await core("type", { ...params, session: await browserSession(core, session), paste });
    return { ok: true, session: typedText.session, revision: typedText.revisionAfter, ...dialogOf(typedText) };
  },
});

const getter = <T>(title: string, what: "url" | "nav" | "title", result: v.GenericSchema, shape: (got: any) => T): DocumentedAlias => ({
  title, readOnly: true, aliasOf: "get",
  params: v.strictObject(target),
  result,
  async run({ session }, core) {
    return shape(await core("get", { session: await browserSession(core, session), what }));
  },
});

export const AWI_TTY = {
  navigate: {
    title: "AWI-TTY: load a URL; returns once the engine has loaded it and the screen shows it (timeout_ms, settle_ms)",
    readOnly: false, aliasOf: "navigate",
    params: v.strictObject({ ...writer, url: v.pipe(v.string(), v.minLength(1)), ...navigation }),
    result: METHODS.navigate.result,
    async run({ session, lease, url, ...params }, core) {
      return core("navigate", { session: await browserSession(core, session), ...only({ lease }), url, ...settling(params) });
    },
  },
  go_back: navButton("back", "AWI-TTY: back in the engine's history; returns once that page is loaded and shown"),
  go_forward: navButton("forward", "AWI-TTY: forward in the engine's history; returns once that page is loaded and shown"),
  reload: navButton("reload", "AWI-TTY: reload; returns once the page is loaded again and shown"),
  scroll: {
    title: "AWI-TTY: turn the mouse wheel by delta text rows; returns once the engine scrolled and the screen shows it (settle_ms)",
    readOnly: false, aliasOf: "scroll",
    params: v.strictObject({ ...writer, delta: v.number(), row: v.optional(v.number()), col: v.optional(v.number()), settle_ms: v.optional(v.number()) }),
    result: METHODS.scroll.result,
    async run({ settle_ms, session, ...params }, core) {
      return core("scroll", { ...params, session: await browserSession(core, session), ...only({ settleMs: settle_ms }) });
    },
  },
  snapshot: {
    title: "AWI-TTY: the screen as text or ANSI, with width, height and lines; include_meta adds cursor, url, title, dpi, scale, nav",
    readOnly: true, aliasOf: "snapshot",
    params: v.strictObject({ ...target, format: v.optional(SnapshotFormat), include_meta: v.optional(v.boolean()) }),
    result: METHODS.snapshot.result,
    async run({ include_meta, session, ...params }, core) {
      return core("snapshot", { ...params, session: await browserSession(core, session), includeMeta: include_meta === true });
    },
  },
  click: {
    title: "AWI-TTY: click a cell {row, col} (a button and modifiers optional); returns once the engine took the click",
    readOnly: false, aliasOf: "click",
    params: v.strictObject({ ...writer, ...cell, button: v.optional(v.picklist(["left", "middle", "right"])), modifiers: v.optional(MouseModifiers) }),
    result: METHODS.click.result,
    async run({ session, ...params }, core) {
      return core("click", { ...params, session: await browserSession(core, session) });
    },
  },
  get_url: getter("AWI-TTY: the page's URL (from the browser engine)", "url", v.object({ session: v.string(), url: v.string() }), (got) => ({ session: got.session, url: got.value })),
  get_nav_state: getter("AWI-TTY: whether back and forward can be used (the engine's history)", "nav",
    v.object({ session: v.string(), can_go_back: v.boolean(), can_go_forward: v.boolean() }), (got) => ({ session: got.session, ...(got.value as object) })),
  get_title: getter("AWI-TTY: the page's title (from the engine), or null with title_reason", "title",
    v.object({ session: v.string(), ...PageTitle }), ({ session, title, title_source, title_reason }) => ({ session, title, ...only({ title_source, title_reason }) })),
  send_key: {
    title: "AWI-TTY: press one key: Tab, Enter, Up, … or Char with char (any one character), with modifiers (ctrl, alt, shift, meta)",
    readOnly: false, aliasOf: "press",
    params: v.strictObject({
      ...writer,
      key: v.pipe(v.string(), v.minLength(1)),
      char: v.optional(v.string()),
      modifiers: Modifiers,
    }),
    result: KeyDone(),
    async run({ key, char, modifiers, session, ...params }, core) {
      const name = awiKey(key, char, modifiers);
      const pressed = await core("press", { ...params, session: await browserSession(core, session), keys: [name] });
      return { ok: true, session: pressed.session, revision: pressed.revisionAfter, ...dialogOf(pressed) };
    },
  },
  type_text: typed(false, "AWI-TTY: type literal text (keys for ASCII, the engine's text input for the rest)"),
  paste: typed(true, "AWI-TTY: paste text (inserted by the engine at once, as a paste is)"),
  set_viewport: {
    title: "AWI-TTY: resize the terminal; returns once the page is laid out and drawn at the new size (invalid-viewport on sizes out of range)",
    readOnly: false, aliasOf: "resize",
    params: v.strictObject({ ...writer, cols: v.number(), rows: v.number() }),
    result: Done({ cols: v.number(), rows: v.number(), redrawn: v.optional(v.boolean()), nudged: v.optional(v.boolean()), recovered: v.optional(Recovered) }),
    async run({ session, ...params }, core) {
      if (!sizeFits(params.cols, params.rows)) {
        throw new TuiwrightError("invalid-viewport", `invalid viewport ${params.cols}x${params.rows}`, { details: { cols: params.cols, rows: params.rows } });
      }
      const sized = await core("resize", { ...params, session: await browserSession(core, session) });
      return { ok: true, session: sized.session, cols: sized.cols, rows: sized.rows, revision: sized.revision, ...only({ redrawn: sized.redrawn, nudged: sized.nudged, recovered: sized.recovered }) };
    },
  },
  wait_for_frame_quiescence: {
    title: "AWI-TTY: wait until the screen has not changed for idle_ms (counted from the call)",
    readOnly: true, aliasOf: "wait",
    params: v.strictObject({ ...target, idle_ms: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000)), timeout_ms: DocTimeout }),
    result: Done({ elapsed_ms: v.number() }),
    async run({ session, idle_ms, timeout_ms }, core) {
      const name = await browserSession(core, session);
      const waited = await core("wait", { session: name, settledMs: idle_ms, timeoutMs: timeout_ms, fromNow: true });
      return { ok: true, session: name, revision: waited.revision, elapsed_ms: waited.elapsedMs };
    },
  },
  wait_for_title_contains: {
    title: "AWI-TTY: wait until the title contains a substring",
    readOnly: true, aliasOf: "wait",
    params: v.strictObject({ ...target, substring: v.pipe(v.string(), v.minLength(1)), timeout_ms: DocTimeout }),
    result: Done({ title: v.string(), elapsed_ms: v.number() }),
    async run({ session, substring, timeout_ms }, core) {
      const name = await browserSession(core, session);
      const waited = await core("wait", { session: name, title: literalTitle(substring), timeoutMs: timeout_ms });
      const { value } = await core("get", { session: name, what: "title" });
      return { ok: true, session: name, title: String(value), revision: waited.revision, elapsed_ms: waited.elapsedMs };
    },
  },
  mouse_move: mouseAt("move", "AWI-TTY: move the mouse to a cell (a drag while mouse_down holds a button)"),
  mouse_down: mouseAt("down", "AWI-TTY: press a mouse button at a cell (held until mouse_up)"),
  mouse_up: mouseAt("up", "AWI-TTY: release a mouse button at a cell"),
  get_capabilities: {
    title: "AWI-TTY: version, features, snapshot formats, platform, the browser session calls act on",
    readOnly: true, aliasOf: "capabilities",
    params: v.strictObject(target),
    result: v.object({
      version: v.string(), features: v.array(v.string()), snapshot_formats: v.array(v.string()), platform: v.literal("unix"),
      session_id: doc(v.nullable(v.string()), "the browser session the other calls act on; null when there is none"),
    }),
    async run({ session }, core) {
      const [{ version }, target] = await Promise.all([core("ping", {}), browserSession(core, session, false).catch((error: unknown) => {
        if (session === undefined && error instanceof TuiwrightError && error.errorName === "no-such-session") return null;
        throw error;
      })]);
      return {
        version,
        features: [...new Set([...DOCUMENT_FEATURES, ...Object.keys(METHODS).filter((name) => !name.startsWith("debug."))])],
        snapshot_formats: SnapshotFormat.options,
        platform: "unix",
        session_id: target,
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
    result: v.object({ ok: v.literal(true), subscription: v.string() }),
    async run({ debounce_ms, ...params }, core) {
      const { subscription } = await core("subscribe", { ...params, ...only({ debounceMs: debounce_ms }) });
      return { ok: true, subscription };
    },
  },
} satisfies Record<string, DocumentedAlias>;

export type AwiTtyName = keyof typeof AWI_TTY;
export const AWI_TTY_TABLE: CompatTable = { document: "awi-tty-carbonyl-agent-socket", prefix: "awi.", aliases: AWI_TTY };
