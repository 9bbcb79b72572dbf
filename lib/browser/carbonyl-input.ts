// Input bytes the way Carbonyl 0.0.3 reads them (src/input/parser.rs, keyboard.rs, mouse.rs):
// every byte outside an escape sequence is one key press, forwarded to the page as that one
// character with no modifiers; CSI 1;<m>A..D are the arrows, the only keys that carry
// modifiers (and alt+Left/Right are its back/forward shortcuts); CSI < b;x;y M/m is the SGR
// mouse. Anything else is unsafe or lost: a byte ≥ 0x80 typed into the URL bar panics
// Carbonyl (it inserts bytes into a UTF-8 string at a byte index), a lone ESC swallows the next
// key, ESC P starts a device-control string that swallows input, 0x03 is its exit key. So only
// what it reads is sent, and everything else is refused as invalid-key with the reason.
import { TuiwrightError } from "../protocol/errors.ts";

export type Modifier = "ctrl" | "alt" | "shift" | "meta";
export type Modifiers = Modifier[] | Partial<Record<Modifier, boolean>> | undefined;

/** Keys Carbonyl reads, by the AWI-TTY document's names (and a few of ours). */
const PLAIN_KEYS: Record<string, string> = { Tab: "\t", Enter: "\r", Space: " ", Backspace: "\x7f" };
const ARROWS: Record<string, string> = { Up: "A", Down: "B", Right: "C", Left: "D" };

const READS = "Carbonyl reads Tab, Enter, Space, Backspace, Up, Down, Left, Right (with modifiers) and Char with one printable ASCII byte";

/** The xterm modifier parameter (1 + shift 1 + alt 2 + ctrl 4 + meta 8), as keyboard.rs decodes it. */
function modifierParam(list: Modifier[]): number {
  const bits = { shift: 1, alt: 2, ctrl: 4, meta: 8 } as const;
  return 1 + [...new Set(list)].reduce((sum, m) => sum + bits[m], 0);
}

function modifierList(modifiers: Modifiers): Modifier[] {
  if (Array.isArray(modifiers)) return modifiers;
  return Object.entries(modifiers ?? {}).filter(([, on]) => on).map(([m]) => m as Modifier);
}

/** A printable ASCII character: one byte, as the document's Char asks. */
export function isPrintableByte(char: string): boolean {
  return char.length === 1 && char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) <= 0x7e;
}

/** One AWI-TTY key ({key, char, modifiers}) as the bytes Carbonyl reads. */
export function carbonylKey(key: string, char: string | undefined, modifiers: Modifiers): string {
  const mods = modifierList(modifiers);
  if (key === "Char") {
    if (char === undefined) throw new TuiwrightError("invalid-key", 'key "Char" needs char, the character to send');
    if (!isPrintableByte(char)) {
      throw new TuiwrightError("invalid-key", `char must be one byte, a printable ASCII character (0x20..0x7e); got ${JSON.stringify(char)}`, {
        hint: "Carbonyl reads input byte by byte; for other text the page must offer another way (paste is typed byte by byte too)",
      });
    }
  } else if (char !== undefined) {
    throw new TuiwrightError("invalid-key", `char goes with key "Char", not ${JSON.stringify(key)}`, { hint: READS });
  }
  const arrow = ARROWS[key];
  if (arrow !== undefined) return mods.length === 0 ? `\x1b[${arrow}` : `\x1b[1;${modifierParam(mods)}${arrow}`;
  if (mods.length > 0) {
    throw new TuiwrightError("invalid-key", `Carbonyl forwards ${key === "Char" ? JSON.stringify(char) : key} to the page without modifiers (only the arrows carry them; alt+Left/Right are back/forward)`, {
      details: { key, modifiers: mods }, hint: READS,
    });
  }
  if (key === "Char") return char!;
  const plain = PLAIN_KEYS[key];
  if (plain === undefined) {
    throw new TuiwrightError("invalid-key", `Carbonyl does not read the key ${JSON.stringify(key)}`, { hint: READS });
  }
  return plain;
}

/** Text typed into Carbonyl: printable ASCII, tabs and newlines (sent as Enter). */
export function carbonylText(text: string): string {
  for (const char of text) {
    if (char !== "\n" && char !== "\t" && !isPrintableByte(char)) {
      throw new TuiwrightError("invalid-key", `Carbonyl reads one byte per key: ${JSON.stringify(char)} (U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}) cannot be typed; text must be printable ASCII, tab or newline`, { hint: READS });
    }
  }
  return text.replaceAll("\n", "\r");
}

export type MouseAction = "down" | "up" | "move";

/** SGR mouse at a 0-based cell: press, release, or motion (with the left button held: a drag). */
export function carbonylMouse(action: MouseAction, row: number, col: number, held: boolean): string {
  const at = `${col + 1};${row + 1}`;
  if (action === "down") return `\x1b[<0;${at}M`;
  if (action === "up") return `\x1b[<0;${at}m`;
  return `\x1b[<${held ? 32 : 35};${at}M`;
}

/** Takes the keyboard from Carbonyl's URL bar without touching the page: a click on the bar's
 * "[" (row 0, column 9, between the reload button and the field) sets its cursor to None and is
 * ignored (navigation.rs mouse_down: x 9..10 → Ignore). An event on a page row would free it too,
 * but reaches Chromium: a lone release there made Carbonyl draw later pages without their text
 * (2 runs in 10 of a back/forward/reload/about:blank/file: loop, 0 in 10 without it). */
export function releaseFocusToPage(): string {
  return carbonylMouse("down", 0, 9, false) + carbonylMouse("up", 0, 9, true);
}

/** Carbonyl's URL-bar focus after this input, by its rules (src/ui/navigation.rs): a press on
 * row 0 at column ≥ 11 gives the bar the keyboard, a press on a button takes it away, a press
 * or release below row 0 gives it to the page; wheel and motion change nothing. */
export function barKeepsKeyboard(focused: boolean, input: string): boolean {
  for (const [, button, x, y, final] of input.matchAll(/\x1b\[<(\d+);(\d+);(\d+)([Mm])/g)) {
    const b = Number(button);
    if (b & 64 || (final === "M" && b & 32)) continue;
    const row = Number(y) - 1;
    const col = Number(x) - 1;
    if (final === "M") focused = row === 0 && col >= 11;
    else if (row !== 0) focused = false;
  }
  return focused;
}

/** Throws invalid-key if `data` has a character outside ASCII (Carbonyl would get its UTF-8
 * bytes one by one; in the URL bar that panics it). */
export function refuseNonAscii(data: string): void {
  const bad = /[^\x00-\x7f]/u.exec(data);
  if (bad) {
    throw new TuiwrightError("invalid-key", `Carbonyl reads one byte per key: ${JSON.stringify(bad[0])} (U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}) cannot be sent to it`, { hint: READS });
  }
}
