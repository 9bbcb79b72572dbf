// How many cells a character takes: the width rules of a session's terminal. "graphemes" is a
// modern terminal's (Unicode 15, grapheme clusters: 👍🏽, 👨‍👩‍👧 and 🇫🇷 take 2 cells, a letter
// with combining marks 1) and what the AI coding CLIs assume (string-width in Ink, pi-tui's
// visibleWidth: measured equal on 👍🏽 👨‍👩‍👧 🇫🇷 漢字 é ❤️ 1️⃣). "unicode11" is per code point
// (👍🏽 = 4 cells, 👨‍👩‍👧 = 6): what sessions used before, kept for casts recorded then, so every
// cast replays with the rules it was recorded under.
import type xt from "@xterm/headless";
import { Unicode11Addon } from "@xterm/addon-unicode11";
import { UnicodeGraphemesAddon } from "@xterm/addon-unicode-graphemes";

export const WIDTH_RULES = ["graphemes", "unicode11"] as const;
export type WidthRules = (typeof WIDTH_RULES)[number];

/** What live sessions use (and record in their casts). */
export const LIVE_WIDTHS: WidthRules = "graphemes";

export function applyWidths(term: xt.Terminal, rules: WidthRules): void {
  if (rules === "graphemes") {
    // The addon's typings name @xterm/xterm's Terminal; the headless one has the same unicode API.
    term.loadAddon(new UnicodeGraphemesAddon() as unknown as xt.ITerminalAddon);
    term.unicode.activeVersion = "15-graphemes";
  } else {
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = "11";
  }
}
