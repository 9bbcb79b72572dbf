// Behavioural evidence for the generic layer. Looks alone never make a selection: a highlighted
// row may be a title, a status bar or a drop shadow. But when this session sent a navigation
// key (Down, Up, Left, Right, Tab, Shift-Tab) and, in one container, exactly one highlight moved
// the way that key moves — one group of one look gone from where it was and the same look drawn
// where the key points, every other highlight unchanged — that highlight is the container's
// current item, and the claim cites the key and the revision it was seen at. The claim holds
// while that container's highlights stay as they were; any other change drops it.
//
// One input may repeat one key (`press Down Down` is one write). Repeated Up/Down count: the
// highlight must have moved by exactly that many rows. A single key is proven by the direction
// alone (a list may skip a separator row), but for N presses "moved some rows that way" also
// fits a press that was lost, a scroll at the list's edge or a wrap-around — cases where the
// drawn highlight might still be the current item, but nothing on screen shows it; exactly N
// rows is what one-row items stepped N times draw, and what every repeated press in the corpus
// (fzf Up Up, mc Down Down) drew. A program that draws after each press shows the steps on
// the way; a move that way by fewer rows is waited past, like a half-drawn redraw. Columns say
// nothing about how many items a Left/Right passed, and Tab may wrap, so repeated Left/Right
// need only the direction and repeated Tab only the move, as one press does.
//
// Live sessions and replays share this: a session reports the input it sent and each screen
// change; a replay reports the cast's `i` events and each output event, so evidence survives
// into CI.
import type { Grid } from "../terminal/grid.ts";
import { highlightedRuns } from "./generic.ts";
import { groupsOf, layoutOf, runsSignature, type ContainerRuns, type Group, type HighlightRun, type SelectionClaim } from "./highlight-groups.ts";

/** How long after the key a move still counts as its effect (a loaded machine is slow). */
const EFFECT_WINDOW_MS = 5000;

/** Whether a highlight's move from `from` to `to` is the key's effect: all of it, part of the
 * way there (presses still to be drawn), or not its effect. */
export type Step = "moved" | "partway" | "no";
type Direction = (from: HighlightRun, to: HighlightRun) => Step;

type Axis = "down" | "up" | "right" | "left" | "any";
const KEYS: Record<string, { name: string; axis: Axis }> = {
  "\x1b[B": { name: "Down", axis: "down" },
  "\x1bOB": { name: "Down", axis: "down" },
  "\x1b[A": { name: "Up", axis: "up" },
  "\x1bOA": { name: "Up", axis: "up" },
  "\x1b[C": { name: "Right", axis: "right" },
  "\x1bOC": { name: "Right", axis: "right" },
  "\x1b[D": { name: "Left", axis: "left" },
  "\x1bOD": { name: "Left", axis: "left" },
  "\t": { name: "Tab", axis: "any" },
  "\x1b[Z": { name: "Shift-Tab", axis: "any" },
};

function direction(axis: Axis, presses: number): Direction {
  const rows = (rowsMoved: number): Step => (presses === 1 ? (rowsMoved > 0 ? "moved" : "no") : rowsMoved === presses ? "moved" : rowsMoved > 0 && rowsMoved < presses ? "partway" : "no");
  switch (axis) {
    case "down": return (from, to) => rows(to.row - from.row);
    case "up": return (from, to) => rows(from.row - to.row);
    case "right": return (from, to) => (to.row === from.row && to.col > from.col ? "moved" : "no");
    case "left": return (from, to) => (to.row === from.row && to.col < from.col ? "moved" : "no");
    case "any": return () => "moved";
  }
}

/** The navigation key `input` is, pressed once or repeated (`Down Down` sent as one write);
 * null for anything else, a mix of keys included. */
export function navigationKey(input: string): { name: string; presses: number; moved: Direction } | null {
  for (const [sequence, key] of Object.entries(KEYS)) {
    if (!input.startsWith(sequence) || input.length % sequence.length !== 0) continue;
    const presses = input.length / sequence.length;
    if (input !== sequence.repeat(presses)) return null;
    return { name: Array(presses).fill(key.name).join(" "), presses, moved: direction(key.axis, presses) };
  }
  return null;
}

type Pending = { key: string; moved: Direction; before: ContainerRuns[]; at: number };

export type Outcome = "moved" | "unchanged" | "partial" | "other";

/** What a key's effect was, comparing the highlights before and after (pure, for tests). */
export function compare(before: ContainerRuns[], after: ContainerRuns[], moved: Direction): { outcome: Outcome; container?: ContainerRuns; from?: Group; to?: Group } {
  const boxKey = (c: ContainerRuns) => `${c.box.row},${c.box.col},${c.box.rows},${c.box.cols}`;
  const was = new Map(before.map((c) => [boxKey(c), c]));
  if (before.length !== after.length || after.some((c) => !was.has(boxKey(c)))) return { outcome: "other" };
  const changed = after.filter((c) => runsSignature(c.runs) !== runsSignature(was.get(boxKey(c))!.runs));
  if (changed.length === 0) return { outcome: "unchanged" };
  if (changed.length > 1) return { outcome: "other" };
  const now = changed[0]!;
  const then = groupsOf(was.get(boxKey(now))!.runs);
  const next = groupsOf(now.runs);
  const gone = [...then.values()].filter((g) => !next.has(g.id));
  const drawn = [...next.values()].filter((g) => !then.has(g.id));
  // Mid-redraw: the old highlight erased and the new one not drawn yet, or the other way round.
  if (gone.length + drawn.length === 1) return { outcome: "partial" };
  if (gone.length !== 1 || drawn.length !== 1 || gone[0]!.look !== drawn[0]!.look) return { outcome: "other" };
  const from = gone[0]!;
  const to = drawn[0]!;
  const asRun = (g: Group): HighlightRun => ({ row: g.row, col: g.col, cols: 0, look: g.look, text: "" });
  const step = moved(asRun(from), asRun(to));
  if (step === "partway") return { outcome: "partial" };
  if (step === "no") return { outcome: "other" };
  return { outcome: "moved", container: now, from, to };
}

export class SelectionByBehaviour {
  #pending: Pending | null = null;
  #claim: SelectionClaim | null = null;
  /** Bumped whenever the claim changes (outline caches key on it). */
  generation = 0;

  /** Input this session sent, with the screen as it was just before: read only for a
   * navigation key (reading a 140x45 grid on every typed character cost ~0.15 ms of each key). */
  sent(input: string, grid: () => Grid, at: number): void {
    const key = navigationKey(input);
    this.#pending = key ? { key: key.name, moved: key.moved, before: highlightedRuns(grid()), at } : null;
  }

  /** Whether a key waits for its effect (a replay then looks at every output event). */
  get waiting(): boolean {
    return this.#pending !== null;
  }

  /** The screen changed (the caller synced it); `revision` names the new state. */
  changed(grid: Grid, revision: number, at: number): void {
    const pending = this.#pending;
    if (!pending) return;
    if (at - pending.at > EFFECT_WINDOW_MS) { this.#pending = null; return; }
    const result = compare(pending.before, highlightedRuns(grid), pending.moved);
    if (result.outcome === "unchanged" || result.outcome === "partial") return;
    this.#pending = null;
    if (result.outcome === "other") return;
    const { container, from, to } = result;
    this.#claim = {
      container: container!.box,
      groupId: to!.id,
      layout: layoutOf(groupsOf(container!.runs)),
      evidence: { source: "behaviour", key: pending.key, fromRow: from!.row, toRow: to!.row, revision },
    };
    this.generation++;
  }

  /** The selection proven so far (the outline checks it still holds). */
  get claim(): SelectionClaim | null {
    return this.#claim;
  }
}
