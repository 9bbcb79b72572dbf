// Fuzzing the limits of issue 13: the bracketed-paste guard (no input may leave a marker that
// ends the paste early) and hostile terminal sizes in casts (refused, never allocated).
// FUZZ_INPUTS sets the count (the suite runs 3000), FUZZ_SEED the seed.
import { expect, test } from "bun:test";
import { TuiwrightError } from "../../lib/protocol/errors.ts";
import { parseCast } from "../../lib/record/cast-reader.ts";
import { replay } from "../../lib/record/replay.ts";
import { BRACKETED_PASTE_END, BRACKETED_PASTE_START, withoutPasteMarkers } from "../../lib/terminal/paste-guard.ts";
import { MAX_COLS, MAX_ROWS } from "../../lib/terminal/size-limits.ts";
import { fuzzSeed, Prng } from "../helpers/prng.ts";

const INPUTS = Number(process.env.FUZZ_INPUTS ?? 3000);

/** The slow, obviously right answer: remove markers until none is left. */
function naive(text: string): string {
  for (;;) {
    const next = text.replaceAll(BRACKETED_PASTE_END, "").replaceAll(BRACKETED_PASTE_START, "");
    if (next === text) return text;
    text = next;
  }
}

test("paste guard: no input leaves a paste marker, and the result is the remove-until-none fixpoint", () => {
  const rng = new Prng(fuzzSeed());
  const parts = ["\x1b", "[", "2", "0", "1", "~", "x", BRACKETED_PASTE_END, BRACKETED_PASTE_START, "\x1b[20", "1~", "0~", "\x1b[2"];
  for (let i = 0; i < INPUTS; i++) {
    let input = "";
    const length = rng.int(40);
    for (let j = 0; j < length; j++) input += rng.pick(parts);
    const output = withoutPasteMarkers(input);
    const where = `seed ${rng.seed}, input ${JSON.stringify(input)}`;
    if (output.includes(BRACKETED_PASTE_END) || output.includes(BRACKETED_PASTE_START)) throw new Error(`marker left: ${where}`);
    if (output !== naive(input)) throw new Error(`differs from the fixpoint: ${where}`);
  }
  expect(withoutPasteMarkers("\x1b[20\x1b[201~1~")).toBe("");
  expect(withoutPasteMarkers("a\x1b[2\x1b[20\x1b[201~1~00~b")).toBe("ab");
});

test("paste guard: a marker nested 20000 deep is removed whole (in one linear pass)", () => {
  let nested = "";
  for (let i = 0; i < 20000; i++) nested = `\x1b[20${nested}1~`;
  expect(withoutPasteMarkers(nested)).toBe("");
  expect(withoutPasteMarkers(`ok${"\x1b[20".repeat(50000)}`)).toBe(`ok${"\x1b[20".repeat(50000)}`);
});

test("casts with hostile terminal sizes are refused as bad-cast, never allocated", async () => {
  const rng = new Prng(fuzzSeed());
  const sizes = [0, 1, 2, MAX_COLS, MAX_COLS + 1, MAX_ROWS, MAX_ROWS + 1, 100000, 2 ** 31, 2 ** 53, -1, 1.5, 80, 24];
  let refused = 0;
  for (let i = 0; i < Math.min(INPUTS, 300); i++) {
    const cols = rng.pick(sizes);
    const rows = rng.pick(sizes);
    const resize = `${rng.pick(sizes)}x${rng.pick(sizes)}`;
    const text = `${JSON.stringify({ version: 3, term: { cols, rows } })}\n[0.1,"o","x"]\n[0.1,"r",${JSON.stringify(resize)}]\n`;
    try {
      const result = await replay(parseCast(text, "fuzz.cast"), "fuzz.cast");
      expect(result.screen.cols).toBeLessThanOrEqual(MAX_COLS);
      expect(result.screen.rows).toBeLessThanOrEqual(MAX_ROWS);
      result.screen.dispose();
    } catch (error) {
      if (!(error instanceof TuiwrightError) || error.errorName !== "bad-cast") throw new Error(`${text} threw ${String(error)}`);
      refused++;
    }
  }
  expect(refused).toBeGreaterThan(0);
});
