// What every method definition has, and the parameter pieces several domains share.
import * as v from "valibot";
import { doc, ExitStatus, LeaseToken, Revision, SessionName, Target, WaitConditions } from "../schemas.ts";

/** The MCP tool profiles a method's tool can belong to (lib/protocol/mcp-profiles.ts says what
 * each is for); the agent-interactive-pty document's names are a profile of their own. */
export type ToolProfile = "core" | "shell" | "browser" | "ai" | "desktop" | "admin";

export type MethodDef = {
  /** The MCP tool profile its tool is in, or false: no tool (an event subscription, which needs a
   * connection of its own, or a fault-test method). */
  tool: ToolProfile | false;
  title: string;
  readOnly: boolean;
  destructive?: boolean;
  params: v.GenericSchema;
  result: v.GenericSchema;
  /** The daemon forwards the call to the session's worker op of the same name (a writer checks
   * the lease first): no daemon handler of its own (lib/daemon/pass-through.ts). */
  forward?: true;
  /** The CLI verb this method is, when params map onto flags and words one to one (generated
   * into the thin CLI's data by scripts/gen-method-facts.ts; lib/cli/table-verbs.ts builds it). */
  cli?: CliSpec | readonly CliSpec[];
};

/** A CLI flag in a verb's row: a param flag's names ("--desktop|-d", with its aliases), or with
 * what it says differently from its param; `built: true` documents the param but the verb's
 * build hook (lib/cli/verb-hooks.ts) sets it (a path made absolute, a value of another shape);
 * `fill`: the CLI's own default, sent when the flag is absent. */
export type CliParamFlag = string | { names: string; value?: string; description?: string; built?: true; fill?: string | number };
/** A flag of the CLI alone (no param of its own: the verb's hooks read it). */
export type CliOwnFlag = { type: "string" | "int" | "bool" | "list"; value?: string; description: string; default?: string | number | boolean };

export type CliSpec = {
  /** The verb's words: "mark", "lease release". */
  verb: string;
  /** One line for `help`; default: the method's title. */
  summary?: string;
  /** The usage line when the one made from the words and flags does not say it (exclusive flags, `-- ARGV`). */
  usage?: string;
  /** The params the positional words set, in order; `?` after a name makes it optional, `...`
   * (last word only, a list param) takes all the words left, none or more. */
  words?: readonly string[];
  /** How many words the verb takes, when its build hook reads them (default: from `words`); "many": no limit. */
  arity?: readonly [number, number | "many"];
  /** The verb takes `-- ARGV...`. */
  rest?: true;
  /** The flags, in help's order, each keyed by what it is: a param name → a param flag (its type,
   * help and default the param's); "@wait" / "@aim" → that flag group (lib/cli/flag-groups.ts:
   * the wait conditions, set as the `wait` param when the method has one; the aim at a target);
   * "--name" → a flag of the CLI alone. */
  flags?: Record<string, CliParamFlag | CliOwnFlag | "">;
  /** Params that name a file on the caller's side, set by a word or flag: "path" is resolved
   * against the caller's cwd (the daemon's is another); "json" is read by the CLI (relative to
   * its cwd) and the param is the file's JSON. */
  files?: Record<string, "path" | "json">;
  /** Start the daemon when none runs (verbs that make sense on a fresh machine). */
  autoStart?: boolean;
};

/** The session a method reads: the named one, else the current one. */
export const target = { session: v.optional(SessionName) };
/** Input methods: refused (busy, exit 75) while another owner holds the session's write lease. */
export const writer = { session: v.optional(SessionName), lease: v.optional(LeaseToken) };
/** A screen cell, 0-based. */
export const cell = { row: doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "0-based row"), col: doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "0-based column") };
export const WaitSpec = v.strictObject(WaitConditions);
export const AfterWait = doc(WaitSpec, "after acting, wait for these conditions (screen conditions count only screens after the action)");
/** Input aimed at a node: click it first when the program takes mouse input; without mouse input
 * the node must be an input or focused, and the keys go there without a click. */
export const aimed = {
  to: v.optional(Target),
  revision: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "the revision the ref was issued at; default: the last outline issued")),
};
/** Browser results keep `ok: true`: the AWI-TTY document's calls of the same names read it. */
export const ok = { ok: v.literal(true), session: v.string() };
export const NavSettle = doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(60_000)), "after the engine has loaded the page and the screen shows it, also wait until the screen has been still this long (an animated page then times out); default: do not wait for stillness")
export const NavTimeout = doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000)), "give up after this long, in ms (navigation-timeout, exit 124)");
/** A page's title as the browser engine states it, or null with title_reason (a page without one). */
export const PageTitle = {
  title: v.nullable(v.string()),
  title_source: v.optional(doc(v.picklist(["engine"]), "where the title comes from: the browser engine (its history entry for the page)")),
  title_reason: v.optional(doc(v.string(), "why title is null")),
};
/** Carbonyl's screen stalled (the engine had the frame, the terminal did not show it) and was
 * recovered by a nudge of the size; or the browser was wedged (its engine answered nothing) or
 * crashed by itself (exit) and was started again, its history loaded again page by page (form input and scroll are lost); or
 * the page's renderer had crashed and a load (reload, navigate, back) started a new one; or a
 * load's screen showed nothing of it through the nudges and the page's renderer was restarted. */
export const Recovered = doc(v.union([
  v.object({
    stalledMs: doc(v.number(), "how long the screen lagged the engine before the recovery"),
    by: doc(v.literal("resize-nudge"), "the size was nudged (a column less and back), so Carbonyl drew the page again"),
    nudges: v.number(),
  }),
  v.object({
    stalledMs: doc(v.number(), "how long the engine had answered nothing (0 after a crash)"),
    by: doc(v.literal("browser-restart"), "the wedged browser was killed, or the crashed one (exit) found dead, and started again; the call then ran on the new one"),
    url: doc(v.string(), "the page it was started at"),
    history: doc(v.number(), "history entries loaded again"),
    exit: v.optional(doc(ExitStatus, "a browser that crashed by itself: how it ended (Carbonyl's exit 127: its Chromium died of a signal)")),
    why: v.optional(doc(v.string(), "a browser that crashed by itself: its exit, said")),
  }),
  v.object({
    stalledMs: doc(v.number(), "how long the page's renderer had been crashed"),
    by: doc(v.literal("new-renderer"), "the page's renderer had crashed (meta.crashed); this load started a new one"),
    crashed: doc(v.string(), "the engine's word on the crash"),
  }),
  v.object({
    stalledMs: doc(v.number(), "how long the screen lagged the engine, the restart included"),
    by: doc(v.literal("renderer-restart"), "a load's screen showed nothing of the page through the nudges (Carbonyl missed hooking its new renderer to the terminal): the renderer was ended and the same history entry reloaded in a new one, which drew it; history is unchanged"),
    nudges: doc(v.number(), "nudges of the size tried before"),
  }),
]), "browser sessions: a stall or crash found and recovered during this call");
export const Navigated = v.object({ ...ok, url: v.string(), ...PageTitle, revision: Revision, recovered: v.optional(Recovered) });
export const NavState = { can_go_back: v.boolean(), can_go_forward: v.boolean() };
