// Split windows drawn with status lines (vim): which window is the current one, and where its
// text and status line are. The current window's status line is drawn differently (vim's
// StatusLine is bold, StatusLineNC is not); a window's text is the rows above its status line up
// to the status line (or top) above it, in its columns, without the separator column to its
// right. A screen with no status line at all is one window ("single").
import type { Grid, GridRow, Style } from "../terminal/grid.ts";
import type { BBox } from "../outline/types.ts";
import type { AttrPredicate, CompiledWindows } from "./load-manifest.ts";

export type Window = { status: BBox; text: BBox };

export type WindowLayout =
  | { kind: "single" }
  | { kind: "split"; current: Window | null; others: Window[] };

function matches(style: Style, want: AttrPredicate): boolean {
  if (want.inverse !== undefined && (style.inverse === true) !== want.inverse) return false;
  if (want.bold !== undefined && (style.bold === true) !== want.bold) return false;
  if (want.fg !== undefined && style.fg !== want.fg) return false;
  if (want.bg !== undefined && style.bg !== want.bg) return false;
  return true;
}

export function findWindows(grid: Grid, windows: CompiledWindows): WindowLayout {
  const statusLike = (row: number, col: number) => windows.status.some((want) => matches(grid.lines[row]!.styles[col]!, want));
  const currentLike = (row: number, col: number) => statusLike(row, col) && matches(grid.lines[row]!.styles[col]!, windows.current);
  const separatorAbove = (row: number, col: number) =>
    row > 0 && grid.lines[row - 1]!.chars[col] === "|" && (!windows.separator || matches(grid.lines[row - 1]!.styles[col]!, windows.separator));
  let current: Window | null = null;
  const others: Window[] = [];
  // Status lines sit between the first row and the last (the command line).
  for (let row = 1; row < grid.rows - 1; row++) {
    let col = 0;
    while (col < grid.cols) {
      if (!statusLike(row, col)) { col++; continue; }
      let end = col;
      while (end + 1 < grid.cols && statusLike(row, end + 1)) end++;
      // A window's separator column may lead a run that sits beside another window's text.
      let start = grid.lines[row]!.chars[col] === "|" ? col + 1 : col;
      // A status line spans its window: from the screen's edge or a separator, to the edge or
      // the separator column its window ends at (a visual selection ends at its text).
      const bounded = (col === 0 || start > col) && (end === grid.cols - 1 || separatorAbove(row, end)) && end - start >= 1;
      if (bounded) {
        // One run may hold several windows' status lines: split where the current one's look
        // starts or ends, and under the separator columns of the windows above.
        for (let c = start + 1; c <= end + 1; c++) {
          if (c <= end && currentLike(row, c) === currentLike(row, c - 1) && !separatorAbove(row, c - 1)) continue;
          const last = c - 1;
          if (last - start >= 1) {
            const window = { status: { row, col: start, rows: 1, cols: last - start + 1 }, text: textAbove(grid, row, start, last, statusLike, windows.separator) };
            if (currentLike(row, start) && !current) current = window;
            else others.push(window);
          }
          start = c;
        }
      }
      col = end + 1;
    }
  }
  return current || others.length > 0 ? { kind: "split", current, others } : { kind: "single" };
}

function textAbove(grid: Grid, statusRow: number, from: number, to: number, statusLike: (row: number, col: number) => boolean, separator: AttrPredicate | null): BBox {
  // The separator column between side-by-side windows belongs to the left window's status line.
  let last = to;
  if (to < grid.cols - 1 && separator && statusRow > 0 && matches(grid.lines[statusRow - 1]!.styles[to]!, separator)) last = to - 1;
  let top = 0;
  for (let row = statusRow - 1; row >= 0; row--) {
    let whole = true;
    for (let c = from; c <= last && whole; c++) whole = statusLike(row, c);
    if (whole) { top = row + 1; break; }
  }
  return { row: top, col: from, rows: statusRow - top, cols: last - from + 1 };
}

/** The part of the grid inside `box`, as a grid of its own (the cursor moved with it). */
export function sliceGrid(grid: Grid, box: BBox): Grid {
  const lines: GridRow[] = [];
  for (let r = box.row; r < box.row + box.rows; r++) {
    const row = grid.lines[r]!;
    const chars = row.chars.slice(box.col, box.col + box.cols);
    lines.push({ chars, styles: row.styles.slice(box.col, box.col + box.cols), text: chars.join("").replace(/\s+$/, "") });
  }
  const { row, col, visible } = grid.cursor;
  const inside = row >= box.row && row < box.row + box.rows && col >= box.col && col < box.col + box.cols;
  return { ...grid, cols: box.cols, rows: box.rows, lines, cursor: { row: row - box.row, col: col - box.col, visible: visible && inside } };
}
