// A column-accurate copy of the visible screen for structure extraction (outline, manifests):
// per row, the character and style of every column. Outline code reads this, never xterm.
import type xt from "@xterm/headless";

export type Style = {
  fg?: number | string;
  bg?: number | string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  /** Struck through (SGR 9): a CLI's cancelled or rejected step. */
  strikethrough?: boolean;
  /** OSC 8 hyperlink target. */
  url?: string;
};

export type GridRow = {
  /** One entry per column; "" for the right half of a wide character. */
  chars: string[];
  /** One entry per column; shared objects, so equal styles are ===. */
  styles: Style[];
  /** The row's text with trailing spaces trimmed. */
  text: string;
};

export type Grid = {
  cols: number;
  rows: number;
  lines: GridRow[];
  cursor: { row: number; col: number; visible: boolean };
  title: string;
  altScreen: boolean;
  /** Lines of scrollback above the screen at the top of `lines` (absent: none). The screen is
   * the last `rows - above` lines; the cursor's row counts from the first line. */
  above?: number;
};

type LinkInternals = { _core?: { _oscLinkService?: { getLinkData(id: number): { uri: string } | undefined } } };
// The reused cell object keeps `extended` from earlier cells; it is only current when the
// cell says it has extended attributes. `fg`/`bg` are xterm's packed attribute words: both 0
// means default colours and no flags, which is most of a screen — read without decoding.
type CellInternals = { fg?: number; bg?: number; hasExtendedAttrs?(): number | boolean; extended?: { urlId?: number } };

const NO_STYLE: Style = Object.freeze({});

function colour(isDefault: boolean, isRgb: boolean, value: number): number | string | undefined {
  if (isDefault) return undefined;
  return isRgb ? `#${value.toString(16).padStart(6, "0")}` : value;
}

/** The screen's cells, with `above` lines of scrollback on top (as many as there are). */
export function readGrid(term: xt.Terminal, meta: Omit<Grid, "cols" | "rows" | "lines" | "above">, above = 0): Grid {
  const buffer = term.buffer.active;
  const extra = Math.max(0, Math.min(above, buffer.baseY));
  const links = (term as unknown as LinkInternals)._core?._oscLinkService;
  const cell = buffer.getNullCell();
  const styles = new Map<string, Style>();
  // xterm's packed (fg, bg) words → the style they decode to, for cells without a link; the
  // previous cell's pair is checked first (a screen is runs of one style).
  const packed = new Map<number, Map<number, Style>>();
  const lines: GridRow[] = [];
  for (let y = -extra; y < term.rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    const chars: string[] = new Array(term.cols);
    const rowStyles: Style[] = new Array(term.cols);
    let lastFg = 0;
    let lastBg = 0;
    let lastStyle: Style = NO_STYLE;
    for (let x = 0; x < term.cols; x++) {
      if (!line?.getCell(x, cell)) { chars[x] = " "; rowStyles[x] = NO_STYLE; continue; }
      chars[x] = cell.getWidth() === 0 ? "" : cell.getChars() || " ";
      const internals = cell as unknown as CellInternals;
      const packedFg = internals.fg;
      const packedBg = internals.bg;
      if (packedFg === 0 && packedBg === 0) { rowStyles[x] = NO_STYLE; continue; }
      const urlId = internals.hasExtendedAttrs?.() ? (internals.extended?.urlId ?? 0) : 0;
      if (packedFg !== undefined && urlId === 0) {
        if (packedFg === lastFg && packedBg === lastBg) { rowStyles[x] = lastStyle; continue; }
        const known = packed.get(packedFg)?.get(packedBg!);
        if (known) { rowStyles[x] = lastStyle = known; lastFg = packedFg; lastBg = packedBg!; continue; }
      }
      const fg = colour(cell.isFgDefault(), cell.isFgRGB(), cell.getFgColor());
      const bg = colour(cell.isBgDefault(), cell.isBgRGB(), cell.getBgColor());
      const flags = (cell.isBold() ? 1 : 0) | (cell.isDim() ? 2 : 0) | (cell.isItalic() ? 4 : 0) | (cell.isUnderline() ? 8 : 0) | (cell.isInverse() ? 16 : 0) | (cell.isStrikethrough() ? 32 : 0);
      if (fg === undefined && bg === undefined && flags === 0 && urlId === 0) { rowStyles[x] = NO_STYLE; continue; }
      const key = `${fg}|${bg}|${flags}|${urlId}`;
      let style = styles.get(key);
      if (!style) {
        style = {};
        if (fg !== undefined) style.fg = fg;
        if (bg !== undefined) style.bg = bg;
        if (flags & 1) style.bold = true;
        if (flags & 2) style.dim = true;
        if (flags & 4) style.italic = true;
        if (flags & 8) style.underline = true;
        if (flags & 16) style.inverse = true;
        if (flags & 32) style.strikethrough = true;
        const url = urlId ? links?.getLinkData(urlId)?.uri : undefined;
        if (url) style.url = url;
        styles.set(key, style);
      }
      if (packedFg !== undefined && urlId === 0) {
        let byBg = packed.get(packedFg);
        if (!byBg) packed.set(packedFg, (byBg = new Map()));
        byBg.set(packedBg!, style);
        lastFg = packedFg;
        lastBg = packedBg!;
        lastStyle = style;
      }
      rowStyles[x] = style;
    }
    lines.push({ chars, styles: rowStyles, text: chars.join("").replace(/ +$/, "") });
  }
  if (extra === 0) return { cols: term.cols, rows: term.rows, lines, ...meta };
  return { cols: term.cols, rows: term.rows + extra, lines, ...meta, cursor: { ...meta.cursor, row: meta.cursor.row + extra }, above: extra };
}

/** The text of columns [from, to) of a row, trailing spaces trimmed. */
export function sliceRow(row: GridRow, from: number, to: number): string {
  return row.chars.slice(Math.max(0, from), Math.min(row.chars.length, to)).join("").replace(/ +$/, "");
}
