// Behavioural evidence for the generic layer. Looks alone never make a selection: a highlighted
// row may be a title, a status bar or a drop shadow. But when this session sent one navigation
// key (Down, Up, Left, Right, Tab, Shift-Tab) and, in one container, exactly one highlight moved
// the way that key moves — one group of one look gone from where it was and the same look drawn
// where the key points, every other highlight unchanged — that highlight is the container's
// current item, and the claim cites the key and the revision it was seen at. The claim holds
// while that container's highlights stay as they were; any other change drops it.
//
// Live sessions and replays share this: a session reports the input it sent and each screen
// change; a replay reports the cast's `i` events and each output event, so evidence survives
// into CI.
import type { Grid } from "../terminal/grid.ts";
import { highlightedRuns } from "./generic.ts";
import { groupsOf, layoutOf, runsSignature, type ContainerRuns, type Group, type HighlightRun, type SelectionClaim } from "./highlight-groups.ts";

/** How long after the key a move still counts as its effect (a loaded machine is slow). */
const EFFECT_WINDOW_MS = 5000;

type Direction = (from: HighlightRun, to: HighlightRun) => boolean;

const KEYS: Record<string, { name: string; moved: Direction }> = {
  "\x1b[B": { name: "Down", moved: (from, to) => to.row > from.row },
  "\x1bOB": { name: "Down", moved: (from, to) => to.row > from.row },
  "\x1b[A": { name: "Up", moved: (from, to) => to.row < from.row },
  "\x1bOA": { name: "Up", moved: (from, to) => to.row < from.row },
  "\x1b[C": { name: "Right", moved: (from, to) => to.row === from.row && to.col > from.col },
  "\x1bOC": { name: "Right", moved: (from, to) => to.row === from.row && to.col > from.col },
  "\x1b[D": { name: "Left", moved: (from, to) => to.row === from.row && to.col < from.col },
  "\x1bOD": { name: "Left", moved: (from, to) => to.row === from.row && to.col < from.col },
  "\t": { name: "Tab", moved: () => true },
  "\x1b[Z": { name: "Shift-Tab", moved: () => true },
};

/** The navigation key `input` is, when it is exactly one of them. */
export function navigationKey(input: string): { name: string; moved: Direction } | null {
  return KEYS[input] ?? null;
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
  if (!moved(asRun(from), asRun(to))) return { outcome: "other" };
  return { outcome: "moved", container: now, from, to };
}

export class SelectionByBehaviour {
  #pending: Pending | null = null;
  #claim: SelectionClaim | null = null;
  /** Bumped whenever the claim changes (outline caches key on it). */
  generation = 0;

  /** Input this session sent, with the screen as it was just before. */
  sent(input: string, grid: Grid, at: number): void {
    const key = navigationKey(input);
    this.#pending = key ? { key: key.name, moved: key.moved, before: highlightedRuns(grid), at } : null;
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
