// Split panes (tmux, screen, vim windows drawn with line characters): a full-height column of
// vertical border characters, or a full-width row of horizontal ones, divides an area in two;
// each side is split again. Only lines that cross the whole area count, and never a line that
// belongs to a box-drawing panel, so panels stay panels.
import type { Grid } from "../terminal/grid.ts";
import type { Panel } from "./panels.ts";
import type { BBox } from "./types.ts";

const VERTICAL = new Set([..."│┃║├┤┼╟╢╞╡┬┴╫╪"]);
const HORIZONTAL = new Set([..."─━═┼┬┴├┤╤╧╥╨╪╫"]);

function panelAt(panels: Panel[], row: number, col: number): boolean {
  return panels.some(({ bbox: b }) => row >= b.row && row < b.row + b.rows && col >= b.col && col < b.col + b.cols);
}

function verticalSplit(grid: Grid, area: BBox, panels: Panel[]): number {
  for (let c = area.col + 1; c < area.col + area.cols - 1; c++) {
    let whole = true;
    for (let r = area.row; r < area.row + area.rows && whole; r++) whole = VERTICAL.has(grid.lines[r]!.chars[c]!) && !panelAt(panels, r, c);
    if (whole) return c;
  }
  return -1;
}

function horizontalSplit(grid: Grid, area: BBox, panels: Panel[]): number {
  for (let r = area.row + 1; r < area.row + area.rows - 1; r++) {
    const chars = grid.lines[r]!.chars;
    let whole = true;
    for (let c = area.col; c < area.col + area.cols && whole; c++) whole = HORIZONTAL.has(chars[c]!) && !panelAt(panels, r, c);
    if (whole) return r;
  }
  return -1;
}

/** The panes of an area, in reading order, or [] when no border line divides it. */
export function findPanes(grid: Grid, area: BBox, panels: Panel[]): BBox[] {
  if (area.rows < 1 || area.cols < 3) return [];
  const split = (a: BBox): BBox[] => {
    const c = verticalSplit(grid, a, panels);
    if (c >= 0) {
      return [...split({ ...a, cols: c - a.col }), ...split({ ...a, col: c + 1, cols: a.col + a.cols - c - 1 })];
    }
    const r = a.rows >= 3 ? horizontalSplit(grid, a, panels) : -1;
    if (r >= 0) return [...split({ ...a, rows: r - a.row }), ...split({ ...a, row: r + 1, rows: a.row + a.rows - r - 1 })];
    return [a];
  };
  const panes = split(area);
  return panes.length > 1 ? panes.sort((a, b) => a.row - b.row || a.col - b.col) : [];
}
