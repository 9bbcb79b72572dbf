// The suite's two groups (scripts/test-groups.ts) split every test file between them, name only
// files that exist, and put the AI-CLI and real-Carbonyl files in `engines`.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { allTestFiles, ENGINE_FILES, groupFiles } from "../../../scripts/test-groups.ts";

test("core and engines partition the test files; each listed engine file or folder exists", () => {
  const all = allTestFiles();
  const core = groupFiles("core", all);
  const engines = groupFiles("engines", all);
  expect([...core, ...engines].sort()).toEqual(all);
  expect(core.filter((file) => engines.includes(file))).toEqual([]);
  for (const entry of ENGINE_FILES) expect(existsSync(entry)).toBe(true);
  expect(engines.filter((file) => file.startsWith("tests/e2e/ai-clis/")).length).toBeGreaterThanOrEqual(7);
});

test("a file that starts browser sessions with the real Carbonyl and is about browsers is an engines file", () => {
  const browserFiles = allTestFiles().filter((file) => file.startsWith("tests/e2e/") && /\/(browser[^/]*|awi-conformance)\.test\.ts$/.test(file));
  expect(browserFiles.length).toBeGreaterThan(4);
  const real = browserFiles.filter((file) => !readFileSync(file, "utf8").includes("testdata/fake-carbonyl"));
  expect(real.filter((file) => !groupFiles("engines", [file]).length)).toEqual([]);
});

test("the runner refuses an unknown group, or a group with files beside it: exit 64 naming the groups", () => {
  for (const args of [["--group", "bogus"], ["--group", "core", "tests/unit"]]) {
    const run = Bun.spawnSync(["bun", "scripts/test-runner.ts", ...args], { stdout: "pipe", stderr: "pipe" });
    expect(run.exitCode).toBe(64);
    expect(run.stderr.toString()).toBe(`--group takes one of core, engines and no other argument, got ${JSON.stringify(args.join(" "))}\n`);
  }
});
