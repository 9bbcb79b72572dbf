// The generic outline: what any screen shows without a manifest, found by rules that never
// guess at widgets — box-drawing panels, paragraphs (runs of non-blank rows), highlighted runs
// (inverse video or a background colour), OSC 8 links, and the cursor's row as the input.
import type { Grid, Style } from "../terminal/grid.ts";
import { findPanels, isBoxChar, type Panel } from "./panels.ts";
import { findPanes } from "./panes.ts";
import { contains, type BBox, type OutlineNode } from "./types.ts";

type Draft = Omit<OutlineNode, "ref" | "children"> & { children: Draft[] };


/** Rows of a container's interior with cells of nested panels blanked out. */
function maskedRows(grid: Grid, area: BBox, inner: Panel[]): string[][] {
  const rows: string[][] = [];
  for (let r = area.row; r < area.row + area.rows; r++) {
    const chars = grid.lines[r]!.chars.slice(area.col, area.col + area.cols);
    for (const panel of inner) {
      const b = panel.bbox;
      if (r < b.row || r >= b.row + b.rows) continue;
      for (let c = b.col; c < b.col + b.cols; c++) if (c >= area.col && c < area.col + area.cols) chars[c - area.col] = " ";
    }
    rows.push(chars);
  }
  return rows;
}

/** Maximal runs of columns in [from, to) whose style passes `keep`, split where the style changes. */
function styledRuns(grid: Grid, row: number, from: number, to: number, keep: (style: Style) => boolean): { col: number; cols: number; style: Style; text: string }[] {
  const line = grid.lines[row]!;
  const runs: { col: number; cols: number; style: Style; text: string }[] = [];
  let start = -1;
  for (let c = from; c <= to; c++) {
    const style = c < to ? line.styles[c]! : undefined;
    const continues = start !== -1 && style === line.styles[start];
    if (start !== -1 && !continues) {
      const text = line.chars.slice(start, c).join("").trim();
      if (text) runs.push({ col: start, cols: c - start, style: line.styles[start]!, text });
      start = -1;
    }
    if (start === -1 && style && keep(style)) start = c;
  }
  return runs;
}

/** What a highlight looks like: the background the eye sees (an inverse cell shows its
 * foreground as background). Null for cells on the default background. */
function highlightKey(style: Style): string | null {
  if (style.inverse) return `i${style.fg ?? "-"}`;
  return style.bg === undefined ? null : `b${style.bg}`;
}

/** Runs of one visible background in [from, to): foreground changes and blanks inside do not
 * split a run (a tab drawn as "[", "Main", "]" in three colours on one bar is one run). */
function highlightRuns(grid: Grid, row: number, from: number, to: number): { col: number; cols: number; key: string; text: string }[] {
  const line = grid.lines[row]!;
  const runs: { col: number; cols: number; key: string; text: string }[] = [];
  let start = -1;
  let key: string | null = null;
  for (let c = from; c <= to; c++) {
    const here = c < to ? highlightKey(line.styles[c]!) : null;
    if (start !== -1 && here !== key) {
      const text = line.chars.slice(start, c).join("").trim();
      if (text) runs.push({ col: start, cols: c - start, key: key!, text });
      start = -1;
    }
    if (start === -1 && here !== null) { start = c; key = here; }
  }
  return runs;
}

/** The look of each highlight node, for telling the current item from its neighbours. */
const highlightLook = new WeakMap<Draft, string>();

const isBlank = (c: string) => c === " " || c === "" || isBoxChar(c);

function paragraphs(grid: Grid, area: BBox, inner: Panel[]): Draft[] {
  const rows = maskedRows(grid, area, inner);
  const drafts: Draft[] = [];
  let first = -1;
  const flush = (end: number) => {
    if (first === -1) return;
    const group = rows.slice(first, end);
    let left = Infinity;
    let right = -1;
    for (const chars of group) {
      chars.forEach((c, i) => {
        if (isBlank(c)) return;
        left = Math.min(left, i);
        right = Math.max(right, i);
      });
    }
    const last = group.find((chars) => chars[right] !== undefined && !isBlank(chars[right]!));
    const wideEnd = last?.[right + 1] === "" ? 1 : 0; // a wide character's right half
    drafts.push({
      role: "paragraph",
      name: group.map((chars) => chars.join("").trim()).join("\n"),
      bbox: { row: area.row + first, col: area.col + left, rows: end - first, cols: right - left + 1 + wideEnd },
      children: [],
    });
    first = -1;
  };
  rows.forEach((chars, i) => {
    const blank = chars.every(isBlank);
    if (!blank && first === -1) first = i;
    if (blank) flush(i);
  });
  flush(rows.length);
  return drafts;
}

function decorate(grid: Grid, paragraph: Draft, container: BBox): void {
  const { row, rows } = paragraph.bbox;
  const from = container.col;
  const to = container.col + container.cols;
  for (let r = row; r < row + rows; r++) {
    for (const run of highlightRuns(grid, r, from, to)) {
      const node: Draft = { role: "highlight", name: run.text, bbox: { row: r, col: run.col, rows: 1, cols: run.cols }, children: [] };
      highlightLook.set(node, run.key);
      paragraph.children.push(node);
    }
    for (const run of styledRuns(grid, r, from, to, (s) => s.url !== undefined)) {
      paragraph.children.push({ role: "link", name: run.text, value: run.style.url!, bbox: { row: r, col: run.col, rows: 1, cols: run.cols }, children: [] });
    }
  }
  const cursor = grid.cursor;
  if (cursor.visible && cursor.row >= row && cursor.row < row + rows && cursor.col >= from && cursor.col <= to) {
    paragraph.focused = true;
    const text = grid.lines[cursor.row]!.chars.slice(from, to).join("").trim();
    paragraph.children.push({ role: "input", name: text, focused: true, bbox: { row: cursor.row, col: from, rows: 1, cols: container.cols }, children: [] });
  }
  paragraph.children.sort((a, b) => a.bbox.row - b.bbox.row || a.bbox.col - b.bbox.col);
}

/**
 * The current item of a list: the one row of a container whose highlight looks like no other
 * row's (the neighbours share another background, or none), at least a quarter of the width.
 * The screen's first and last rows are title and status bars, never the selection.
 */
function markSelection(nodes: Draft[], container: BBox, grid: Grid): void {
  const runs = nodes.flatMap((n) => n.children).filter((n) => n.role === "highlight");
  const rowsByLook = new Map<string, Set<number>>();
  for (const run of runs) {
    const look = highlightLook.get(run)!;
    if (!rowsByLook.has(look)) rowsByLook.set(look, new Set());
    rowsByLook.get(look)!.add(run.bbox.row);
  }
  const bar = (run: Draft) => run.bbox.row === 0 || run.bbox.row === grid.rows - 1;
  const current = runs.filter((run) => !bar(run) && run.bbox.cols * 4 >= container.cols && rowsByLook.get(highlightLook.get(run)!)!.size === 1);
  if (new Set(current.map((run) => run.bbox.row)).size === 1) for (const run of current) run.selected = true;
}

function build(grid: Grid, area: BBox, panels: Panel[]): Draft[] {
  // Panels directly inside this area (not inside another panel in it).
  const inside = panels.filter((p) => contains(area, p.bbox) && !(p.bbox.row === area.row - 1 && p.bbox.col === area.col - 1));
  const direct = inside.filter((p) => !inside.some((q) => q !== p && contains(q.bbox, p.bbox)));
  const drafts = paragraphs(grid, area, direct);
  for (const paragraph of drafts) decorate(grid, paragraph, area);
  markSelection(drafts, area, grid);
  for (const panel of direct) {
    const b = panel.bbox;
    const interior = { row: b.row + 1, col: b.col + 1, rows: b.rows - 2, cols: b.cols - 2 };
    const children = interior.rows > 0 && interior.cols > 0 ? build(grid, interior, panels.filter((p) => p !== panel && contains(interior, p.bbox))) : [];
    const focused = grid.cursor.visible && grid.cursor.row >= interior.row && grid.cursor.row < interior.row + interior.rows &&
      grid.cursor.col >= interior.col && grid.cursor.col < interior.col + interior.cols;
    drafts.push({ role: "panel", name: panel.title, bbox: b, children, ...(focused ? { focused } : {}) });
  }
  return drafts.sort((a, b) => a.bbox.row - b.bbox.row || a.bbox.col - b.bbox.col);
}

/** The generic outline, without refs (see refs.ts). Split panes (border lines across the
 * screen, or across all but its last row, where a status bar sits) become `pane` nodes. */
export function genericOutline(grid: Grid): Draft[] {
  const screen = { row: 0, col: 0, rows: grid.rows, cols: grid.cols };
  const panels = findPanels(grid);
  let area = screen;
  let panes = findPanes(grid, screen, panels);
  if (panes.length === 0 && grid.rows > 2) {
    area = { ...screen, rows: grid.rows - 1 };
    panes = findPanes(grid, area, panels);
  }
  if (panes.length === 0) return build(grid, screen, panels);
  const drafts: Draft[] = panes.map((pane) => {
    const { row, col, visible } = grid.cursor;
    const focused = visible && row >= pane.row && row < pane.row + pane.rows && col >= pane.col && col < pane.col + pane.cols;
    return { role: "pane", name: "", bbox: pane, children: build(grid, pane, panels.filter((p) => contains(pane, p.bbox))), ...(focused ? { focused } : {}) };
  });
  if (area.rows < grid.rows) drafts.push(...build(grid, { row: area.rows, col: 0, rows: grid.rows - area.rows, cols: grid.cols }, []));
  return drafts.sort((a, b) => a.bbox.row - b.bbox.row || a.bbox.col - b.bbox.col);
}

export type { Draft };
