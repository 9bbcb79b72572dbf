// Shared value schemas used by several methods in methods.ts.
import * as v from "valibot";
import { MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS } from "./size-limits.ts";

export const doc = <T extends v.GenericSchema>(schema: T, text: string) => v.pipe(schema, v.description(text));

export const SessionName = doc(
  v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "a session name is 1-64 letters, digits, '_', '.' or '-'")),
  "session name; default: the most recently used session",
);
export const Cols = v.pipe(v.number(), v.integer(), v.minValue(MIN_COLS), v.maxValue(MAX_COLS));
export const Rows = v.pipe(v.number(), v.integer(), v.minValue(MIN_ROWS), v.maxValue(MAX_ROWS));
export const Revision = doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "screen revision: bumped when the screen, cursor or title changes");
export const Hash = doc(v.string(), "hash of the visible screen (text, attributes, cursor, title)");

export const ExitStatus = v.object({
  code: v.nullable(v.number()),
  signal: v.nullable(v.string()),
});

export const Cursor = v.object({
  row: v.number(), col: v.number(), visible: v.boolean(),
  x: v.optional(doc(v.number(), "browser sessions, AWI-TTY's name: col")),
  y: v.optional(doc(v.number(), "browser sessions, AWI-TTY's name: row")),
});

export const SessionInfo = v.object({
  name: v.string(),
  pid: v.number(),
  argv: v.array(v.string()),
  cwd: v.string(),
  cols: v.number(),
  rows: v.number(),
  state: v.picklist(["running", "exited", "crashed"]),
  exit: v.nullable(ExitStatus),
  startedAt: v.string(),
  revision: v.number(),
  title: v.string(),
  cast: doc(v.nullable(v.string()), "the asciicast v3 recording, or null with --no-record"),
  kind: doc(v.picklist(["program", "shell", "browser"]), "browser: Carbonyl (navigate, get url…); shell: command blocks (exec)"),
});

/** How spawn knew the program was ready for input. */
export const FirstScreen = v.object({
  drew: doc(v.boolean(), "the program drew something before spawn returned"),
  waitingForInput: doc(v.boolean(), "its foreground process was blocked reading the terminal"),
  idle: doc(v.boolean(), "it drew nothing and was in a timed sleep (nanosleep) for 300 ms"),
  timedOut: doc(v.boolean(), "none of these happened within the bound (3 s): spawn returned anyway"),
  ms: v.number(),
});

export const LostSession = v.object({
  name: v.string(),
  pid: v.number(),
  argv: v.array(v.string()),
  cast: v.nullable(v.string()),
  startedAt: v.string(),
  killed: doc(v.boolean(), "its program was still running (it ignored SIGHUP) and was killed"),
});

export const Meta = v.object({
  cols: v.number(),
  rows: v.number(),
  cursor: Cursor,
  title: v.string(),
  cwd: v.nullable(v.string()),
  altScreen: v.boolean(),
  revision: v.number(),
  hash: v.string(),
  exit: v.nullable(ExitStatus),
  lastOutputAgeMs: v.nullable(v.number()),
  modes: v.object({
    applicationCursorKeys: v.boolean(),
    bracketedPaste: v.boolean(),
    mouseTracking: v.string(),
  }),
  droppedBytes: doc(v.number(), "output dropped because the program ignores flow control (IXON off) and the backlog hit its cap"),
  flowPauses: doc(v.number(), "times output was paused with XOFF because parsing fell behind"),
  recording: v.nullable(v.object({
    path: v.string(),
    error: v.nullable(v.string()),
    bytes: doc(v.number(), "bytes written to the recording so far"),
    maxBytes: doc(v.nullable(v.number()), "its size cap (null: none); set with max_cast_bytes, $TUIWRIGHT_MAX_CAST_BYTES or daemon run --max-cast-bytes"),
    full: doc(v.boolean(), "the cap was reached: output and input after it are not recorded (a marker and a visible line in the cast say where)"),
  })),
  foreground: v.optional(doc(v.nullable(v.object({ pid: v.number(), argv0: v.string() })), "the terminal's foreground process group leader (a running command, or the shell itself at its prompt); null once unknown")),
  transcript: v.optional(doc(v.object({ path: v.string(), error: v.nullable(v.string()) }), "shell sessions: the transcript directory, and why writing it stopped (the session carries on)")),
  url: v.optional(doc(v.string(), "browser sessions: the page's URL, from the browser engine")),
  nav: v.optional(doc(v.object({ can_go_back: v.boolean(), can_go_forward: v.boolean() }), "browser sessions: whether back and forward can be used (the engine's history)")),
  // AWI-TTY's meta names, beside ours (browser sessions).
  dpi: v.optional(doc(v.nullable(v.number()), "browser sessions: the engine's device pixel ratio (device pixels per CSS pixel); null until the engine has answered (see dpi_reason)")),
  scale: v.optional(doc(v.nullable(v.object({ width: v.number(), height: v.number() })), "browser sessions: CSS pixels per terminal cell (Carbonyl draws a 2×4 quadrant of device pixels per cell)")),
  dpi_reason: v.optional(v.string()),
  title_reason: v.optional(doc(v.string(), "browser sessions: title is \"\" because the page has none, or the browser has exited; why")),
  crashed: v.optional(doc(v.string(), "browser sessions: the page's renderer crashed (reload or navigate to recover)")),
  dialog: v.optional(doc(v.object({ type: v.string(), message: v.string() }), "browser sessions: a JavaScript dialog the page opened")),
});

export const CellRun = v.object({
  col: v.number(),
  text: v.string(),
  width: v.number(),
  fg: v.optional(v.union([v.number(), v.string()])),
  bg: v.optional(v.union([v.number(), v.string()])),
  bold: v.optional(v.boolean()),
  dim: v.optional(v.boolean()),
  italic: v.optional(v.boolean()),
  underline: v.optional(v.boolean()),
  inverse: v.optional(v.boolean()),
  strikethrough: v.optional(v.boolean()),
});

export const SnapshotFormat = v.picklist(["text", "ansi", "cells", "outline", "svg", "png"]);

export const BBox = v.object({ row: v.number(), col: v.number(), rows: v.number(), cols: v.number() });

/** Why a semantic fact on a node is stated (lib/outline/types.ts explains each source). */
export const Evidence = v.variant("source", [
  v.object({ source: v.literal("manifest"), adapter: v.string(), rule: v.string(), cells: doc(v.optional(BBox), "the cells the rule matched; left out on a node when they are the node's own bbox"), revision: v.number() }),
  v.object({ source: v.literal("escape"), sequence: v.string(), revision: v.number() }),
  v.object({ source: v.literal("process"), fact: v.string(), revision: v.number() }),
  v.object({ source: v.literal("engine"), method: v.string(), detail: v.optional(v.string()), revision: v.number() }),
  v.object({ source: v.literal("behaviour"), key: v.string(), fromRow: v.number(), toRow: v.number(), revision: v.number() }),
  v.object({ source: v.literal("turn"), turn: v.number(), submitted: v.number(), taken: v.nullable(v.number()), fact: v.string(), revision: v.number(), complete: v.optional(v.boolean()), transcript: v.optional(v.string()) }),
]);

export type OutlineNodeShape = {
  ref: string; role: string; name: string; value?: string; focused?: boolean; selected?: boolean; attrs?: string[]; key?: string;
  bbox: { row: number; col: number; rows: number; cols: number }; evidence?: v.InferOutput<typeof Evidence>[]; children?: OutlineNodeShape[];
};

/** A node of the terminal DOM. Positional refs (@e4) are bound to the revision they were
 * issued at; durable refs (@vim.mode) come from a manifest and resolve on the current screen. */
export const OutlineNode: v.GenericSchema<OutlineNodeShape> = v.object({
  ref: v.string(),
  role: v.string(),
  name: v.string(),
  value: v.optional(v.string()),
  focused: v.optional(v.boolean()),
  selected: v.optional(v.boolean()),
  attrs: doc(v.optional(v.array(v.string())), "how a highlighted run is drawn (inverse, bg=4, bold): a visible fact"),
  key: v.optional(v.string()),
  bbox: BBox,
  evidence: doc(v.optional(v.array(Evidence)), "what the node's semantic facts (selected, focused, input, value) rest on: a manifest rule and its cells, an escape sequence, a process fact, the browser engine, or a key this session sent; a semantic fact without evidence is not stated"),
  children: v.optional(v.array(v.lazy(() => OutlineNode))),
});

export const Outline = v.object({
  adapter: doc(v.nullable(v.string()), "the manifest that shaped the outline; null for the generic one"),
  nodes: v.array(OutlineNode),
});

export const Target = doc(
  v.pipe(v.string(), v.minLength(1)),
  "a ref (@e4 from a snapshot, or a durable @vim.mode) or a selector that matches exactly one node",
);

/** A chat program's turn (an AI coding CLI with a turns manifest: lib/adapters/turns.ts). */
export const TURN_STATES = ["submitted", "running", "approval", "question", "done", "error", "interrupted", "denied"] as const;
export const TurnStateName = doc(v.picklist(TURN_STATES), "submitted (sent, not yet taken), running, approval or question (waiting for you), done, error, interrupted, denied (ended)");
export const TurnInfo = v.object({
  id: doc(v.number(), "the turn's number in this session (1, 2, …)"),
  prompt: doc(v.string(), "the prompt as submitted"),
  state: TurnStateName,
  submitted: doc(v.number(), "the screen revision the prompt was sent at"),
  taken: doc(v.nullable(v.number()), "the revision at which the CLI showed it took the prompt (null: not yet)"),
  takenBy: doc(v.nullable(v.string()), "what showed it took the prompt (its busy mark appeared, or the prompt left its input)"),
  changed: doc(v.number(), "the revision of the last state change"),
  ref: doc(v.nullable(v.string()), "the region that shows the state (@claude.done, @codex.approval …); null while submitted or running without a busy mark"),
});

const Timeout = doc(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 3600_000)), "give up after this long, in ms (timeout, exit 124); 0 checks once");

/** Wait conditions; each is one small predicate over the screen and session events. */
export const WaitConditions = {
  text: v.optional(doc(v.array(v.pipe(v.string(), v.minLength(1))), "literal text on the visible screen")),
  regex: v.optional(doc(v.array(v.string()), "regex in JavaScript syntax, SOURCE or /SOURCE/FLAGS, over the screen rows joined by \\n; matched by RE2 in linear time, so lookaround and backreferences are refused")),
  gone: v.optional(doc(v.boolean(), "text/regex conditions hold when the text is NOT on screen")),
  inScrollback: v.optional(doc(v.boolean(), "match text/regex against scrollback too")),
  settledMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2 ** 31 - 1, "settledMs must be at most 2147483647 ms (the timer limit)")), "the screen has not changed for this long, measured from its last change (or from the last input this session sent, if later: its echo may be on the way)")),
  changedSince: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "the revision moved past this one")),
  title: v.optional(doc(v.string(), "title contains STR, or matches /RE/FLAGS")),
  cursor: v.optional(doc(v.object({ row: doc(v.number(), "0-based row"), col: doc(v.number(), "0-based column") }), "the cursor is at this cell")),
  altScreen: v.optional(doc(v.boolean(), "the alternate screen is on (true) or off (false)")),
  exit: v.optional(doc(v.boolean(), "the program has exited")),
  ref: v.optional(doc(v.string(), "a selector: some node matches (with gone: none does)")),
  output: v.optional(doc(v.string(), "shell sessions: the output stream from `fromCursor` contains STR or matches /RE/; PROMPT = a block ended; EOF = the program exited")),
  fromCursor: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "where in the output stream the output condition starts looking (default 0)")),
  maxBytes: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1)), "the output condition looks at most this many characters past fromCursor")),
  refValue: v.optional(doc(v.string(), "with ref: a matching node's value equals this, or matches /RE/")),
  turn: v.optional(doc(v.union([v.pipe(v.number(), v.integer(), v.minValue(1)), v.literal("last")]), "AI coding CLIs: this turn (its id, or last: the latest; after an action: the turn the action opened) reaches one of turnState")),
  turnState: v.optional(doc(v.pipe(v.array(TurnStateName), v.minLength(1, "name at least one turn state")), "with turn: the states that end the wait (default: done, error, interrupted, denied, approval, question — the turn needs you)")),
  mode: v.optional(doc(v.picklist(["any", "all"]), "any condition (default) or all of them"), "any"),
  timeoutMs: v.optional(Timeout, 10_000),
};

export const WaitResult = v.object({
  fired: doc(v.array(v.string()), "the conditions that held"),
  output: v.optional(doc(v.object({ matched: v.boolean(), matchText: v.string(), cursor: v.number() }), "for output conditions: the match, and the cursor just past it")),
  revision: Revision,
  hash: Hash,
  elapsedMs: v.number(),
  exit: v.nullable(ExitStatus),
  text: v.optional(v.string()),
  turn: v.optional(doc(TurnInfo, "turn conditions: the turn as it stood when the wait ended")),
});

export const ActionResult = v.object({
  session: v.string(),
  target: v.optional(doc(v.object({
    ref: v.string(), row: v.number(), col: v.number(),
    via: v.optional(doc(v.picklist(["click", "focus"]), "--to: clicked first (the program takes mouse input), or typed into the node that already had the focus")),
  }), "where a click or --to landed")),
  controlsRemoved: v.optional(doc(v.number(), "a paste: the control characters it left out")),
  bracketed: v.optional(doc(v.boolean(), "a paste: whether it went as a bracketed paste (the program had turned bracketed paste on)")),
  bytes: doc(v.number(), "bytes written to the program (a browser: of the text typed)"),
  ok: v.optional(doc(v.literal(true), "browser sessions: the engine took the input (its input events were acknowledged)")),
  navigated: v.optional(doc(v.object({ url: v.string(), title: v.nullable(v.string()) }), "browser sessions: the input began a navigation (a link, a form); the call returned once the engine loaded the new page and the screen showed it")),
  recovered: v.optional(doc(v.object({ stalledMs: v.number(), by: v.string(), nudges: v.optional(v.number()), url: v.optional(v.string()), history: v.optional(v.number()), exit: v.optional(ExitStatus), why: v.optional(v.string()) }), "browser sessions: a stall found and recovered during this call (by resize-nudge: Carbonyl drew again; by renderer-restart: the page was reloaded in a new renderer, history unchanged; by browser-restart: the wedged or crashed (exit) browser was started again at url)")),
  dialog: v.optional(doc(v.object({ type: v.string(), message: v.string(), state: v.picklist(["open", "accepted", "dismissed"]) }), "browser sessions: a JavaScript dialog (alert, confirm, prompt, beforeunload) this input opened (open: the page is held until Enter accepts or Escape dismisses it), or answered")),
  revisionBefore: Revision,
  revisionAfter: doc(v.number(), "revision after the action (after its wait, if one was given)"),
  wait: v.optional(WaitResult),
});

export const EventType = v.picklist(["screen", "title", "bell", "exit", "resize", "lease"]);

/** Sent as JSON-RPC notifications `{"method": "event", "params": Event}` to subscribers:
 * signals, not screen data — pull a snapshot when you want one. */
export const Event = v.object({
  subscription: v.string(),
  type: EventType,
  session: v.string(),
  revision: Revision,
  hash: Hash,
  at: doc(v.string(), "ISO time the event happened"),
  title: v.optional(v.string()),
  exit: v.optional(v.nullable(ExitStatus)),
  cols: v.optional(v.number()),
  rows: v.optional(v.number()),
  coalesced: v.optional(doc(v.number(), "screen events folded into this one by debouncing")),
  dropped: v.optional(doc(v.number(), "events of this subscription dropped before this one because the connection was not reading (its output limit was reached)")),
  owner: v.optional(doc(v.nullable(v.string()), "lease events: the new holder, null when the lease was released, lost or expired")),
});

export const LeaseToken = doc(v.pipe(v.string(), v.minLength(1)), "the write lease's token, when the session is leased to you");

export const Lease = v.object({
  session: v.string(),
  owner: v.string(),
  token: v.string(),
  expiresAt: doc(v.nullable(v.string()), "null: the lease lives as long as the connection that took it"),
});

export const ShellMode = v.picklist(["starting", "idle", "block_running", "interactive", "continuation", "exited"]);

export const BlockResult = v.object({
  session: v.string(),
  block: v.number(),
  seq: v.number(),
  command: v.string(),
  exitCode: v.nullable(v.number()),
  output: doc(v.string(), "the block's output: the normalised stream (ANSI stripped, CRLF → LF) between its start and end"),
  outputTruncated: v.boolean(),
  outputChars: doc(v.number(), "the output's length in UTF-8 bytes (the unit of cursors)"),
  startedAt: v.string(),
  endedAt: v.nullable(v.string()),
  cwd: v.nullable(v.string()),
  cursor: doc(v.number(), "the output cursor at the block's end"),
  reason: v.optional(doc(v.picklist(["shell-exited", "reset", "cancelled"]), "why the block ended without its shell's end mark")),
  integration: v.optional(doc(v.literal(false), "present when the shell has no integration: output read from the screen, no exit code")),
});
