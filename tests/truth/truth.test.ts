// The truth corpus judges the outline (issue 25, item 7): every recorded state of ~30 programs
// is replayed in-process through the outline path live sessions use, and every semantic claim
// (selected, focused, an input, a durable ref's value, where a click by ref lands) is checked
// against hand-made labels. The bar is 0 false claims, asserted outright; known-false.json (empty
// since the outline got there) only names the claims a newly added cast or label shows to be
// false while they are fixed, and the list can only shrink. Every semantic fact must carry
// evidence, and overall recall has a floor.
//
//   bun test tests/truth/truth.test.ts                 check, print the per-program table
//   TRUTH_KNOWN_FALSE=shrink bun test tests/truth/…    drop listed claims that no longer happen
//   TRUTH_KNOWN_FALSE=seed bun test tests/truth/…      list every false claim (only when casts or
//                                                      labels were added: review the diff)
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { judgeCorpus, perProgram, recallOf, recallTable } from "./corpus.ts";

type Known = { cast: string; marker: string; claim: string; why?: string };
const KNOWN_FILE = join(import.meta.dir, "known-false.json");
const mode = process.env.TRUTH_KNOWN_FALSE;

const { states, problems } = await judgeCorpus();
const id = (k: { cast: string; marker: string; claim: string }) => `${k.cast} ${k.marker}: ${k.claim}`;
const falseNow: Known[] = states.flatMap((s) => s.claims.filter((c) => c.verdict === "false").map((c) => ({ cast: s.cast, marker: s.marker, claim: c.key, why: c.why })));
const claimCount = states.reduce((n, s) => n + s.claims.filter((c) => c.kind !== "click").length, 0);
const overall = states.map((s) => recallOf(s.recall)).reduce((a, b) => ({ found: a.found + b.found, labelled: a.labelled + b.labelled }));
const known: Known[] = existsSync(KNOWN_FILE) ? JSON.parse(readFileSync(KNOWN_FILE, "utf8")) : [];

const table = recallTable(perProgram(states));
console.log(`\nTruth corpus: ${states.length} states, ${new Set(states.map((s) => s.program)).size} programs, ${claimCount} claims, ${falseNow.length} false claims, recall ${overall.found}/${overall.labelled} = ${(100 * overall.found / overall.labelled).toFixed(1)}% (recall per program; paste into bench/RESULTS.md)\n\n${table}\n`);

test("every marker of every cast is labelled, and every label's text is where it says", () => {
  expect(problems).toEqual([]);
});

test("the corpus is at least 30 programs and 80 states", () => {
  expect(new Set(states.map((s) => s.program)).size).toBeGreaterThanOrEqual(30);
  expect(states.length).toBeGreaterThanOrEqual(80);
});

test("the outline states no false claim beyond today's known-false.json, and every listed one still happens", () => {
  const nowIds = new Set(falseNow.map(id));
  const knownIds = new Set(known.map(id));
  if (mode === "seed" || mode === "shrink") {
    const keep = mode === "seed" ? falseNow : known.filter((k) => nowIds.has(id(k)));
    writeFileSync(KNOWN_FILE, `${JSON.stringify(keep.map(({ cast, marker, claim, why }) => ({ cast, marker, claim, why })), null, 1)}\n`);
    console.log(`wrote ${keep.length} known false claims to ${KNOWN_FILE}`);
    if (mode === "seed") return;
  }
  const fresh = falseNow.filter((k) => !knownIds.has(id(k)));
  const gone = mode === "shrink" ? [] : known.filter((k) => !nowIds.has(id(k)));
  const report = [
    ...fresh.map((k) => `NEW FALSE CLAIM ${id(k)} — ${k.why}`),
    ...gone.map((k) => `FIXED (remove from known-false.json, or run with TRUTH_KNOWN_FALSE=shrink) ${id(k)}`),
  ];
  if (report.length) console.log(report.join("\n"));
  expect(report).toEqual([]);
});

// The bar itself, whatever known-false.json holds (a seeded list must not hide a false claim).
test("0 false claims: no selected, focused, input, value or click claim in the corpus is false", () => {
  expect(falseNow.map((k) => `${id(k)} — ${k.why}`)).toEqual([]);
});

test("every semantic fact the outline states in the corpus carries its evidence", () => {
  expect(claimCount).toBeGreaterThan(100); // the check below is not vacuous
  expect(states.flatMap((s) => s.unevidenced.map((u) => `${s.cast} ${s.marker}: ${u}`))).toEqual([]);
});

// Overall recall (every label kind together, the table's **all** row) was 250/312 = 80.1% on
// 2026-11-28, after manifests for the untuned programs (line programs, nano, mc, dialog,
// whiptail, fzf, tig, ncdu, Python scripts) and focus_root (top). The floor sits just below it,
// so losing one label fails; raise it when recall rises.
const RECALL_FLOOR = 0.8;
test(`overall recall stays at or above ${RECALL_FLOOR * 100}%`, () => {
  expect(overall.found / overall.labelled).toBeGreaterThanOrEqual(RECALL_FLOOR);
});
