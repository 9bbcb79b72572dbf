// Seeded mutation fuzzing of the parsers that read user input: selectors, TOML manifests and
// asciicast files. Each mutated input must either parse or fail with a TuiwrightError of its
// own kind (a message naming the problem) — never a TypeError, a RangeError or a hang.
// FUZZ_INPUTS sets the count per parser (the suite runs 3000), FUZZ_SEED the seed.
import { expect, test } from "bun:test";
import { BUILTIN_MANIFESTS } from "../../lib/adapters/builtins.ts";
import { loadManifest } from "../../lib/adapters/load-manifest.ts";
import { TuiwrightError } from "../../lib/protocol/errors.ts";
import { parseCast } from "../../lib/record/cast-reader.ts";
import { parseSelector } from "../../lib/selector/parse.ts";
import { fuzzSeed, Prng } from "../helpers/prng.ts";

const INPUTS = Number(process.env.FUZZ_INPUTS ?? 3000);

const SELECTORS = [
  "@e12", "button", 'button[name="OK"]', "list > item:selected", "region[role=editor] item", 'item[name~="a.*b"i]',
  "@vim.mode", "panel:focused, menu > item[value^=x]", '[name*="é"]', "*",
];

const CAST = [
  '{"version":3,"term":{"cols":80,"rows":24},"command":"bash","title":"t"}',
  '[0.1,"o","hello \\u001b[1mworld\\u001b[0m\\r\\n"]',
  '[0.05,"i","a"]',
  '[0.2,"r","100x30"]',
  '[0.01,"m","step"]',
  '[0.3,"x","0"]',
].join("\n");

/** Runs `parse` on mutations of the seeds; returns how many parsed and how many were refused. */
function fuzz(name: string, seeds: string[], parse: (input: string) => unknown, errorName: string): { parsed: number; refused: number } {
  const rng = new Prng(fuzzSeed());
  let parsed = 0;
  let refused = 0;
  for (let i = 0; i < INPUTS; i++) {
    const input = rng.mutate(rng.pick(seeds), 1 + rng.int(6));
    try {
      parse(input);
      parsed++;
    } catch (error) {
      if (!(error instanceof TuiwrightError) || error.errorName !== errorName || error.message.length === 0) {
        throw new Error(`${name} (seed ${rng.seed}, input ${JSON.stringify(input)}) threw ${error instanceof Error ? error.stack : String(error)}`);
      }
      refused++;
    }
  }
  return { parsed, refused };
}

test("selector parser: mutated selectors parse or are bad-selector errors", () => {
  const { parsed, refused } = fuzz("parseSelector", SELECTORS, parseSelector, "bad-selector");
  expect(parsed).toBeGreaterThan(0);
  expect(refused).toBeGreaterThan(0);
});

test("manifest loader: mutated built-in manifests load or are bad-manifest errors", () => {
  const { parsed, refused } = fuzz("loadManifest", BUILTIN_MANIFESTS.map((m) => m.source), (s) => loadManifest(s, "fuzz.toml"), "bad-manifest");
  expect(parsed + refused).toBe(INPUTS);
  expect(refused).toBeGreaterThan(0);
});

test("cast reader: mutated casts parse or are bad-cast errors", () => {
  const { parsed, refused } = fuzz("parseCast", [CAST], (s) => parseCast(s, "fuzz.cast"), "bad-cast");
  expect(parsed).toBeGreaterThan(0);
  expect(refused).toBeGreaterThan(0);
});
