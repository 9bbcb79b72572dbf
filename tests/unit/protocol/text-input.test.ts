import { expect, test } from "bun:test";
import { describeControl, firstControl, requireText } from "../../../lib/protocol/text-input.ts";

test("text is printable characters, tab and line breaks; every other C0 control, DEL and C1 is not", () => {
  expect(firstControl("a\tb\r\nc é 😀 \u00a0")).toBe(-1);
  for (let code = 0; code < 0xa0; code++) {
    const char = String.fromCharCode(code);
    const text = code === 0x09 || code === 0x0a || code === 0x0d || (code >= 0x20 && code < 0x7f);
    expect(firstControl(`x${char}`)).toBe(text ? -1 : 1);
  }
});

test("a control character is named by the key that sends it", () => {
  expect(["\x00", "\x01", "\x03", "\x08", "\x0b", "\x1a", "\x1b", "\x1c", "\x1d", "\x1e", "\x1f", "\x7f", "\x9b"].map(describeControl)).toEqual([
    "U+0000 (C-Space)", "U+0001 (C-a)", "U+0003 (C-c)", "U+0008 (C-h)", "U+000B (C-k)", "U+001A (C-z)", "U+001B (Escape)",
    "U+001C (C-\\)", "U+001D (C-])", "U+001E (C-^)", "U+001F (C-_)", "U+007F (Backspace)", "U+009B (a C1 control)",
  ]);
  expect(() => requireText("😀\x1a")).toThrow("U+001A (C-z) at character 2");
});
