import { expect, test } from "bun:test";
import { chunkText, combineTypeResults, typeRequests } from "../../../lib/transport/typing-chunks.ts";

test("pieces fit the limit as JSON, never split a surrogate pair, and join back to the text", () => {
  const text = "a\"\\\u0001é😀".repeat(5000);
  const pieces = chunkText(text, 100);
  expect(pieces.join("")).toBe(text);
  for (const piece of pieces) {
    expect(Buffer.byteLength(JSON.stringify(piece))).toBeLessThanOrEqual(100);
    expect(piece.charCodeAt(piece.length - 1) >= 0xd800 && piece.charCodeAt(piece.length - 1) <= 0xdbff).toBe(false);
  }
  expect(chunkText("short", 100)).toEqual(["short"]);
  expect(chunkText("", 100)).toEqual([""]);
});

test("aiming goes with the first piece and the wait with the last", () => {
  const requests = typeRequests({ session: "s", text: "x".repeat(600_000), to: "@e1", revision: 3, wait: { text: ["ok"] } });
  expect(requests.length).toBeGreaterThan(1);
  expect(requests[0]).toMatchObject({ session: "s", to: "@e1", revision: 3 });
  expect(requests[0]!.wait).toBeUndefined();
  expect(requests.at(-1)).toMatchObject({ session: "s", wait: { text: ["ok"] } });
  expect(requests.at(-1)!.to).toBeUndefined();
});

test("a CRLF is never split between two pieces (a paste sends it as one CR)", () => {
  const text = "ab\r\n".repeat(1000);
  for (const limit of [7, 8, 9, 10, 11]) {
    const pieces = chunkText(text, limit);
    expect(pieces.join("")).toBe(text);
    for (const piece of pieces) expect(piece.startsWith("\n")).toBe(false);
  }
});

test("long text with a control character is refused before any piece is made, unless paste or raw", () => {
  const text = `${"x".repeat(600_000)}\x03`;
  expect(() => typeRequests({ text })).toThrow("U+0003 (C-c) at character 600001");
  expect(typeRequests({ text, paste: true }).length).toBeGreaterThan(1);
  expect(typeRequests({ text, raw: true }).length).toBeGreaterThan(1);
});

test("the pieces' results add up to one: every byte, the first revision and target, the last wait", () => {
  const combined = combineTypeResults([
    { session: "s", bytes: 10, revisionBefore: 1, revisionAfter: 2, target: { ref: "@e1", row: 0, col: 0 }, controlsRemoved: 1, bracketed: true },
    { session: "s", bytes: 20, revisionBefore: 2, revisionAfter: 3, controlsRemoved: 0, bracketed: true },
    { session: "s", bytes: 6, revisionBefore: 3, revisionAfter: 5, wait: { fired: ["text ok"] }, controlsRemoved: 2, bracketed: true },
  ]);
  expect(combined).toEqual({
    session: "s", bytes: 36, revisionBefore: 1, revisionAfter: 5, target: { ref: "@e1", row: 0, col: 0 }, wait: { fired: ["text ok"] }, controlsRemoved: 3, bracketed: true,
  });
  expect(combineTypeResults([{ ok: true }])).toEqual({ ok: true });
});
