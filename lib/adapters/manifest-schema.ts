// The manifest format (adapters/*.toml), validated with valibot. A manifest teaches tuiwright
// one program: how to recognise it, its regions, their values, items and focus.
import * as v from "valibot";
import { OperationsTable } from "./manifest-operations.ts";

function regexProblem(text: string): string | null {
  const slashed = /^\/(.*)\/([dgimsuvy]*)$/s.exec(text);
  try {
    new RegExp(slashed ? slashed[1]! : text, slashed ? slashed[2]! : "");
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const Regex = v.pipe(
  v.string(),
  v.check((text) => regexProblem(text) === null, (issue) => `invalid regex ${JSON.stringify(issue.input)}: ${regexProblem(String(issue.input))}`),
);

const ROW_WORDS = ["last-non-empty", "cursor", "above-cursor"];
const ROWS_MESSAGE = `rows must be N, "A..B", [A, B] (negative counts from the bottom) or one of ${ROW_WORDS.map((w) => `"${w}"`).join(", ")}`;
const COLS_MESSAGE = 'cols must be N, "A..B" or [A, B] (negative counts from the right)';
const Int = v.pipe(v.number(), v.integer());
const RowSpec = v.union(
  [Int, v.pipe(v.string(), v.regex(/^(-?\d+(\.\.-?\d+)?|last-non-empty|cursor|above-cursor)$/, ROWS_MESSAGE)), v.tuple([Int, Int], ROWS_MESSAGE)],
  ROWS_MESSAGE,
);
const ColSpec = v.union([Int, v.pipe(v.string(), v.regex(/^-?\d+(\.\.-?\d+)?$/, COLS_MESSAGE)), v.tuple([Int, Int], COLS_MESSAGE)], COLS_MESSAGE);

export const COLOUR_NAMES = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];
const COLOUR_MESSAGE = `a colour is 0-255, #rrggbb, or ${COLOUR_NAMES.join(", ")} (optionally bright-…)`;
const Colour = v.union(
  [
    v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255)),
    v.pipe(v.string(), v.regex(new RegExp(`^(bright-)?(${COLOUR_NAMES.join("|")})$|^#[0-9a-fA-F]{6}$`), COLOUR_MESSAGE)),
  ],
  COLOUR_MESSAGE,
);

const Attributes = {
  inverse: v.optional(v.boolean()),
  bold: v.optional(v.boolean()),
  dim: v.optional(v.boolean()),
  strikethrough: v.optional(v.boolean()),
  fg: v.optional(Colour),
  bg: v.optional(Colour),
};

const Ident = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_-]*$/, "use lower-case letters, digits, '_' and '-', starting with a letter"));

export const REGION_FACTS = ["shell-foreground", "turn"] as const;

export const Region = v.strictObject({
  name: Ident,
  role: v.optional(v.string(), "region"),
  rows: v.optional(RowSpec, "0..-1"),
  cols: v.optional(ColSpec),
  from: v.optional(Regex),
  after: v.optional(Regex),
  to: v.optional(Regex),
  until: v.optional(Regex),
  to_attrs: v.optional(v.strictObject(Attributes)),
  /** The region starts below the last row mostly in these attributes (a chat's last user message). */
  after_attrs: v.optional(v.strictObject(Attributes)),
  /** Anchors from the bottom: to/until on their last match, then from/after on their last match above it. */
  last: v.optional(v.boolean()),
  /** The region is absent while this regex matches any row of its rows (a spinner: not done yet);
   * rows of a turn's scrollback above the screen do not count (a frame left over, not a state). */
  unless: v.optional(Regex),
  /** The region is absent unless this regex matches one of its own rows (an end-of-turn line). */
  requires: v.optional(Regex),
  /** The region is absent while this regex matches one of its own rows (a turn that ended in an
   * error is not done). `unless` looks at all of `rows` before the anchors; this at the region. */
  unless_within: v.optional(Regex),
  /** The region is absent while a row of its rows is mostly in these attributes (an anchor
   * such as a chat's last prompt is on screen: the anchored alternative applies instead). */
  unless_attrs: v.optional(v.strictObject(Attributes)),
  /** This alternative is the region scrolled past the top of the screen: its start is not on
   * screen, so its text is partial (an answer taller than a CLI's alternate screen). */
  scrolled: v.optional(v.boolean()),
  needs_cursor: v.optional(v.boolean()),
  /** The region exists only while the terminal is (true) or is not (false) on its alternate
   * screen: a line-based program's cursor row is where typed text lands only on the main screen
   * (on the alternate one a full-screen program it started owns the keys). */
  alt_screen: v.optional(v.boolean()),
  ...Attributes,
  items: v.optional(v.union([v.literal("row"), v.literal("runs"), v.pipe(Regex, v.regex(/^\/.*\/[a-z]*$/s))], 'items is "row", "runs" (runs of text in one style) or a /regex/ whose matches become items')),
  item_role: v.optional(v.string()),
  /** Per-item roles by style, first match wins (e.g. a browser's link colour → "link"). */
  item_roles: v.optional(v.array(v.strictObject({ role: v.string(), ...Attributes }))),
  selected: v.optional(v.strictObject(Attributes)),
  /** Which item has the keys: "cursor" = the one the (shown) cursor is in, or the one mostly in
   * these attributes (a widget the program draws focused, e.g. newt's red). */
  focus_item: v.optional(v.union([v.literal("cursor"), v.strictObject(Attributes)], 'focus_item is "cursor" or attributes ({ bg = "red" })')),
  /** Cells drawn like this are a placeholder (an empty input's dim hint), not the region's text:
   * they are left out of its name and value. */
  placeholder: v.optional(v.strictObject(Attributes)),
  /** A fact from the process, not the screen ("turn": this session sent the chat program a prompt): "shell-foreground" = the shell itself owns the
   * terminal and waits for a command (OSC 133 state, else the PTY's foreground group). */
  when: v.optional(v.picklist(REGION_FACTS, `when must be one of ${REGION_FACTS.map((f) => JSON.stringify(f)).join(", ")}`)),
  /** Items keyed by this regex's `key` group (or group 1) on the item's text, e.g. a PID: a
   * ref to a keyed item stays valid while an item with that key is on screen. */
  key: v.optional(Regex),
  /** The region is absent while the screen's text matches (a question or pager covers it). */
  unless_screen: v.optional(Regex),
  /** The region exists only while the screen's text matches (a menu that reshapes the screen). */
  when_screen: v.optional(Regex),
  /** Rows and columns count inside a window ([windows]): "current" = the current window's text,
   * "current-status" = the current window's status line, "single" = the screen while no window
   * has a status line (one window). Absent when that window is not on screen. */
  window: v.optional(v.picklist(["current", "current-status", "single"], 'window is "current", "current-status" or "single"')),
});

/** Split windows drawn with status lines (vim): a status row is a row (not the first or the last)
 * whose every cell looks like one of `status`; the current window's status line also has
 * `current`; `separator` is the column between side-by-side windows. */
export const Windows = v.strictObject({
  status: v.pipe(v.array(v.strictObject(Attributes)), v.minLength(1)),
  current: v.strictObject(Attributes),
  separator: v.optional(v.strictObject(Attributes)),
  /** The other windows become nodes @root.NAME.N (reading order): each its text and status line,
   * named by the status line, its text outlined by the generic rules. */
  others: v.optional(Ident),
});

export const Manifest = v.strictObject({
  name: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_-]*$/, "use lower-case letters, digits, '_' and '-'")),
  root: v.optional(Ident),
  description: v.optional(v.string()),
  /** The program version this manifest was built and recorded against (shown by `adapter list`). */
  tested: v.optional(v.string()),
  generic: v.optional(v.boolean(), false),
  /** A chat program: its regions named input, busy, response, done, error, interrupted, denied,
   * question and approval belong to turns (lib/adapters/turns.ts): Enter in the input opens one. */
  turns: v.optional(v.boolean(), false),
  /** A turns manifest's program writes its conversation to JSON-lines files: where (patterns
   * under the program's HOME `~/…` or `$VAR/…`, `*` one path component), which entries are
   * answers (dotted JSON path = value) and where their text is (lib/adapters/transcript.ts).
   * Read only to make an answer whose start scrolled off the screen whole, when it agrees. */
  transcript: v.optional(v.strictObject({
    files: v.pipe(v.array(v.pipe(v.string(), v.regex(/^(~|\$[A-Z_][A-Z0-9_]*)?\/[^\0]*$/, "a transcript path starts with ~/, $VAR/ or /"), v.check((p) => !p.split("/").some((part) => part === ".." || part === "."), "a transcript path has no . or .. components"))), v.minLength(1)),
    entry: v.record(v.string(), v.string()),
    text: v.pipe(v.string(), v.minLength(1)),
    /** The files are SQLite databases (opencode's): one SELECT, read-only, whose first column
     * is each entry's JSON, newest first; `$since` binds the session's start (epoch ms). */
    sqlite: v.optional(v.pipe(v.string(), v.regex(/^\s*(select|with)\b/i, "transcript.sqlite is one SELECT statement (read-only)"), v.check((q) => !q.replace(/'[^']*'/g, "").includes(";"), "transcript.sqlite is one statement: no ;"))),
  })),
  /** Characters that only carry colour (a terminal browser's half-block pixels): blanked in
   * text snapshots and outlines so the text between them reads as text. */
  pixels: v.optional(v.string(), ""),
  detect: v.optional(
    v.strictObject({
      argv0: v.optional(v.array(v.string())),
      argv: v.optional(v.array(v.string())),
      exclude: v.optional(v.array(v.string())),
      screen: v.optional(Regex),
      title: v.optional(Regex),
      alt_screen: v.optional(v.boolean()),
      confidence: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 0.5),
    }),
    {},
  ),
  /** Split panes found by the generic rules get durable refs @root.NAME.0, .1, … in reading order. */
  panes: v.optional(Ident),
  /** The program owns the whole terminal and reads every key itself (no panes of other
   * programs): its root node (@root) is focused whatever it shows. */
  focus_root: v.optional(v.boolean(), false),
  windows: v.optional(Windows),
  regions: v.optional(v.array(Region), []),
  values: v.optional(
    v.array(v.strictObject({
      region: Ident,
      regex: Regex,
      map: v.optional(v.record(v.string(), v.string())),
      default: v.optional(v.string()),
      /** The default when this ref has shown one of `seen` earlier in the session (else `default`). */
      default_once_seen: v.optional(v.strictObject({
        value: v.string(),
        seen: v.pipe(v.array(v.string()), v.minLength(1)),
        /** Input this session sends that may change what was seen (`:set noshowmode`): forget it. */
        forget_on_input: v.optional(Regex),
      })),
      /** Applies only while another region's text matches (vim's current window is a terminal). */
      when_region: v.optional(v.strictObject({ region: Ident, regex: Regex })),
      cursor_in: v.optional(v.boolean()),
      when_attrs: v.optional(v.strictObject(Attributes)),
    })),
    [],
  ),
  focus: v.optional(v.array(v.strictObject({
    region: Ident,
    when: v.union([v.picklist(["cursor", "always", "never", "attrs"]), Regex]),
    /** With when = "attrs": focused while a cell in the region has these attributes (a drawn cursor). */
    attrs: v.optional(v.strictObject(Attributes)),
  })), []),
  /** What an agent can do to the program (AOTUI operations; lib/adapters/manifest-operations.ts). */
  operations: OperationsTable,
});

export type ManifestData = v.InferOutput<typeof Manifest>;
export type RegionData = v.InferOutput<typeof Region>;
