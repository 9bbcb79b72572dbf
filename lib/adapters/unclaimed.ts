// What a manifest does not claim stays in the outline: the screen with the boxes of the
// manifest's regions blanked, outlined by the generic rules (a help page, a menu the manifest
// does not know, a tab row), so nothing on screen is dropped.
import type { Grid, GridRow, Style } from "../terminal/grid.ts";
import { genericOutline, type Draft, type SelectionClaim } from "../outline/generic.ts";
import type { BBox } from "../outline/types.ts";

const BLANK: Style = Object.freeze({});

export function unclaimedOutline(grid: Grid, claimed: BBox[], observed: { revision: number; claim: SelectionClaim | null } = { revision: 0, claim: null }): Draft[] {
  const lines: GridRow[] = grid.lines.slice();
  // A row a box claims from edge to edge is blank whatever else claims it: one shared blank row
  // (most of a manifest's screen), not a copy blanked cell by cell.
  let blankRow: GridRow | null = null;
  for (const box of claimed) {
    if (box.col > 0 || box.col + box.cols < grid.cols) continue;
    for (let r = Math.max(0, box.row); r < box.row + box.rows && r < grid.rows; r++) {
      blankRow ??= { chars: Array.from({ length: grid.cols }, () => " "), styles: Array.from({ length: grid.cols }, () => BLANK), text: "" };
      lines[r] = blankRow;
    }
  }
  for (const box of claimed) {
    for (let r = box.row; r < box.row + box.rows && r < grid.rows; r++) {
      if (lines[r] === blankRow) continue;
      const line = lines[r] === grid.lines[r] ? { chars: grid.lines[r]!.chars.slice(), styles: grid.lines[r]!.styles.slice(), text: "" } : lines[r]!;
      for (let c = box.col; c < box.col + box.cols && c < grid.cols; c++) {
        line.chars[c] = " ";
        line.styles[c] = BLANK;
      }
      lines[r] = line;
    }
  }
  let left = false;
  for (let r = 0; r < grid.rows; r++) {
    if (lines[r] !== grid.lines[r] && lines[r] !== blankRow) lines[r]!.text = lines[r]!.chars.join("").replace(/\s+$/, "");
    left ||= lines[r]!.text.trim() !== "";
  }
  if (!left) return []; // the manifest claimed everything drawn
  const { row, col } = grid.cursor;
  const cursorClaimed = claimed.some((b) => row >= b.row && row < b.row + b.rows && col >= b.col && col < b.col + b.cols);
  return genericOutline({ ...grid, lines, cursor: cursorClaimed ? { ...grid.cursor, visible: false } : grid.cursor }, observed);
}
