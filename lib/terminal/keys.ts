// Key names → the bytes a real xterm sends. Arrows, Home and End honour application cursor
// mode (DECCKM); modifiers use xterm's CSI 1;m encoding. Anything we cannot encode faithfully
// is an invalid-key error rather than a guess.
import { TuiwrightError } from "../protocol/errors.ts";
import { describeControl, firstControl } from "../protocol/text-input.ts";

export type KeyModes = { applicationCursorKeys: boolean };

export type Modifiers = { ctrl: boolean; alt: boolean; shift: boolean };

// CSI-final keys: normal form ESC [ X, application form ESC O X, modified ESC [ 1 ; m X.
const CURSOR_KEYS: Record<string, string> = { up: "A", down: "B", right: "C", left: "D", home: "H", end: "F" };
// Tilde keys: ESC [ n ~, modified ESC [ n ; m ~.
const TILDE_KEYS: Record<string, number> = {
  insert: 2, delete: 3, pageup: 5, pagedown: 6,
  f5: 15, f6: 17, f7: 18, f8: 19, f9: 20, f10: 21, f11: 23, f12: 24,
};
const SS3_KEYS: Record<string, string> = { f1: "P", f2: "Q", f3: "R", f4: "S" };
const PLAIN_KEYS: Record<string, string> = { enter: "\r", tab: "\t", escape: "\x1b", backspace: "\x7f", space: " " };
const ALIASES: Record<string, string> = {
  return: "enter", cr: "enter", nl: "enter", esc: "escape", bspace: "backspace", bs: "backspace", del: "delete", ins: "insert",
  pgup: "pageup", pgdn: "pagedown", pgdown: "pagedown", spc: "space",
};

export const KEY_NAMES = [
  "Enter", "Tab", "Escape", "Backspace", "Space", "Up", "Down", "Left", "Right", "Home", "End",
  "PageUp", "PageDown", "Insert", "Delete", ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
];

function invalid(key: string, why: string): TuiwrightError {
  return new TuiwrightError("invalid-key", `invalid key ${JSON.stringify(key)}: ${why}`, { details: { key } });
}

/** A key name's C-, M- and S- prefixes, and the key they modify. */
export function splitModifiers(key: string): { mods: Modifiers; base: string } {
  const mods = { ctrl: false, alt: false, shift: false };
  let rest = key;
  while (rest.length > 2 && rest[1] === "-") {
    const prefix = rest[0]!;
    if (prefix === "C") mods.ctrl = true;
    else if (prefix === "M") mods.alt = true;
    else if (prefix === "S") mods.shift = true;
    else break;
    rest = rest.slice(2);
  }
  return { mods, base: rest };
}

function modifierParam(mods: Modifiers): number {
  return 1 + (mods.shift ? 1 : 0) + (mods.alt ? 2 : 0) + (mods.ctrl ? 4 : 0);
}

function controlChar(key: string, char: string): string {
  if (/^[a-zA-Z]$/.test(char)) return String.fromCharCode(char.toLowerCase().charCodeAt(0) & 0x1f);
  const specials: Record<string, string> = { "@": "\x00", " ": "\x00", "[": "\x1b", "\\": "\x1c", "]": "\x1d", "^": "\x1e", _: "\x1f", "?": "\x7f" };
  const mapped = specials[char];
  if (mapped === undefined) throw invalid(key, `no control code for ${JSON.stringify(char)}`);
  return mapped;
}

/** Encodes one key name such as `Enter`, `C-c`, `S-Tab`, `M-Left`, `F5` or `x`. */
export function encodeKey(key: string, modes: KeyModes): string {
  const { mods, base } = splitModifiers(key);
  const lower = base.toLowerCase();
  const name = ALIASES[lower] ?? lower;
  const modified = mods.ctrl || mods.alt || mods.shift;
  const param = modifierParam(mods);

  const cursorFinal = CURSOR_KEYS[name];
  if (cursorFinal) {
    if (modified) return `\x1b[1;${param}${cursorFinal}`;
    return modes.applicationCursorKeys ? `\x1bO${cursorFinal}` : `\x1b[${cursorFinal}`;
  }
  const tilde = TILDE_KEYS[name];
  if (tilde !== undefined) return modified ? `\x1b[${tilde};${param}~` : `\x1b[${tilde}~`;
  const ss3 = SS3_KEYS[name];
  if (ss3) return modified ? `\x1b[1;${param}${ss3}` : `\x1bO${ss3}`;

  const plain = PLAIN_KEYS[name];
  if (plain !== undefined) {
    if (name === "tab" && mods.shift && !mods.ctrl) return mods.alt ? "\x1b\x1b[Z" : "\x1b[Z";
    if (name === "space" && mods.ctrl) return (mods.alt ? "\x1b" : "") + "\x00";
    if (mods.ctrl || mods.shift) throw invalid(key, `a terminal cannot tell ${base} from ${mods.ctrl ? "C-" : "S-"}${base}; send ${base} alone`);
    return (mods.alt ? "\x1b" : "") + plain;
  }

  const chars = [...base];
  if (chars.length === 1) {
    let char = chars[0]!;
    if (firstControl(char) >= 0) throw invalid(key, `${describeControl(char)} is a control character, not a key name; name the key (C-c, Escape, …)`);
    if (mods.shift) char = char.toUpperCase();
    const body = mods.ctrl ? controlChar(key, char) : char;
    return (mods.alt ? "\x1b" : "") + body;
  }
  if (/<[^<>\s]+>/.test(key)) return encodeNotation(key, modes);
  throw invalid(key, "unknown key name (use `type` for text)");
}

/** Vim's key notation, as the article writes keys: `<esc>`, `:wq<cr>`, `<C-c>`, `<lt>` for `<`.
 * Text outside brackets is sent as typed; each `<…>` is one key name (modifiers in any case). */
function encodeNotation(key: string, modes: KeyModes): string {
  let out = "";
  for (const part of key.split(/(<[^<>\s]+>)/)) {
    if (!part.startsWith("<") || !part.endsWith(">") || part.length < 3) {
      const at = firstControl(part);
      if (at >= 0) throw invalid(key, `${describeControl(part[at]!)} is a control character, not text; name it in brackets (<C-c>, <esc>)`);
      out += part;
      continue;
    }
    const inner = part.slice(1, -1).replace(/^((?:[cmsaCMSA]-)+)/, (mods) => mods.toUpperCase().replace(/A-/g, "M-"));
    if (inner.toLowerCase() === "lt") out += "<";
    else if (inner.toLowerCase() === "gt") out += ">";
    else {
      try {
        out += encodeKey(inner, modes);
      } catch {
        throw invalid(key, `unknown key ${part} in key notation (e.g. <esc>, <cr>, <C-c>, <lt> for "<")`);
      }
    }
  }
  return out;
}

export function encodeKeys(keys: readonly string[], modes: KeyModes): string {
  return keys.map((key) => encodeKey(key, modes)).join("");
}
