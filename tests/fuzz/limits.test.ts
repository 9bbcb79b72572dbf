// Fuzzing the limits of issue 13: the bracketed-paste guard (no input may leave a marker that
// ends the paste early) and hostile terminal sizes in casts (refused, never allocated).
// FUZZ_INPUTS sets the count (the suite runs 3000), FUZZ_SEED the seed.
import { expect, test } from "bun:test";
import { TuiwrightError } from "../../lib/protocol/errors.ts";
import { parseCast } from "../../lib/record/cast-reader.ts";
import { replay } from "../../lib/record/replay.ts";
import { linearPattern } from "../../lib/terminal/linear-pattern.ts";
import { BRACKETED_PASTE_END, BRACKETED_PASTE_START, pasteText } from "../../lib/terminal/paste-guard.ts";
import { MAX_COLS, MAX_ROWS } from "../../lib/protocol/size-limits.ts";
import { fuzzSeed, Prng } from "../helpers/prng.ts";

const INPUTS = Number(process.env.FUZZ_INPUTS ?? 3000);

test("paste guard: no input leaves a paste marker or a control character, and every other character arrives in order", () => {
  const rng = new Prng(fuzzSeed());
  const parts = ["\x1b", "[", "2", "0", "1", "~", "x", "\x03", "\x1a", "\x1c", "\x9b", "\t", "\r", "\n", BRACKETED_PASTE_END, BRACKETED_PASTE_START, "\x1b[20", "1~", "0~", "\x1b[2"];
  for (let i = 0; i < INPUTS; i++) {
    let input = "";
    const length = rng.int(40);
    for (let j = 0; j < length; j++) input += rng.pick(parts);
    const output = pasteText(input).text;
    const where = `seed ${rng.seed}, input ${JSON.stringify(input)}`;
    if (output.includes(BRACKETED_PASTE_END) || output.includes(BRACKETED_PASTE_START)) throw new Error(`marker left: ${where}`);
    if (/[\x00-\x08\x0a-\x0c\x0e-\x1f\x7f-\x9f]/.test(output)) throw new Error(`control character left: ${where}`);
    const printable = (text: string) => text.replace(/[^ -~]/g, "");
    if (printable(output) !== printable(input)) throw new Error(`text lost or reordered: ${where}`);
  }
  expect(pasteText("\x1b[20\x1b[201~1~").text).toBe("[20[201~1~");
});

test("paste guard: a marker nested 20000 deep is defused in one linear pass", () => {
  let nested = "";
  for (let i = 0; i < 20000; i++) nested = `\x1b[20${nested}1~`;
  expect(pasteText(nested).removed).toBe(20000);
  expect(pasteText(nested).text).not.toContain("\x1b");
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

test("regex budget: random patterns match in linear time exactly as JavaScript would on short texts", () => {
  const rng = new Prng(fuzzSeed());
  const pieces = ["a", "b", "ab", "a+", "b*", "a?", "(a|b)", "(a+)+", "(a|aa)*", "[ab]", "[^a]", ".", "^", "$", "\\d", "x{2,3}", "(?:ab)+", "\n", "|"];
  let compared = 0;
  for (let i = 0; i < INPUTS; i++) {
    let source = "";
    for (let j = 1 + rng.int(6); j > 0; j--) source += rng.pick(pieces);
    const flags = rng.pick(["", "i", "m", "s", "im"]);
    const text = `/${source.replaceAll("\n", "\\n")}/${flags}`;
    let js: RegExp;
    try { js = new RegExp(source.replaceAll("\n", "\\n"), flags); } catch { continue; }
    const linear = linearPattern(text);
    for (let k = 0; k < 5; k++) {
      let subject = "";
      for (let n = rng.int(14); n > 0; n--) subject += rng.pick(["a", "b", "A", "\n", "1", "x"]);
      if (linear.test(subject) !== js.test(subject)) throw new Error(`seed ${rng.seed}: ${text} on ${JSON.stringify(subject)}: re2 ${linear.test(subject)}, JS ${js.test(subject)}`);
      compared++;
    }
  }
  expect(compared).toBeGreaterThan(0);
  // And the catastrophic ones finish on a long row (V8 would take longer than the universe).
  const row = `${"a".repeat(5000)}b`;
  expect(linearPattern("(a+)+$").test(row)).toBe(false);
  expect(linearPattern("(a|aa)*c").test(row)).toBe(false);
}, 300_000); // `bun run fuzz` runs 50000 patterns
