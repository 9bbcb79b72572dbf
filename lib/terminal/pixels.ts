// Glyphs that only carry colour — a terminal browser draws its page as half-block "pixels"
// (▄ with a foreground and a background colour) and text on top. Blanking them leaves the
// page's text where it was, readable; `snapshot --raw` keeps the grid as drawn.
import type { Grid } from "./grid.ts";

/** The grid with every pixel glyph turned into a space (styles kept). */
export function withoutPixels(grid: Grid, pixels: string): Grid {
  if (!pixels) return grid;
  const set = new Set(pixels);
  const lines = grid.lines.map((line) => {
    if (!line.chars.some((c) => set.has(c))) return line;
    const chars = line.chars.map((c) => (set.has(c) ? " " : c));
    return { chars, styles: line.styles, text: chars.join("").replace(/ +$/, "") };
  });
  return { ...grid, lines };
}

/** Snapshot text without pixel glyphs: rows trimmed on the right, trailing blank rows dropped. */
export function textWithoutPixels(text: string, pixels: string): string {
  if (!pixels) return text;
  const pattern = new RegExp(`[${[...new Set(pixels)].map((c) => c.replace(/[\\\]^-]/g, "\\$&")).join("")}]`, "g");
  const rows = text.replace(pattern, " ").split("\n").map((row) => row.replace(/ +$/, ""));
  while (rows.length > 0 && rows.at(-1) === "") rows.pop();
  return rows.join("\n");
}
