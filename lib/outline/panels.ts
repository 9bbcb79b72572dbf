// Box-drawing frames: a top-left corner, a top border (which may carry a title), vertical
// sides and a bottom border with both corners. Only complete rectangles count.
import type { Grid } from "../terminal/grid.ts";
import type { BBox } from "./types.ts";

const TOP_LEFT = "┌╭╔┏╓╒";
const TOP_RIGHT = "┐╮╗┓╖╕";
const BOTTOM_LEFT = "└╰╚┗╙╘";
const BOTTOM_RIGHT = "┘╯╝┛╜╛";
const HORIZONTAL = "─━═╌╍┄┅┈┉┬┴┼╤╧╥╨";
const VERTICAL = "│┃║╎╏┆┇┊┋├┤┼╟╢╞╡";
const BOX = new Set([...TOP_LEFT, ...TOP_RIGHT, ...BOTTOM_LEFT, ...BOTTOM_RIGHT, ...HORIZONTAL, ...VERTICAL]);
/** Looked up per cell of the screen: a set, not a string search. */
const TOP_LEFT_SET = new Set(TOP_LEFT);

export type Panel = { bbox: BBox; title: string };

export function isBoxChar(ch: string): boolean {
  return BOX.has(ch);
}

function frameAt(grid: Grid, row: number, col: number): Panel | null {
  const top = grid.lines[row]!.chars;
  for (let right = col + 1; right < grid.cols; right++) {
    const ch = top[right]!;
    if (!TOP_RIGHT.includes(ch) || ch === "") continue;
    for (let bottom = row + 1; bottom < grid.rows; bottom++) {
      const line = grid.lines[bottom]!.chars;
      const left = line[col]!;
      const rightSide = line[right]!;
      if (BOTTOM_LEFT.includes(left) && left !== "" && BOTTOM_RIGHT.includes(rightSide) && rightSide !== "") {
        // The bottom border may carry text too (mc's free space, a dialog's hint), as a title does
        // on the top one: it starts and ends as a line, and is mostly line.
        const border = line.slice(col + 1, right);
        const isLine = (c: string | undefined) => c !== undefined && c !== "" && HORIZONTAL.includes(c);
        const lineCells = border.filter(isLine).length;
        if (border.length > 0 && (!isLine(border[0]) || !isLine(border.at(-1)) || lineCells * 2 < border.length)) break;
        const title = top.slice(col + 1, right).filter((c) => !BOX.has(c)).join("").trim();
        return { bbox: { row, col, rows: bottom - row + 1, cols: right - col + 1 }, title };
      }
      if (!VERTICAL.includes(left) || left === "" || !VERTICAL.includes(rightSide) || rightSide === "") break;
    }
  }
  return null;
}

export function findPanels(grid: Grid): Panel[] {
  const panels: Panel[] = [];
  for (let row = 0; row < grid.rows - 1; row++) {
    const chars = grid.lines[row]!.chars;
    for (let col = 0; col < grid.cols - 1; col++) {
      if (!TOP_LEFT_SET.has(chars[col]!)) continue;
      const panel = frameAt(grid, row, col);
      if (panel) panels.push(panel);
    }
  }
  return panels;
}
