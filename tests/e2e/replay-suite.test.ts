// `replay DIR --expect-snapshot GOLDENS`: a folder of recordings checked in parallel against
// GOLDENS/NAME.snap, as a CI job runs them — a summary with the flaky count, JUnit XML for the
// CI's test view, GitHub Actions annotations — and every bad flag or folder a clear error.
import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useWorld } from "../helpers/harness.ts";

const world = useWorld();
let casts = "";
let goldens = "";

/** An asciicast v3 recording that prints `lines` on a 20x4 terminal, one event each. */
function cast(name: string, lines: string[]): void {
  const header = { version: 3, term: { cols: 20, rows: 4, type: "xterm-256color" }, timestamp: 1_700_000_000, command: "printf" };
  const events = lines.map((line) => JSON.stringify([0.01, "o", `${line}\r\n`]));
  writeFileSync(join(casts, `${name}.cast`), `${JSON.stringify(header)}\n${events.join("\n")}\n`);
}

beforeEach(() => {
  const dir = join(world.dir, `suite-${Math.random().toString(36).slice(2)}`);
  casts = join(dir, "casts");
  goldens = join(dir, "goldens");
  mkdirSync(casts, { recursive: true });
  mkdirSync(goldens);
  for (const name of ["alpha", "beta", "gamma", "delta"]) cast(name, [`${name} one`, `${name} two`]);
});

test("--update writes a golden per cast; then every cast passes, checked in parallel, with a summary", async () => {
  const update = await world.run(["replay", casts, "--expect-snapshot", goldens, "--update"]);
  expect(update.code).toBe(0);
  expect(readFileSync(join(goldens, "beta.snap"), "utf8")).toContain("beta two");
  const run = await world.run(["replay", casts, "--expect-snapshot", goldens, "--jobs", "4", "--json"]);
  expect(run.code).toBe(0);
  const report = JSON.parse(run.stdout);
  expect(report).toMatchObject({ passed: 4, failed: 0, flaky: 0, jobs: 4 });
  expect(report.casts.map((c: any) => [c.name, c.status])).toEqual([["alpha", "passed"], ["beta", "passed"], ["delta", "passed"], ["gamma", "passed"]]);
  // Parallel: some cast started before another had finished.
  const spans = report.casts.map((c: any) => [c.startMs, c.startMs + c.ms] as const);
  expect(spans.some(([start]: readonly number[], i: number) => spans.some(([s, end]: readonly number[], j: number) => i !== j && s! <= start! && start! < end!))).toBe(true);
  const human = await world.run(["replay", casts, "--expect-snapshot", goldens]);
  expect(human.stdout).toContain("4 casts: 4 passed, 0 failed, 0 flaky");
});

test("a cast that differs fails the run (exit 1) with its diff, JUnit XML and a GitHub annotation; retries do not make it flaky", async () => {
  expect((await world.run(["replay", casts, "--expect-snapshot", goldens, "--update"])).code).toBe(0);
  cast("gamma", ["gamma one", "gamma <b> & \"q\""]);
  writeFileSync(join(casts, "broken.cast"), "not a cast\n");
  const junit = join(world.dir, "junit.xml");
  const run = await world.run(["replay", casts, "--expect-snapshot", goldens, "--junit", junit, "--annotations", "github", "--retries", "2"]);
  expect(run.code).toBe(1);
  expect(run.stdout).toContain("FAIL gamma");
  expect(run.stdout).toContain("+gamma <b> & \"q\"");
  expect(run.stdout).toContain("5 casts: 3 passed, 2 failed, 0 flaky");
  // GitHub Actions workflow commands: one ::error per failure, newlines and % escaped, on the cast's file.
  const annotation = run.stdout.split("\n").find((line) => line.startsWith("::error file=") && line.includes("gamma"))!;
  expect(annotation).toContain(`::error file=${join(casts, "gamma.cast")},title=replay gamma::the replay differs from ${join(goldens, "gamma.snap")} (3 attempts)%0A`);
  expect(annotation).not.toContain("\n");
  expect(run.stdout).toContain("::error file=" + join(casts, "broken.cast"));
  // The XML is well formed (python's parser) and says what failed.
  const parsed = Bun.spawnSync(["python3", "-c", "import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); s=r.find('testsuite'); print(r.get('tests'), r.get('failures'), r.get('errors'), [(c.get('name'), [e.tag for e in c]) for c in s.findall('testcase')]); print(s.find(\"testcase[@name='gamma']/failure\").text)", junit]);
  const [counts, ...diff] = parsed.stdout.toString().split("\n");
  expect(parsed.exitCode).toBe(0);
  expect(counts).toBe("5 1 1 [('alpha', []), ('beta', []), ('broken', ['error']), ('delta', []), ('gamma', ['failure'])]");
  expect(diff.join("\n")).toContain("+gamma <b> & \"q\"");
});

test("a cast without a golden fails and says how to write it; bad flags and folders are usage errors", async () => {
  const missing = await world.run(["replay", casts, "--expect-snapshot", goldens]);
  expect(missing.code).toBe(1);
  expect(missing.stdout).toContain(`no snapshot file ${JSON.stringify(join(goldens, "alpha.snap"))}`);
  const cases: [string[], number, string][] = [
    [["replay", casts], 64, "a folder of casts needs --expect-snapshot DIR"],
    [["replay", casts, "--expect-snapshot", join(goldens, "nope")], 66, "no folder"],
    [["replay", join(world.dir, "empty-does-not-exist"), "--expect-snapshot", goldens], 66, "does not exist"],
    [["replay", goldens, "--expect-snapshot", goldens], 66, "no .cast files in"],
    [["replay", casts, "--expect-snapshot", goldens, "--jobs", "0"], 64, "--jobs must be 1..64"],
    [["replay", casts, "--expect-snapshot", goldens, "--retries", "-1"], 64, "--retries must be 0..10"],
    [["replay", casts, "--expect-snapshot", goldens, "--annotations", "gitlab"], 64, "--annotations is one of github"],
    [["replay", casts, "--expect-snapshot", goldens, "--format", "outline"], 64, "--format goes with one cast"],
    [["replay", join(casts, "alpha.cast"), "--expect-snapshot", goldens, "--junit", "x.xml"], 64, "--jobs, --retries, --junit and --annotations go with a folder of casts"],
  ];
  for (const [argv, code, message] of cases) {
    const run = await world.run(argv);
    expect({ argv, code: run.code, stderr: run.stderr }).toEqual({ argv, code, stderr: expect.stringContaining(message) });
  }
});
