import { expect, test } from "bun:test";
import { chunkText, typeRequests } from "../../../lib/transport/typing-chunks.ts";

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
