// The cost of matching wait regexes in linear time (re2js) against V8's backtracking engine,
// per evaluation on a full 120×40 screen, for everyday patterns and catastrophic ones.
// `bun bench/regex-budget.ts` (a few seconds).
import { linearPattern } from "../lib/terminal/linear-pattern.ts";

const evilRow = `${"a".repeat(24)}b`;
const screen = Array.from({ length: 40 }, (_, i) => (i % 4 === 3 ? evilRow : `line ${i}: some output text, PASS 12 tests, $ prompt`).padEnd(120, " ").trimEnd()).join("\n");

function perEvalMicros(f: () => unknown, budgetMs = 300): number {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < budgetMs) { f(); n++; }
  return ((performance.now() - start) / n) * 1000;
}

const everyday = ["prompt\\$ ?$", "error: \\w+", "^\\s*\\d+ passed", "/(?:done|finished)/i", "PASS \\d+ tests", "^line 39"];
console.log("pattern | V8 µs/eval | re2js µs/eval");
for (const source of everyday) {
  const slashed = /^\/(.*)\/([a-z]*)$/s.exec(source);
  const v8 = slashed ? new RegExp(slashed[1]!, slashed[2]) : new RegExp(source, "m");
  const linear = linearPattern(source);
  console.log(`${source} | ${perEvalMicros(() => v8.test(screen)).toFixed(1)} | ${perEvalMicros(() => linear.test(screen)).toFixed(1)}`);
}
for (const source of ["(a+)+$", "(a|aa)*c"]) {
  const v8 = new RegExp(source, "m");
  const started = performance.now();
  v8.test(evilRow.slice(0, 22) + "b"); // 22 a's only: the full screen would take minutes
  const v8Ms = performance.now() - started;
  const linear = linearPattern(source);
  console.log(`${source} | ${(v8Ms * 1000).toFixed(0)} on ONE row of 22 a's | ${perEvalMicros(() => linear.test(screen)).toFixed(1)} (whole screen)`);
}
