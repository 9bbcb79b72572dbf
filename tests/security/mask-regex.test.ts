// `# mask:` regexes in snapshot files are data from anywhere (a repository's golden files): they
// match in linear time (RE2), as waits do, so `(a+)+$` cannot hold `replay --expect-snapshot`
// for a minute (issue 24, item 13: 30 such rows took 63.6 s on the backtracking engine).
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareSnapshot, parseSnapshotFile } from "../../lib/record/snapshot-file.ts";
import { BIN } from "../helpers/harness.ts";

/** A row that makes `(a+)+$` backtrack exponentially: a run of a's that does not end the row. */
const ROW = `${"a".repeat(30)}!`;
const ROWS = Array.from({ length: 30 }, () => ROW);

test("a pathological mask over 30 rows is matched in linear time", () => {
  const clock = (time: string) => ROWS.map((row, i) => (i === 3 ? `${row} ${time}` : row));
  const golden = parseSnapshotFile(["# tuiwright snapshot", "# size: 40x30", "# mask: /(a+)+$/", "# mask: /\\d\\d:\\d\\d/", "--- screen", ...clock("09:15")].join("\n"), "golden.snap");
  const actual = { ...golden, screen: clock("17:42") };
  const started = performance.now();
  expect(compareSnapshot(golden, actual, { expected: "golden", actual: "live" })).toBe("");
  expect(performance.now() - started).toBeLessThan(5000);
}, 20_000);

test("replay --expect-snapshot with the pathological mask finishes at once", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tw-mask-"));
  try {
    const cast = join(dir, "rows.cast");
    const golden = join(dir, "rows.snap");
    writeFileSync(cast, `${JSON.stringify({ version: 3, term: { cols: 40, rows: 30 } })}\n[0.01, "o", ${JSON.stringify(ROWS.join("\r\n"))}]\n`);
    writeFileSync(golden, ["# tuiwright snapshot", "# size: 40x30", "# mask: /(a+)+$/", "--- screen", ...ROWS.map((row, i) => (i === 0 ? "b".repeat(ROW.length) : row))].join("\n"));
    const proc = Bun.spawn([BIN, "replay", cast, "--expect-snapshot", golden], { stdout: "pipe", stderr: "pipe" });
    // Bounded: the backtracking engine would take minutes; kill it rather than hang the suite.
    const killer = setTimeout(() => proc.kill("SIGKILL"), 40_000);
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    clearTimeout(killer);
    expect(code).toBe(1); // row 0 differs; every other row is masked alike on both sides
    expect(stdout).toContain("@@ screen row 0 @@");
    expect(stdout).not.toContain("row 1 @@");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test("a mask that has no linear-time form is a bad-data error naming the file and line", () => {
  expect(() => parseSnapshotFile(["# tuiwright snapshot", "# size: 10x2", "# mask: /(a)\\1/", "--- screen", "x"].join("\n"), "back.snap")).toThrow(/back\.snap:3: regex .* cannot be matched in linear time/);
});
