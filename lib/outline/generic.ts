// The generic outline: what any screen visibly shows, without a manifest. It states visible
// facts only — box-drawing panels and split panes, paragraphs (runs of non-blank rows),
// highlighted runs with the attributes they are drawn in, OSC 8 links (the program's escape
// sequence says so), and the cursor's cell. It never says `selected`, `focused`, `input`, a mode
// or a prompt from looks: a highlighted row is `highlight`, not the selection. The one semantic
// fact it states is a selection proven by behaviour (selection-by-behaviour.ts): this session
// sent Down and exactly that highlight moved down — and then it cites the key and revision.
import type { Grid, GridRow } from "../terminal/grid.ts";
import { claimedGroup, type ContainerRuns, type HighlightRun, type SelectionClaim } from "./highlight-groups.ts";
import { describeLook, dominantLook, lookOf } from "./looks.ts";
import { findPanels, isBoxChar, type Panel } from "./panels.ts";
import { findPanes } from "./panes.ts";
import { contains, type BBox, type Evidence, type OutlineNode } from "./types.ts";

type Draft = Omit<OutlineNode, "ref" | "children"> & { children: Draft[] };

export type { ContainerRuns, HighlightRun, SelectionClaim } from "./highlight-groups.ts";

/** A highlighted run of line characters only is a border drawn in colour (vim's window
 * separator), not a highlighted item. */
const LINE_ONLY = /^[|│┃║\-─━═+┼]+$/;

const isBlank = (c: string) => c === " " || c === "" || isBoxChar(c);

/** An area of the screen with the cells of the panels inside it blanked out. */
class Area {
  readonly box: BBox;
  readonly #inner: Panel[];
  constructor(box: BBox, inner: Panel[]) {
    this.box = box;
    this.#inner = inner;
    this.#whole = [[box.col, box.col + box.cols]];
  }
  readonly #whole: [number, number][];
  masked = (row: number, col: number): boolean =>
    this.#inner.some(({ bbox: b }) => row >= b.row && row < b.row + b.rows && col >= b.col && col < b.col + b.cols);
  /** Column ranges [from, to) of `row` inside the area and outside every inner panel. */
  spans = (row: number): [number, number][] => {
    if (this.#inner.length === 0) return this.#whole;
    let spans: [number, number][] = this.#whole;
    for (const { bbox: b } of this.#inner) {
      if (row < b.row || row >= b.row + b.rows) continue;
      spans = spans.flatMap(([from, to]): [number, number][] => {
        if (b.col >= to || b.col + b.cols <= from) return [[from, to]];
        return [[from, b.col], [b.col + b.cols, to]].filter(([f, t]) => t! > f!) as [number, number][];
      });
    }
    return spans;
  };
}

/** Whether every cell of a row is a space: it has no paragraph text and no highlighted run
 * (a run's text would be empty). Asked once per row object and build — a manifest's claimed rows
 * are one shared blank row — instead of cell by cell in each pass. */
function spacesOnly(b: Build, line: GridRow): boolean {
  let blank = b.spacesOnly.get(line);
  if (blank === undefined) {
    blank = true;
    for (const ch of line.chars) if (ch !== " ") { blank = false; break; }
    b.spacesOnly.set(line, blank);
  }
  return blank;
}

/** Highlighted runs of an area: maximal runs of one look other than the area's plain look.
 * Foreground changes inside a run do not split it ("[", "Main", "]" in three colours on one bar). */
function highlightRuns(b: Build, area: Area): HighlightRun[] {
  const { grid } = b;
  const plain = dominantLook(grid, area.box, area.spans);
  const runs: HighlightRun[] = [];
  for (let r = area.box.row; r < area.box.row + area.box.rows; r++) {
    const line = grid.lines[r]!;
    if (spacesOnly(b, line)) continue;
    for (const [from, to] of area.spans(r)) {
      let start = -1;
      let look = "";
      let previous = undefined as unknown;
      let here = plain;
      for (let c = from; c <= to; c++) {
        const style = c < to ? line.styles[c]! : null;
        if (style !== previous) { here = style ? lookOf(style) : plain; previous = style; }
        if (start !== -1 && here !== look) {
          const text = line.chars.slice(start, c).join("").trim();
          if (text && !LINE_ONLY.test(text)) runs.push({ row: r, col: start, cols: c - start, look, text });
          start = -1;
        }
        if (start === -1 && here !== plain) { start = c; look = here; }
      }
    }
  }
  return runs;
}

function paragraphs(b: Build, area: Area): Draft[] {
  const { grid } = b;
  const { box } = area;
  const drafts: Draft[] = [];
  let first = -1;
  let left = Infinity;
  let right = -1;
  let rows: string[] = [];
  const flush = (end: number) => {
    if (first === -1) return;
    let wideEnd = 0; // a wide character's right half after the rightmost character
    for (let r = first; r < end && !wideEnd; r++) {
      const chars = grid.lines[r]!.chars;
      if (!isBlank(chars[right]!) && chars[right + 1] === "") wideEnd = 1;
    }
    drafts.push({ role: "paragraph", name: rows.join("\n"), bbox: { row: first, col: left, rows: end - first, cols: right - left + 1 + wideEnd }, children: [] });
    first = -1;
    left = Infinity;
    right = -1;
    rows = [];
  };
  for (let r = box.row; r < box.row + box.rows; r++) {
    if (spacesOnly(b, grid.lines[r]!)) { flush(r); continue; }
    const chars = grid.lines[r]!.chars;
    let text = "";
    let blank = true;
    for (const [from, to] of area.spans(r)) {
      for (let c = from; c < to; c++) {
        if (isBlank(chars[c]!)) continue;
        blank = false;
        if (c < left) left = c;
        if (c > right) right = c;
      }
    }
    if (blank) { flush(r); continue; }
    if (first === -1) first = r;
    let at = box.col;
    for (const [from, to] of area.spans(r)) {
      if (from > at) text += " ".repeat(from - at);
      text += chars.slice(from, to).join("");
      at = to;
    }
    rows.push(text.trim());
  }
  flush(box.row + box.rows);
  return drafts;
}

/** OSC 8 links of a row inside the area: the program's escape sequence names the target. */
function links(grid: Grid, area: Area, row: number, revision: number): Draft[] {
  const line = grid.lines[row]!;
  const found: Draft[] = [];
  if (!line.styles.some((style) => style.url !== undefined)) return found;
  for (const [from, to] of area.spans(row)) {
    let start = -1;
    for (let c = from; c <= to; c++) {
      const url = c < to ? line.styles[c]!.url : undefined;
      if (start !== -1 && url !== line.styles[start]!.url) {
        const text = line.chars.slice(start, c).join("").trim();
        if (text) {
          found.push({ role: "link", name: text, value: line.styles[start]!.url!, bbox: { row, col: start, rows: 1, cols: c - start },
            evidence: [{ source: "escape", sequence: "OSC 8", revision }], children: [] });
        }
        start = -1;
      }
      if (start === -1 && url !== undefined) start = c;
    }
  }
  return found;
}

type Build = { grid: Grid; panels: Panel[]; revision: number; claim: SelectionClaim | null; collect: ContainerRuns[] | null; spacesOnly: Map<GridRow, boolean> };

function decorate(b: Build, area: Area, drafts: Draft[]): void {
  const runs = highlightRuns(b, area);
  b.collect?.push({ box: area.box, runs });
  const claimed = claimedGroup(b.claim, area.box, runs);
  const cursor = b.grid.cursor;
  for (const paragraph of drafts) {
    const { row, rows } = paragraph.bbox;
    for (const run of runs) {
      if (run.row < row || run.row >= row + rows) continue;
      const style = b.grid.lines[run.row]!.styles[run.col]!;
      const node: Draft = { role: "highlight", name: run.text, attrs: describeLook(style), bbox: { row: run.row, col: run.col, rows: 1, cols: run.cols }, children: [] };
      if (claimed && claimed.row === run.row && claimed.look === run.look) {
        node.selected = true;
        node.evidence = [b.claim!.evidence];
      }
      paragraph.children.push(node);
    }
    for (let r = row; r < row + rows; r++) paragraph.children.push(...links(b.grid, area, r, b.revision));
    if (cursor.visible && cursor.row >= row && cursor.row < row + rows && !area.masked(cursor.row, cursor.col) &&
      cursor.col >= area.box.col && cursor.col < area.box.col + area.box.cols) {
      paragraph.children.push(cursorNode(b.grid));
    }
    paragraph.children.sort((x, y) => x.bbox.row - y.bbox.row || x.bbox.col - y.bbox.col);
  }
}

/** The cursor's cell: where the program put it, not what it means (a prompt, a form field and a
 * pager's last row look alike). Its name is empty: the text around it is its paragraph's. */
function cursorNode(grid: Grid): Draft {
  const { row, col } = grid.cursor;
  return { role: "cursor", name: "", bbox: { row, col, rows: 1, cols: 1 }, children: [] };
}

function cursorInBlank(grid: Grid, area: Area, drafts: Draft[]): boolean {
  const { row, col, visible } = grid.cursor;
  if (!visible || area.masked(row, col)) return false;
  const { box } = area;
  if (row < box.row || row >= box.row + box.rows || col < box.col || col >= box.col + box.cols) return false;
  return !drafts.some((d) => d.role === "paragraph" && row >= d.bbox.row && row < d.bbox.row + d.bbox.rows);
}

function build(b: Build, box: BBox): Draft[] {
  // Panels directly inside this area (not inside another panel in it, and not the area's own frame).
  const inside = b.panels.filter((p) => contains(box, p.bbox) && !(p.bbox.row === box.row - 1 && p.bbox.col === box.col - 1));
  const direct = inside.filter((p) => !inside.some((q) => q !== p && contains(q.bbox, p.bbox)));
  const area = new Area(box, direct);
  const drafts = paragraphs(b, area);
  decorate(b, area, drafts);
  if (cursorInBlank(b.grid, area, drafts)) drafts.push(cursorNode(b.grid));
  for (const panel of direct) {
    const p = panel.bbox;
    const interior = { row: p.row + 1, col: p.col + 1, rows: p.rows - 2, cols: p.cols - 2 };
    const children = interior.rows > 0 && interior.cols > 0 ? build(b, interior) : [];
    drafts.push({ role: "panel", name: panel.title, bbox: p, children });
  }
  return drafts.sort((x, y) => x.bbox.row - y.bbox.row || x.bbox.col - y.bbox.col);
}

function outline(b: Build): Draft[] {
  const { grid } = b;
  const screen = { row: 0, col: 0, rows: grid.rows, cols: grid.cols };
  let area = screen;
  let panes = findPanes(grid, screen, b.panels);
  if (panes.length === 0 && grid.rows > 2) {
    // Split panes above a status bar on the last row (tmux, screen).
    area = { ...screen, rows: grid.rows - 1 };
    panes = findPanes(grid, area, b.panels);
  }
  if (panes.length === 0) return build(b, screen);
  const drafts: Draft[] = panes.map((pane) => ({ role: "pane", name: "", bbox: pane, children: build(b, pane) }));
  if (area.rows < grid.rows) drafts.push(...build(b, { row: area.rows, col: 0, rows: grid.rows - area.rows, cols: grid.cols }));
  return drafts.sort((x, y) => x.bbox.row - y.bbox.row || x.bbox.col - y.bbox.col);
}

/** The generic outline, without refs (see refs.ts). `claim`: a selection proven by behaviour. */
export function genericOutline(grid: Grid, options: { revision?: number; claim?: SelectionClaim | null } = {}): Draft[] {
  return outline({ grid, panels: findPanels(grid), revision: options.revision ?? 0, claim: options.claim ?? null, collect: null, spacesOnly: new Map() });
}

/** Every container's highlighted runs, as the generic outline sees them (for behaviour). */
export function highlightedRuns(grid: Grid): ContainerRuns[] {
  const collect: ContainerRuns[] = [];
  outline({ grid, panels: findPanels(grid), revision: 0, claim: null, collect, spacesOnly: new Map() });
  return collect;
}

export type { Draft };
