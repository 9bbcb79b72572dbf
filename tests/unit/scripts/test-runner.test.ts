// scripts/test-runner.ts counts honestly: a test that passed only when its file ran again is
// flaky (never passed), a test that fails both times is failed, and more flaky tests than the
// budget fail the run. .ci/run turns the closing line into CI's `N passed, N failed`.
import { expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseRun, tally } from "../../../scripts/test-runner.ts";

const ROOT = resolve(import.meta.dir, "../../..");

/** A file with a steady test and one that fails on its first run only (a counter file says
 * whether it ran before), and a file whose test always fails. */
function fixtures(): { flaky: string; broken: string } {
  const dir = mkdtempSync(join(tmpdir(), "tw-runner-"));
  const counter = join(dir, "ran-before");
  const flaky = join(dir, "flaky.test.ts");
  writeFileSync(flaky, `import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
test("steady", () => expect(1).toBe(1));
describe("group", () => {
  test("fails once", () => {
    const ranBefore = existsSync(${JSON.stringify(counter)});
    writeFileSync(${JSON.stringify(counter)}, "1");
    expect(ranBefore).toBe(true);
  });
});
`);
  const broken = join(dir, "broken.test.ts");
  writeFileSync(broken, `import { expect, test } from "bun:test";\ntest("always fails", () => expect(1).toBe(2));\ntest.skip("skipped", () => {});\n`);
  return { flaky, broken };
}

function runner(files: string[], budget: string): { status: number; lines: string[] } {
  // A fresh mark: the outer run's daemons are not this run's leftovers. No timings update.
  const env = { ...process.env, TUIWRIGHT_TEST_FLAKY_BUDGET: budget, TUIWRIGHT_TEST_JOBS: "2", TUIWRIGHT_TEST_RUN: `nested-${process.pid}-${Math.random()}`, TUIWRIGHT_TEST_UPDATE_TIMINGS: "" };
  const run = Bun.spawnSync(["bun", "scripts/test-runner.ts", ...files], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  return { status: run.exitCode, lines: run.stdout.toString().trimEnd().split("\n") };
}

test("a test that fails once and then passes is flaky, one that fails twice is failed", () => {
  const { flaky, broken } = fixtures();
  const { status, lines } = runner([flaky, broken], "2");
  expect(lines.at(-1)).toBe("1 passed, 1 failed, 1 flaky");
  expect(status).toBe(1);
  expect(lines.some((l) => l.endsWith("flaky.test.ts > group > fails once"))).toBe(true);
  expect(lines.some((l) => l.endsWith("broken.test.ts > always fails"))).toBe(true);
});

test("flaky tests within the budget leave the run green; over it the run fails and says why", () => {
  const within = runner([fixtures().flaky], "2");
  expect(within.lines.at(-1)).toBe("1 passed, 0 failed, 1 flaky");
  expect(within.status).toBe(0);
  const over = runner([fixtures().flaky], "0");
  expect(over.lines.at(-1)).toBe("1 passed, 0 failed, 1 flaky");
  expect(over.lines).toContain("flaky budget exceeded: 1 flaky tests, TUIWRIGHT_TEST_FLAKY_BUDGET is 0");
  expect(over.status).toBe(1);
});

test("a bad budget is a usage error (64)", () => {
  const run = runner([fixtures().flaky], "two");
  expect(run.status).toBe(64);
});

test("a test that passed and then failed when its file ran again is flaky too", () => {
  const first = parseRun("a.test.ts:\n(pass) one [1ms]\n(fail) two [1ms]\n\n 1 pass\n 1 fail\n").results;
  const again = parseRun("a.test.ts:\n(fail) one [1ms]\n(fail) two [2ms]\n").results;
  expect(tally(first, again)).toMatchObject({ passed: 0, failed: 1, flaky: 1, failedTests: ["a.test.ts > two"], flakyTests: ["a.test.ts > one"] });
  // An error outside any test is one failing test of its file.
  const crashed = parseRun("b.test.ts:\n(pass) one\n# Unhandled error between tests\n");
  expect(crashed.failingFiles).toEqual(["b.test.ts"]);
  // …and when it does not come back as the file runs again, it was flaky.
  expect(tally(crashed.results, parseRun("b.test.ts:\n(pass) one\n").results)).toMatchObject({ passed: 1, failed: 0, flaky: 1, flakyTests: ["b.test.ts > (error outside a test)"] });
});

/** .ci/run, copied beside a stand-in scripts/test.sh that ends as given. */
function ciRun(lastLine: string, status: number): { status: number; last: string } {
  const dir = mkdtempSync(join(tmpdir(), "tw-ci-"));
  mkdirSync(join(dir, ".ci"));
  mkdirSync(join(dir, "scripts"));
  copyFileSync(join(ROOT, ".ci/run"), join(dir, ".ci/run"));
  chmodSync(join(dir, ".ci/run"), 0o755);
  writeFileSync(join(dir, "scripts/test.sh"), `echo "some output"\necho ${JSON.stringify(lastLine)}\nexit ${status}\n`);
  const run = Bun.spawnSync(["bash", join(dir, ".ci/run")], { stdout: "pipe", stderr: "pipe" });
  return { status: run.exitCode, last: run.stdout.toString().trimEnd().split("\n").at(-1)! };
}

test(".ci/run ends with `N passed, N failed` agreeing with the exit status", () => {
  // Green with flaky tests within the budget: they are in neither number.
  expect(ciRun("10 passed, 0 failed, 2 flaky", 0)).toEqual({ status: 0, last: "10 passed, 0 failed" });
  // Red because of the budget: the flaky tests count as failed.
  expect(ciRun("10 passed, 0 failed, 3 flaky", 1)).toEqual({ status: 1, last: "10 passed, 3 failed" });
  expect(ciRun("10 passed, 1 failed, 0 flaky", 1)).toEqual({ status: 1, last: "10 passed, 1 failed" });
  // Stopped before any test ran (a type error): still a red line.
  expect(ciRun("error TS2322: something", 1)).toEqual({ status: 1, last: "0 passed, 1 failed" });
});
