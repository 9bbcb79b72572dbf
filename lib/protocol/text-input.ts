// What `type` accepts as text. Input to programs is inert unless a key is named: text is
// printable characters, tab and line breaks (CR is Enter, LF is sent as LF, which cooked-mode
// programs and readline also take as the end of a line). Every other control character is a
// key — Ctrl-C interrupts, Ctrl-Z stops, Ctrl-\ quits, ESC starts a sequence — so it is sent
// only by name (`press C-c`) or with `raw` (what a person's keyboard sends, as `attach` does).
// Checked by the worker for every client, and by the client before it splits long text into
// several requests, so a refused text sends nothing at all.
import { TuiwrightError } from "./errors.ts";

/** C0 controls other than tab, LF and CR; DEL; C1 controls (U+0080–U+009F). ESC is a C0 control. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;

/** The key that sends a C0 control or DEL, as `press` names it. */
function keyName(code: number): string | null {
  if (code === 0x00) return "C-Space";
  if (code === 0x08) return "C-h";
  if (code === 0x1b) return "Escape";
  if (code === 0x7f) return "Backspace";
  if (code < 0x1b) return `C-${String.fromCharCode(code + 0x60)}`;
  if (code < 0x20) return `C-${"\\]^_"[code - 0x1c]}`;
  return null;
}

/** "U+0003 (C-c)": a control character as a person can read it. */
export function describeControl(char: string): string {
  const code = char.codePointAt(0)!;
  const key = keyName(code);
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")} (${key ?? "a C1 control"})`;
}

/** Where the first control character that is not text is (a UTF-16 index), or -1. */
export function firstControl(text: string): number {
  const found = CONTROL.exec(text);
  return found ? found.index : -1;
}

/** Refuses text holding a control character other than tab and line breaks. */
export function requireText(text: string): void {
  const at = firstControl(text);
  if (at < 0) return;
  const char = text[at]!;
  const key = keyName(char.codePointAt(0)!);
  const position = [...text.slice(0, at)].length + 1;
  throw new TuiwrightError("invalid-key", `type takes text: ${describeControl(char)} at character ${position} is a control character, not text`, {
    hint: key
      ? `press it by name (\`press ${key}\`), or send control characters as they are with --raw (raw: true)`
      : "C1 controls have no key; send them as they are with --raw (raw: true) if the program really wants them",
    details: { index: at, codePoint: char.codePointAt(0) },
  });
}
