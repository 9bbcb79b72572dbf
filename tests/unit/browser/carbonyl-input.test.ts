// Input the way Carbonyl reads it (its src/input/parser.rs, keyboard.rs, mouse.rs and
// src/ui/navigation.rs): the bytes for each key, what is refused and why, SGR mouse, and the
// URL bar's focus rules.
import { expect, test } from "bun:test";
import { barKeepsKeyboard, carbonylKey, carbonylMouse, carbonylText, refuseNonAscii, releaseFocusToPage } from "../../../lib/browser/carbonyl-input.ts";

test("keys: one byte each; arrows as CSI A..D, with modifiers as CSI 1;<m>", () => {
  expect(["Tab", "Enter", "Space", "Backspace"].map((k) => carbonylKey(k, undefined, undefined))).toEqual(["\t", "\r", " ", "\x7f"]);
  expect(carbonylKey("Char", "a", undefined)).toBe("a");
  expect(carbonylKey("Up", undefined, undefined)).toBe("\x1b[A");
  expect(carbonylKey("Left", undefined, ["alt"])).toBe("\x1b[1;3D"); // Carbonyl's back shortcut
  expect(carbonylKey("Right", undefined, { shift: true, ctrl: true })).toBe("\x1b[1;6C");
  expect(carbonylKey("Down", undefined, ["meta"])).toBe("\x1b[1;9B");
});

test("refused as invalid-key, with the reason: multi-byte, control and non-ASCII chars, modifiers on non-arrows, keys Carbonyl does not read", () => {
  expect(() => carbonylKey("Char", "é", undefined)).toThrow("char must be one byte");
  expect(() => carbonylKey("Char", "ab", undefined)).toThrow("char must be one byte");
  expect(() => carbonylKey("Char", "\x03", undefined)).toThrow("printable ASCII");
  expect(() => carbonylKey("Char", undefined, undefined)).toThrow('key "Char" needs char');
  expect(() => carbonylKey("Tab", "x", undefined)).toThrow('char goes with key "Char"');
  expect(() => carbonylKey("Char", "a", ["ctrl"])).toThrow("without modifiers");
  expect(() => carbonylKey("Escape", undefined, undefined)).toThrow('does not read the key "Escape"');
  expect(() => carbonylKey("F1", undefined, undefined)).toThrow("does not read");
  try {
    carbonylKey("Escape", undefined, undefined);
  } catch (error) {
    expect((error as { errorName: string }).errorName).toBe("invalid-key");
  }
});

test("text: printable ASCII, tab, newline as Enter; anything else names the character", () => {
  expect(carbonylText("a b\tc\nd")).toBe("a b\tc\rd");
  expect(() => carbonylText("naïve")).toThrow('"ï" (U+00EF)');
  expect(() => carbonylText("\x1b[A")).toThrow("U+001B");
});

test("mouse: SGR press, release, motion (32 + button while held, 35 when not)", () => {
  expect(carbonylMouse("down", 4, 9, false)).toBe("\x1b[<0;10;5M");
  expect(carbonylMouse("up", 4, 9, true)).toBe("\x1b[<0;10;5m");
  expect(carbonylMouse("move", 4, 9, true)).toBe("\x1b[<32;10;5M");
  expect(carbonylMouse("move", 4, 9, false)).toBe("\x1b[<35;10;5M");
  expect(releaseFocusToPage()).toBe("\x1b[<0;10;1M\x1b[<0;10;1m"); // the bar's "[": ignored by Carbonyl
});

test("URL-bar focus follows Carbonyl's rules: a press in the field takes it, a button or the page gives it back", () => {
  const pressBar = carbonylMouse("down", 0, 60, false) + carbonylMouse("up", 0, 60, true);
  expect(barKeepsKeyboard(false, pressBar)).toBe(true);
  expect(barKeepsKeyboard(true, "abc\r")).toBe(true); // keys leave it where it is
  expect(barKeepsKeyboard(true, releaseFocusToPage())).toBe(false);
  expect(barKeepsKeyboard(true, carbonylMouse("up", 44, 0, false))).toBe(false); // a release on a page row
  expect(barKeepsKeyboard(true, carbonylMouse("down", 0, 1, false))).toBe(false); // the back button
  expect(barKeepsKeyboard(true, carbonylMouse("move", 10, 10, false))).toBe(true); // motion: no change
  expect(barKeepsKeyboard(true, "\x1b[<65;10;10M")).toBe(true); // the wheel: no change
  expect(barKeepsKeyboard(true, carbonylMouse("down", 5, 5, false))).toBe(false); // a click in the page
});

test("nothing outside ASCII reaches Carbonyl by any path (tuiwright's own press/type too)", () => {
  expect(() => refuseNonAscii("\x1b[<0;1;1Mabc\r")).not.toThrow();
  expect(() => refuseNonAscii("café")).toThrow('"é" (U+00E9) cannot be sent');
  expect(() => refuseNonAscii("🙂")).toThrow("U+1F642");
});
