// The terminal DOM: nodes with refs, roles, names and boxes.

export type BBox = { row: number; col: number; rows: number; cols: number };

/**
 * Why a semantic fact on a node (selected, focused, an input, a manifest value such as
 * `@vim.mode`, an operation's outcome) is stated. The generic layer states visible facts only
 * (text, frames, highlighted runs, the cursor's cell); a semantic fact without evidence is not
 * stated at all. `revision` is the screen revision the evidence was observed at.
 */
export type Evidence =
  /** A manifest rule matched these cells. On a node, `cells` is left out when they are the
   * node's own box (most are): the entry is then shared by every node the rule produced. */
  | { source: "manifest"; adapter: string; rule: string; cells?: BBox; revision: number }
  /** An escape sequence the program wrote (e.g. "OSC 133;B", "OSC 7"). */
  | { source: "escape"; sequence: string; revision: number }
  /** A fact about the session's processes (e.g. "foreground process group is the shell, pid 123"). */
  | { source: "process"; fact: string; revision: number }
  /** The browser engine over CDP (method or event that said so). */
  | { source: "engine"; method: string; detail?: string; revision: number }
  /** Behaviour this session caused: it sent `key` and one highlighted run moved from one row to another. */
  | { source: "behaviour"; key: string; fromRow: number; toRow: number; revision: number }
  /** A chat program's turn (lib/adapters/turns.ts): the node was drawn after turn `turn` was sent
   * (revision `submitted`) and taken by the program (revision `taken`, null: not yet). On the
   * response, `complete`: the answer is whole (the turn is done and the answer's start is read,
   * from the screen or its scrollback) or not (still running, ended otherwise, its start
   * scrolled out of a screen that keeps no scrollback, or the terminal was resized while it was
   * drawn). `transcript`: the program's own
   * transcript file whose latest answer agreed with the screen and made the answer whole. */
  | { source: "turn"; turn: number; submitted: number; taken: number | null; fact: string; revision: number; complete?: boolean; transcript?: string };

export type OutlineNode = {
  ref: string;
  role: string;
  name: string;
  value?: string;
  focused?: boolean;
  selected?: boolean;
  /** How a highlighted run is drawn ("inverse", "bg=4", "bold"): a visible fact. */
  attrs?: string[];
  /** A keyed item's key (a PID, a commit hash): its ref follows the key, not the row. */
  key?: string;
  bbox: BBox;
  /** What the node's semantic facts rest on (absent on nodes that state only visible facts). */
  evidence?: Evidence[];
  children?: OutlineNode[];
};

export type Outline = {
  revision: number;
  hash: string;
  /** The manifest that shaped it, or null for the generic outline. */
  adapter: string | null;
  nodes: OutlineNode[];
};

/** Every node, parents before children, in reading order. */
export function* walk(nodes: OutlineNode[]): Generator<OutlineNode> {
  for (const node of nodes) {
    yield node;
    if (node.children) yield* walk(node.children);
  }
}

export function contains(outer: BBox, inner: BBox): boolean {
  return inner.row >= outer.row && inner.col >= outer.col &&
    inner.row + inner.rows <= outer.row + outer.rows && inner.col + inner.cols <= outer.col + outer.cols;
}

export function sameTarget(a: OutlineNode, b: OutlineNode): boolean {
  return a.role === b.role && a.name === b.name && a.bbox.row === b.bbox.row && a.bbox.col === b.bbox.col &&
    a.bbox.rows === b.bbox.rows && a.bbox.cols === b.bbox.cols;
}

/** The nodes that are not inside another of them: a selection printed once, subtrees included. */
export function outermost(nodes: OutlineNode[]): OutlineNode[] {
  const inner = new Set<OutlineNode>();
  for (const node of nodes) for (const child of walk(node.children ?? [])) inner.add(child);
  return nodes.filter((node) => !inner.has(node));
}
