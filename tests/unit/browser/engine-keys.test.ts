// Keys as the engine's input events: names, modifiers (CDP bits alt 1, ctrl 2, meta 4, shift 8),
// characters of any script, and text typed as a person would.
import { expect, test } from "bun:test";
import { keyEvents, oneCharacter, typingSteps } from "../../../lib/browser/engine-keys.ts";

test("named keys: DOM key, code, virtual key code; text only where the key types", () => {
  expect(keyEvents("Tab")).toEqual([
    { type: "rawKeyDown", key: "Tab", code: "Tab", windowsVirtualKeyCode: 9, modifiers: 0 },
    { type: "keyUp", key: "Tab", code: "Tab", windowsVirtualKeyCode: 9, modifiers: 0 },
  ]);
  expect(keyEvents("Enter")[0]).toEqual({ type: "keyDown", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, modifiers: 0, text: "\r", unmodifiedText: "\r" });
  expect(keyEvents("Left")[0]).toMatchObject({ key: "ArrowLeft", code: "ArrowLeft", windowsVirtualKeyCode: 37 });
  expect(keyEvents("Space")[0]).toMatchObject({ key: " ", code: "Space", text: " " });
  expect(keyEvents("F5")[0]).toMatchObject({ key: "F5", windowsVirtualKeyCode: 116 });
});

test("every modifier, short and long prefixes; a character with ctrl/alt/meta is a shortcut, not text", () => {
  expect(keyEvents("S-Tab")[0]).toMatchObject({ key: "Tab", modifiers: 8 });
  expect(keyEvents("C-S-Left")[0]).toMatchObject({ key: "ArrowLeft", modifiers: 10 });
  expect(keyEvents("M-Left")[0]).toMatchObject({ modifiers: 1 });
  expect(keyEvents("Meta-k")[0]).toEqual({ type: "rawKeyDown", key: "k", code: "KeyK", windowsVirtualKeyCode: 75, modifiers: 4 });
  expect(keyEvents("Ctrl-Alt-Shift-Meta-Up")[0]).toMatchObject({ modifiers: 15 });
  expect(keyEvents("C-a")[0]).toEqual({ type: "rawKeyDown", key: "a", code: "KeyA", windowsVirtualKeyCode: 65, modifiers: 2 });
  expect(keyEvents("C-Enter")[0]).toMatchObject({ type: "rawKeyDown", key: "Enter" }); // no "\r" typed
  expect(keyEvents("-")[0]).toMatchObject({ key: "-", text: "-" });
  expect(keyEvents("C--")[0]).toMatchObject({ key: "-", modifiers: 2 });
});

test("any one character is a key: é, 中, 👍 type themselves", () => {
  for (const char of ["é", "中", "👍", "7"]) expect(keyEvents(char)[0]).toMatchObject({ type: "keyDown", key: char, text: char });
  expect(keyEvents("7")[0]).toMatchObject({ code: "Digit7", windowsVirtualKeyCode: 55 });
});

test("a name that is neither a key nor one character is invalid-key, naming it", () => {
  for (const bad of ["Bogus", "ab", "C-", "X-a"]) {
    try {
      keyEvents(bad);
      throw new Error(`${bad} was accepted`);
    } catch (error) {
      expect((error as { errorName?: string }).errorName).toBe("invalid-key");
      expect((error as Error).message).toContain(JSON.stringify(bad));
    }
  }
});

test("one character means one grapheme (a flag or an accent sequence too); more or none is invalid-key", () => {
  expect(oneCharacter("é")).toBe("é");
  expect(oneCharacter("🇫🇷")).toBe("🇫🇷");
  expect(() => oneCharacter("ab")).toThrow('got "ab" (2 characters)');
  expect(() => oneCharacter("")).toThrow("(0 characters)");
});

test("typing: ASCII as keys, newline as Enter, runs of anything else inserted as text, controls refused", () => {
  const steps = typingSteps("a\nçé!\tb");
  expect(steps.map((step) => ("insert" in step ? `insert ${step.insert}` : step.keys[0]!.key))).toEqual(["a", "Enter", "insert çé", "!", "Tab", "b"]);
  expect(() => typingSteps("x\x03y")).toThrow("U+0003");
  expect(() => typingSteps("\x1b[A")).toThrow("U+001B");
});
