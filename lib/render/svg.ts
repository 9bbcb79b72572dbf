// The screen as a self-contained SVG: monospace cells, colours, bold/dim/underline/inverse,
// the cursor, optional labelled boxes around nodes, and an optional window frame.
import type { Grid, Style } from "../terminal/grid.ts";
import type { BBox } from "../outline/types.ts";
import { colourOf, DEFAULT_BG, DEFAULT_FG } from "./palette.ts";

export const CELL_WIDTH = 8.43; // DejaVu Sans Mono's advance (0.602 em) at 14 px
export const CELL_HEIGHT = 17;
const BASELINE = 13;
const PAD = 8;
const TITLE_BAR = 28;
const ANNOTATION = "#ffb000";

export type SvgOptions = { annotations?: { bbox: BBox; label: string }[]; chrome?: string };

// A character XML 1.0 does not allow (C0 controls but tab, newline and CR; U+FFFE, U+FFFF; a lone
// surrogate) makes the whole SVG unreadable, and the PNG with it: each is drawn as U+FFFD.
const NOT_XML = /[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
const escape = (text: string) =>
  text.replace(NOT_XML, "\ufffd").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const px = (n: number) => Number(n.toFixed(2));

function colours(style: Style): { fg: string; bg: string | null } {
  let fg = colourOf(style.fg, DEFAULT_FG);
  let bg: string | null = style.bg === undefined ? null : colourOf(style.bg, DEFAULT_BG);
  if (style.inverse) [fg, bg] = [bg ?? DEFAULT_BG, fg];
  return { fg, bg };
}

function row(grid: Grid, y: number): string[] {
  const line = grid.lines[y]!;
  const parts: string[] = [];
  let start = 0;
  for (let x = 1; x <= grid.cols; x++) {
    if (x < grid.cols && line.styles[x] === line.styles[start]) continue;
    const style = line.styles[start]!;
    const { fg, bg } = colours(style);
    const top = y * CELL_HEIGHT;
    if (bg) parts.push(`<rect x="${px(start * CELL_WIDTH)}" y="${top}" width="${px((x - start) * CELL_WIDTH)}" height="${CELL_HEIGHT}" fill="${bg}"/>`);
    const glyphs: string[] = [];
    const xs: number[] = [];
    for (let c = start; c < x; c++) {
      const ch = line.chars[c]!;
      if (ch === "" || ch === " ") continue;
      glyphs.push(ch);
      xs.push(px(c * CELL_WIDTH));
    }
    if (glyphs.length > 0) {
      const attrs = [`x="${xs.join(" ")}"`, `y="${top + BASELINE}"`, `fill="${fg}"`];
      if (style.bold) attrs.push(`font-weight="bold"`);
      if (style.italic) attrs.push(`font-style="italic"`);
      if (style.dim) attrs.push(`opacity="0.5"`);
      if (style.underline) attrs.push(`text-decoration="underline"`);
      parts.push(`<text ${attrs.join(" ")}>${escape(glyphs.join(""))}</text>`);
    }
    start = x;
  }
  return parts;
}

export function renderSvg(grid: Grid, options: SvgOptions = {}): string {
  const width = px(grid.cols * CELL_WIDTH);
  const height = grid.rows * CELL_HEIGHT;
  const top = options.chrome !== undefined ? TITLE_BAR : 0;
  const outerWidth = px(width + PAD * 2);
  const outerHeight = height + PAD * 2 + top;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${outerWidth}" height="${outerHeight}" viewBox="0 0 ${outerWidth} ${outerHeight}">`,
    `<style>text{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:14px;white-space:pre}</style>`,
    `<rect width="${outerWidth}" height="${outerHeight}" rx="${options.chrome !== undefined ? 8 : 0}" fill="${DEFAULT_BG}"/>`,
  ];
  if (options.chrome !== undefined) {
    parts.push(
      `<rect width="${outerWidth}" height="${TITLE_BAR}" rx="8" fill="#2d2d2d"/><rect y="${TITLE_BAR - 8}" width="${outerWidth}" height="8" fill="#2d2d2d"/>`,
      ...["#ff5f56", "#ffbd2e", "#27c93f"].map((fill, i) => `<circle cx="${16 + i * 20}" cy="${TITLE_BAR / 2}" r="6" fill="${fill}"/>`),
      `<text x="${px(outerWidth / 2)}" y="${TITLE_BAR / 2 + 5}" text-anchor="middle" fill="#c0c0c0">${escape(options.chrome)}</text>`,
    );
  }
  parts.push(`<g transform="translate(${PAD} ${PAD + top})">`);
  for (let y = 0; y < grid.rows; y++) parts.push(...row(grid, y));
  const cursor = grid.cursor;
  if (cursor.visible && cursor.row < grid.rows && cursor.col < grid.cols) {
    parts.push(`<rect x="${px(cursor.col * CELL_WIDTH)}" y="${cursor.row * CELL_HEIGHT}" width="${CELL_WIDTH}" height="${CELL_HEIGHT}" fill="${DEFAULT_FG}" opacity="0.6"/>`);
  }
  for (const { bbox, label } of options.annotations ?? []) {
    const x = px(bbox.col * CELL_WIDTH);
    const y = bbox.row * CELL_HEIGHT;
    parts.push(
      `<rect x="${x}" y="${y}" width="${px(Math.max(1, bbox.cols) * CELL_WIDTH)}" height="${Math.max(1, bbox.rows) * CELL_HEIGHT}" fill="none" stroke="${ANNOTATION}" stroke-width="2"/>`,
      `<rect x="${x}" y="${y - 12}" width="${px(label.length * 6.6 + 6)}" height="12" fill="${ANNOTATION}"/>`,
      `<text x="${px(x + 3)}" y="${y - 2}" fill="#000" style="font-size:11px">${escape(label)}</text>`,
    );
  }
  parts.push("</g></svg>");
  return parts.join("\n");
}
