// Cell widths like a modern terminal: grapheme clusters (the rules the AI coding CLIs lay their
// rows out by), and casts replayed under the rules they were recorded with.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Screen } from "../../../lib/terminal/screen.ts";
import { replay } from "../../../lib/record/replay.ts";
import { streamCast } from "../../../lib/record/cast-reader.ts";

const dir = mkdtempSync(join(tmpdir(), "tw-widths-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Skin tone, a ZWJ family, a flag, CJK, a letter with a combining mark (e + U+0301), a keycap.
const SAMPLES: [string, number][] = [["👍🏽", 2], ["👨‍👩‍👧", 2], ["🇫🇷", 2], ["漢字", 4], ["e\u0301", 1], ["1️⃣", 2]];

test("a live screen gives each grapheme cluster the cells the CLIs assume, and keeps every character", async () => {
  const screen = new Screen({ cols: 40, rows: 4, scrollback: 0 });
  for (const [text, cells] of SAMPLES) {
    await screen.write(`\x1b[H\x1b[2K${text}|`);
    expect({ text, col: screen.cursor.col }).toEqual({ text, col: cells + 1 });
    expect(screen.lines()[0]).toBe(`${text}|`);
  }
  // A row the width of the screen in 2-cell emoji does not wrap early (Pi's rows wrapped).
  await screen.write(`\x1b[2J\x1b[H${"👍🏽".repeat(20)}`);
  expect(screen.lines()[0]).toBe("👍🏽".repeat(20));
  expect(screen.lines()[1]).toBe("");
  screen.dispose();
});

test("a cast replays under the widths it was recorded with: graphemes when its header says so, per code point before", async () => {
  const event = JSON.stringify([0.01, "o", "👍🏽👨‍👩‍👧|"]);
  const cast = (header: Record<string, unknown>, name: string) => {
    const file = join(dir, name);
    writeFileSync(file, `${JSON.stringify({ version: 3, term: { cols: 40, rows: 4 }, ...header })}\n${event}\n`);
    return file;
  };
  const at = async (file: string) => {
    const stream = streamCast(file);
    try {
      const { screen } = await replay(stream, file);
      const col = screen.cursor.col;
      screen.dispose();
      return col;
    } finally {
      stream.close();
    }
  };
  expect(await at(cast({ widths: "graphemes" }, "new.cast"))).toBe(5);
  expect(await at(cast({}, "old.cast"))).toBe(11); // 4 + 6 cells, then "|"
});
