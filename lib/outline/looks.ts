// What a cell looks like to the eye, for telling highlighted runs from their surroundings: the
// background a reader sees (an inverse cell shows its foreground as background). A highlight is
// a run whose look differs from the look most of its container has — on a blue dialog, white
// is the plain look and a blue button the highlight; on a default terminal, any background is.
import type { Grid, Style } from "../terminal/grid.ts";
import type { BBox } from "./types.ts";

/** Styles are shared objects (one per distinct style on the screen): each look is made once. */
const looks = new WeakMap<Style, string>();

/** The visible background of a cell: "" for the terminal's default. */
export function lookOf(style: Style): string {
  let look = looks.get(style);
  if (look === undefined) {
    look = style.inverse ? `i${style.fg ?? "-"}` : style.bg === undefined ? "" : `b${style.bg}`;
    looks.set(style, look);
  }
  return look;
}

/** Default-look cells making up this share of an area make it plain paper, however much of it is
 * highlighted (a list of inverse rows on a terminal is highlights, not an inverse page). */
const DEFAULT_PAPER_SHARE = 0.25;

/** The plain look of an area — the terminal's default, or the colour the area is painted in
 * (a dialog's box, a file manager's panel) — nested boxes excluded (`masked` says which cells). */
export function dominantLook(grid: Grid, area: BBox, spans: (row: number) => [number, number][]): string {
  const counts = new Map<string, number>();
  let best = "";
  let bestCount = -1;
  // Counted per run of one style (a row is a few runs), not per cell.
  const add = (look: string, n: number) => {
    const total = (counts.get(look) ?? 0) + n;
    counts.set(look, total);
    if (total > bestCount) { best = look; bestCount = total; }
  };
  for (let r = area.row; r < area.row + area.rows; r++) {
    const styles = grid.lines[r]!.styles;
    for (const [from, to] of spans(r)) {
      let start = from;
      for (let c = from + 1; c <= to; c++) {
        if (c < to && styles[c] === styles[start]) continue;
        add(lookOf(styles[start]!), c - start);
        start = c;
      }
    }
  }
  let total = 0;
  for (const n of counts.values()) total += n;
  return (counts.get("") ?? 0) >= total * DEFAULT_PAPER_SHARE ? "" : best;
}

/** The attributes a highlight is drawn with, as a reader would name them. */
export function describeLook(style: Style): string[] {
  const attrs: string[] = [];
  if (style.inverse) attrs.push("inverse");
  if (style.bg !== undefined) attrs.push(`bg=${style.bg}`);
  if (style.fg !== undefined) attrs.push(`fg=${style.fg}`);
  if (style.bold) attrs.push("bold");
  if (style.underline) attrs.push("underline");
  return attrs;
}
