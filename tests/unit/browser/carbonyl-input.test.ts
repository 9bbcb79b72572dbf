// What still goes to Carbonyl by its own bytes (its navigation bar on row 0): SGR mouse, and
// nothing outside ASCII (a byte ≥ 0x80 typed into its URL bar panics it).
import { expect, test } from "bun:test";
import { carbonylMouse, refuseNonAscii } from "../../../lib/browser/carbonyl-input.ts";

test("mouse: SGR press, release, motion (32 + button while held, 35 when not)", () => {
  expect(carbonylMouse("down", 4, 9, false)).toBe("\x1b[<0;10;5M");
  expect(carbonylMouse("up", 4, 9, true)).toBe("\x1b[<0;10;5m");
  expect(carbonylMouse("move", 4, 9, true)).toBe("\x1b[<32;10;5M");
  expect(carbonylMouse("move", 4, 9, false)).toBe("\x1b[<35;10;5M");
});

test("nothing outside ASCII reaches Carbonyl's own input", () => {
  expect(() => refuseNonAscii("\x1b[<0;1;1Mabc\r")).not.toThrow();
  expect(() => refuseNonAscii("café")).toThrow('"é" (U+00E9) cannot be sent');
  expect(() => refuseNonAscii("🙂")).toThrow("U+1F642");
});
