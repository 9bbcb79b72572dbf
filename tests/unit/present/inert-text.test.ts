// Program text printed on a person's terminal must not act on it: every control but newline and
// tab shows as a visible stand-in; JSON keeps the same string but carries no raw control byte.
import { expect, test } from "bun:test";
import { inertJson, inertText } from "../../../lib/present/inert-text.ts";

const C0 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code));
const C1 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i));
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

test("each C0 control but newline and tab becomes its control picture; newline and tab stay", () => {
  for (const char of C0) {
    const shown = inertText(`a${char}b`);
    if (char === "\n" || char === "\t") expect(shown).toBe(`a${char}b`);
    else expect(shown).toBe(`a${String.fromCharCode(0x2400 + char.charCodeAt(0))}b`);
  }
  expect(inertText("\x1b]0;pwned\x07\x1b[2J")).toBe("␛]0;pwned␇␛[2J");
  expect(inertText("one\r\ntwo")).toBe("one␍\ntwo");
  expect(inertText("\0")).toBe("␀");
});

test("DEL becomes ␡ and every C1 control (CSI U+009B, OSC U+009D …) becomes U+FFFD", () => {
  expect(inertText("x\x7fy")).toBe("x␡y");
  for (const char of C1) expect(inertText(char)).toBe("\ufffd");
  expect(inertText("\u009b31mred\u009d0;title\u009c")).toBe("\ufffd31mred\ufffd0;title\ufffd");
});

test("printable text, including non-ASCII just past the C1 range, is left as it is", () => {
  const text = "plain ASCII ~ \u00a0nbsp é 漢字 🙂 ␛ already a picture";
  expect(inertText(text)).toBe(text);
  expect(RAW_CONTROL.test(inertText([...C0, ...C1, "\x7f"].join("")).replace(/[\n\t]/g, ""))).toBe(false);
});

test("inertJson reads back as the same value and its text holds no raw control character", () => {
  const value = { output: [...C0, "\x7f", ...C1].join(""), title: "\x1b]0;x\x07", nested: ["\u009bA", { k: "\u0085" }], n: 3, nothing: null };
  for (const space of [undefined, 2]) {
    const json = inertJson(value, space);
    expect(RAW_CONTROL.test(json.replace(/\n/g, ""))).toBe(false);
    expect(JSON.parse(json)).toEqual(value);
  }
  expect(inertJson("\x7f\u0080\u009f")).toBe('"\\u007f\\u0080\\u009f"');
  expect(inertJson({ esc: "\x1b" })).toBe('{"esc":"\\u001b"}');
});

test("inertJson with an indent is indented JSON (a newline only between members, never inside a string)", () => {
  expect(inertJson({ a: "x\ny" }, 2)).toBe('{\n  "a": "x\\ny"\n}');
});
