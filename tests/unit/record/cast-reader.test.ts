import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCast, streamCast } from "../../../lib/record/cast-reader.ts";

const dir = mkdtempSync(join(tmpdir(), "tw-cast-stream-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function both(text: string): { parsed: unknown; streamed: unknown } {
  const file = join(dir, "c.cast");
  writeFileSync(file, text);
  const outcome = (f: () => unknown) => { try { return f(); } catch (error) { return { error: (error as Error).message }; } };
  const parsed = outcome(() => parseCast(text, file));
  const streamed = outcome(() => {
    const cast = streamCast(file);
    try {
      const { close: _, events, ...header } = cast;
      return { ...header, events: [...events] };
    } finally {
      cast.close();
    }
  });
  return { parsed, streamed };
}

test("streaming a cast reads what parsing it whole reads, errors included", () => {
  const header = JSON.stringify({ version: 3, term: { cols: 80, rows: 24 }, command: "bash" });
  const events = Array.from({ length: 3000 }, (_, i) => JSON.stringify([0.001, "o", `line ${i} é ${"x".repeat(i % 700)}\r\n`]));
  const cases = [
    [header, ...events].join("\n"),
    [header, ...events, "[0.1, \"o\", \"torn"].join("\n"), // cut off by a crash: kept up to there
    [header, ...events.slice(0, 5), "[0.1, \"o\", \"torn", ...events.slice(5, 7)].join("\n"), // not at the end: an error
    [header, "", "# comment", events[0]!, ""].join("\n"),
    JSON.stringify({ version: 3, term: { cols: 5000, rows: 24 } }),
    "not json",
    "",
  ];
  for (const text of cases) {
    const { parsed, streamed } = both(text);
    expect(streamed).toEqual(parsed);
  }
});

test("a device or directory is not a cast", () => {
  expect(() => streamCast("/dev/zero")).toThrow('cast "/dev/zero" is not a regular file');
  expect(() => streamCast(dir)).toThrow("is a directory, not a cast file");
  expect(() => streamCast(join(dir, "missing.cast"))).toThrow("no such file");
});
