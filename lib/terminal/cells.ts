// Rows as runs of cells with identical attributes (the `cells` snapshot format).
import type xt from "@xterm/headless";
import type { CellRunValue } from "../protocol/methods.ts";

type Cell = xt.IBufferCell;

function colour(mode: "fg" | "bg", cell: Cell): number | string | undefined {
  const isDefault = mode === "fg" ? cell.isFgDefault() : cell.isBgDefault();
  if (isDefault) return undefined;
  const value = mode === "fg" ? cell.getFgColor() : cell.getBgColor();
  const isRgb = mode === "fg" ? cell.isFgRGB() : cell.isBgRGB();
  return isRgb ? `#${value.toString(16).padStart(6, "0")}` : value;
}

function attributes(cell: Cell): Omit<CellRunValue, "col" | "text" | "width"> {
  const run: Omit<CellRunValue, "col" | "text" | "width"> = {};
  const fg = colour("fg", cell);
  const bg = colour("bg", cell);
  if (fg !== undefined) run.fg = fg;
  if (bg !== undefined) run.bg = bg;
  if (cell.isBold()) run.bold = true;
  if (cell.isDim()) run.dim = true;
  if (cell.isItalic()) run.italic = true;
  if (cell.isUnderline()) run.underline = true;
  if (cell.isInverse()) run.inverse = true;
  if (cell.isStrikethrough()) run.strikethrough = true;
  return run;
}

function sameAttributes(a: Omit<CellRunValue, "col" | "text" | "width">, b: Omit<CellRunValue, "col" | "text" | "width">): boolean {
  return a.fg === b.fg && a.bg === b.bg && a.bold === b.bold && a.dim === b.dim && a.italic === b.italic &&
    a.underline === b.underline && a.inverse === b.inverse && a.strikethrough === b.strikethrough;
}

/** One row as attribute runs; trailing default-attribute blanks are dropped. */
export function rowRuns(line: xt.IBufferLine, cols: number, scratch: Cell): CellRunValue[] {
  const runs: CellRunValue[] = [];
  let current: CellRunValue | undefined;
  for (let x = 0; x < cols; x++) {
    const cell = line.getCell(x, scratch);
    if (!cell || cell.getWidth() === 0) continue; // the right half of a wide character
    const attrs = attributes(cell);
    const chars = cell.getChars() || " ";
    if (current && sameAttributes(current, attrs)) {
      current.text += chars;
      current.width += cell.getWidth();
    } else {
      current = { col: x, text: chars, width: cell.getWidth(), ...attrs };
      runs.push(current);
    }
  }
  const last = runs.at(-1);
  if (last && Object.keys(last).length === 3) {
    const trimmed = last.text.trimEnd();
    if (!trimmed) runs.pop();
    else { last.width -= last.text.length - trimmed.length; last.text = trimmed; }
  }
  return runs;
}
