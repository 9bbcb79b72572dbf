import { expect, test } from "bun:test";
import { encodeKey, encodeKeys } from "../../../lib/terminal/keys.ts";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";

const normal = { applicationCursorKeys: false };
const app = { applicationCursorKeys: true };

test.each([
  ["Enter", "\r"], ["Return", "\r"], ["Tab", "\t"], ["Escape", "\x1b"], ["Esc", "\x1b"], ["Backspace", "\x7f"],
  ["Space", " "], ["Up", "\x1b[A"], ["Down", "\x1b[B"], ["Right", "\x1b[C"], ["Left", "\x1b[D"],
  ["Home", "\x1b[H"], ["End", "\x1b[F"], ["PageUp", "\x1b[5~"], ["PageDown", "\x1b[6~"], ["Insert", "\x1b[2~"],
  ["Delete", "\x1b[3~"], ["F1", "\x1bOP"], ["F4", "\x1bOS"], ["F5", "\x1b[15~"], ["F12", "\x1b[24~"],
  ["C-c", "\x03"], ["C-C", "\x03"], ["C-d", "\x04"], ["C-[", "\x1b"], ["C-Space", "\x00"], ["C-@", "\x00"],
  ["M-x", "\x1bx"], ["C-M-x", "\x1b\x18"], ["S-a", "A"], ["S-Tab", "\x1b[Z"], ["M-Enter", "\x1b\r"],
  ["C-Up", "\x1b[1;5A"], ["M-Left", "\x1b[1;3D"], ["S-Right", "\x1b[1;2C"], ["C-S-End", "\x1b[1;6F"],
  ["C-Delete", "\x1b[3;5~"], ["S-F1", "\x1b[1;2P"], ["C-F5", "\x1b[15;5~"], ["x", "x"], ["é", "é"], ["漢", "漢"],
  ["pgup", "\x1b[5~"], ["enter", "\r"],
])("%p encodes as xterm does", (key, bytes) => {
  expect(encodeKey(key, normal)).toBe(bytes);
});

test("arrows, Home and End use SS3 in application cursor mode; modified ones do not", () => {
  expect(encodeKeys(["Up", "Down", "Right", "Left", "Home", "End"], app)).toBe("\x1bOA\x1bOB\x1bOC\x1bOD\x1bOH\x1bOF");
  expect(encodeKey("C-Up", app)).toBe("\x1b[1;5A");
});

test.each([
  ["Nope", "unknown key name (use `type` for text)"],
  ["hello", "unknown key name"],
  ["C-Enter", "a terminal cannot tell Enter from C-Enter"],
  ["S-Backspace", "a terminal cannot tell Backspace from S-Backspace"],
  ["C-1", 'no control code for "1"'],
  ["", "unknown key name"],
])("%p is an invalid-key error (exit 65)", (key, message) => {
  let error: unknown;
  try { encodeKey(key, normal); } catch (e) { error = e; }
  expect(error).toBeInstanceOf(TuiwrightError);
  expect((error as TuiwrightError).exitCode).toBe(65);
  expect((error as TuiwrightError).message).toContain(message);
  expect((error as TuiwrightError).message).toContain(JSON.stringify(key));
});

test("vim key notation, as the article writes keys: <esc>, :wq<cr>, <C-c>, <lt>", () => {
  expect(encodeKey("<esc>", normal)).toBe("\x1b");
  expect(encodeKey(":wq<cr>", normal)).toBe(":wq\r");
  expect(encodeKey("<c-x><C-s>", normal)).toBe("\x18\x13");
  expect(encodeKey("a<lt>b<gt>", normal)).toBe("a<b>");
  expect(encodeKey("<S-Tab><a-x>", normal)).toBe("\x1b[Z\x1bx");
  expect(encodeKey("<Up>", app)).toBe("\x1bOA");
  expect(encodeKey("<", normal)).toBe("<"); // a lone bracket is the character
  expect(() => encodeKey("x<nope>", normal)).toThrow('invalid key "x<nope>": unknown key <nope> in key notation');
});

test("a control character is not a key name, alone or in key notation; tab and line breaks are", () => {
  expect(() => encodeKey("\x03", normal)).toThrow("U+0003 (C-c) is a control character, not a key name");
  expect(() => encodeKey("M-\x1b", normal)).toThrow("U+001B (Escape)");
  expect(() => encodeKey("\u009b", normal)).toThrow("U+009B (a C1 control)");
  expect(() => encodeKey("ab\x1a<cr>", normal)).toThrow("U+001A (C-z) is a control character, not text");
  expect(encodeKey("\t", normal)).toBe("\t");
  expect(encodeKey(":wq<cr>", normal)).toBe(":wq\r");
});
