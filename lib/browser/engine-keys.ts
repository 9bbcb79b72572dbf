// Keys as the engine's input events (Input.dispatchKeyEvent): a key press with its key, code,
// Windows virtual key code and modifiers, the way a keyboard delivers it to the page — so Tab and
// Shift-Tab move the focus, Enter follows a focused link, ctrl/alt/shift/meta reach the page's
// handlers, and any character (é, 中, 👍) can be typed. Carbonyl's own byte path carries none of
// that (it forwards one byte per key, modifiers only on arrows, and panics on bytes ≥ 0x80).
import { TuiwrightError } from "../protocol/errors.ts";

export type KeyEvent = {
  type: "keyDown" | "rawKeyDown" | "keyUp";
  key: string;
  code: string;
  windowsVirtualKeyCode: number;
  modifiers: number;
  text?: string;
  unmodifiedText?: string;
};

/** CDP's modifier bits. */
const BITS = { alt: 1, ctrl: 2, meta: 4, shift: 8 } as const;
type Modifier = keyof typeof BITS;
const PREFIXES: Record<string, Modifier> = { "C-": "ctrl", "Ctrl-": "ctrl", "M-": "alt", "Alt-": "alt", "S-": "shift", "Shift-": "shift", "Meta-": "meta", "Cmd-": "meta" };

/** Named keys: [code, virtual key code, text typed]. */
const NAMED: Record<string, [string, number, string?]> = {
  Enter: ["Enter", 13, "\r"], Tab: ["Tab", 9], Backspace: ["Backspace", 8], Escape: ["Escape", 27], Space: ["Space", 32, " "],
  Delete: ["Delete", 46], Insert: ["Insert", 45], Home: ["Home", 36], End: ["End", 35], PageUp: ["PageUp", 33], PageDown: ["PageDown", 34],
  Left: ["ArrowLeft", 37], Up: ["ArrowUp", 38], Right: ["ArrowRight", 39], Down: ["ArrowDown", 40],
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`F${i + 1}`, [`F${i + 1}`, 112 + i] as [string, number]])),
};
/** The DOM `key` of a named key where it differs from its name. */
const DOM_KEY: Record<string, string> = { Space: " ", Left: "ArrowLeft", Up: "ArrowUp", Right: "ArrowRight", Down: "ArrowDown" };

export const ENGINE_KEY_NAMES = Object.keys(NAMED);

const graphemes = (text: string) => [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map((s) => s.segment);

/** Exactly one character (one grapheme: é, 👍, a flag), or invalid-key saying what was given. */
export function oneCharacter(char: string, what = "char"): string {
  const parts = graphemes(char);
  if (parts.length !== 1) {
    throw new TuiwrightError("invalid-key", `${what} must be exactly one character; got ${JSON.stringify(char)} (${parts.length} characters)`, {
      hint: "send one character per key; for text use type_text", details: { char },
    });
  }
  return char;
}

/** A key name (Enter, Tab, S-Tab, C-a, M-Left, Meta-k, é) as its press and release. */
export function keyEvents(name: string): KeyEvent[] {
  let rest = name;
  const mods = new Set<Modifier>();
  for (let prefix = matchPrefix(rest); prefix !== null && rest.length > prefix.length; prefix = matchPrefix(rest)) {
    mods.add(PREFIXES[prefix]!);
    rest = rest.slice(prefix.length);
  }
  const modifiers = [...mods].reduce((sum, m) => sum + BITS[m], 0);
  const named = NAMED[rest];
  if (named) {
    const [code, vk, typed] = named;
    const key = DOM_KEY[rest] ?? rest;
    // Text only when it types: Enter and Space without ctrl/alt/meta.
    const text = typed !== undefined && !(modifiers & (BITS.ctrl | BITS.alt | BITS.meta)) ? typed : undefined;
    return press(key, code, vk, modifiers, text);
  }
  if (graphemes(rest).length !== 1) {
    throw new TuiwrightError("invalid-key", `invalid key ${JSON.stringify(name)}: not a key name (${ENGINE_KEY_NAMES.slice(0, 15).join(", ")}, F1..F12) or one character`, {
      hint: "keys: a name or one character, with C- M- S- Meta- modifiers (S-Tab, C-a, M-Left, Meta-k)", details: { key: name },
    });
  }
  const upper = rest.toUpperCase();
  const code = /^[a-z]$/i.test(rest) ? `Key${upper}` : /^\d$/.test(rest) ? `Digit${rest}` : "";
  const vk = /^[a-z\d]$/i.test(rest) ? upper.charCodeAt(0) : 0;
  // A character with ctrl, alt or meta is a shortcut, not text.
  const text = modifiers & (BITS.ctrl | BITS.alt | BITS.meta) ? undefined : rest;
  return press(rest, code, vk, modifiers, text);
}

function matchPrefix(rest: string): string | null {
  return Object.keys(PREFIXES).find((prefix) => rest.startsWith(prefix)) ?? null;
}

function press(key: string, code: string, windowsVirtualKeyCode: number, modifiers: number, text: string | undefined): KeyEvent[] {
  const base = { key, code, windowsVirtualKeyCode, modifiers };
  return [
    text === undefined ? { type: "rawKeyDown", ...base } : { type: "keyDown", ...base, text, unmodifiedText: text },
    { type: "keyUp", ...base },
  ];
}

/** Text typed as a person would: a key per ASCII character (Enter for a newline, Tab for a tab),
 * and anything else inserted as text (what an input method commits). */
export function typingSteps(text: string): ({ keys: KeyEvent[] } | { insert: string })[] {
  const steps: ({ keys: KeyEvent[] } | { insert: string })[] = [];
  for (const char of graphemes(text)) {
    if (char === "\n" || char === "\r\n" || char === "\r") steps.push({ keys: keyEvents("Enter") });
    else if (char === "\t") steps.push({ keys: keyEvents("Tab") });
    else if (/^[\x20-\x7e]$/.test(char)) steps.push({ keys: keyEvents(char) });
    else if (/[\x00-\x1f\x7f-\x9f]/.test(char)) {
      // A control character is no text: pressing its key is what a caller means (press C-c).
      throw new TuiwrightError("invalid-key", `text holds the control character U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}; type text, and press keys by name (press Escape, C-c)`, { details: { char } });
    } else {
      const last = steps.at(-1);
      if (last && "insert" in last) last.insert += char;
      else steps.push({ insert: char });
    }
  }
  return steps;
}
