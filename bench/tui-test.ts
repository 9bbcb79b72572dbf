// tuiwright against @microsoft/tui-test on the same three tests (bench/tui-test/: bash echo, vim
// insert + golden, a python REPL), each tool on its own runner: tui-test's CLI (Node), and bun
// test with the tuiwright library. Installs @microsoft/tui-test from npm into a scratch folder
// (node-pty's prebuilt binary; no install scripts run), runs each suite ROUNDS times alternately
// (the first run of each writes its golden), then once more with the vim golden changed, to time
// a settled screen that differs. Rewrites the "tui-test" section of bench/RESULTS.md.
// `bun bench/tui-test.ts [ROUNDS]` after `bun run build`.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const ROUNDS = Number(process.argv[2] ?? 5);
const TUI_TEST_VERSION = "0.0.2";
const dir = mkdtempSync(join(tmpdir(), "tw-tui-test-"));
const env = { ...process.env, TUIWRIGHT_NS: `bench-tui-test-${process.pid}`, TUIWRIGHT_BIN: join(ROOT, "dist/tuiwright") } as Record<string, string>;
delete env.CI;

function sh(argv: string[], cwd = dir): { code: number; out: string; ms: number } {
  const started = performance.now();
  const run = Bun.spawnSync(argv, { cwd, env, stdout: "pipe", stderr: "pipe" });
  return { code: run.exitCode, out: run.stdout.toString() + run.stderr.toString(), ms: performance.now() - started };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// The two projects.
const tt = join(dir, "tui-test");
const tw = join(dir, "tuiwright");
for (const project of [tt, tw]) mkdirSync(project, { recursive: true });
writeFileSync(join(tt, "package.json"), JSON.stringify({ name: "tt", private: true, type: "module" }));
const install = sh(["npm", "install", "--no-fund", "--no-audit", `@microsoft/tui-test@${TUI_TEST_VERSION}`], tt);
if (install.code !== 0) throw new Error(`npm install @microsoft/tui-test failed:\n${install.out}`);
writeFileSync(join(tt, "tui-test.config.ts"), 'import { defineConfig } from "@microsoft/tui-test";\nexport default defineConfig({ retries: 0, trace: false });\n');
mkdirSync(join(tt, "tests"));
copyFileSync(join(ROOT, "bench/tui-test/same.tui-test.ts"), join(tt, "tests/same.test.ts"));
mkdirSync(join(tw, "node_modules"));
symlinkSync(ROOT, join(tw, "node_modules/tuiwright"));
copyFileSync(join(ROOT, "bench/tui-test/same.tuiwright.ts"), join(tw, "same.test.ts"));

const runTuiTest = () => sh([join(tt, "node_modules/.bin/tui-test")], tt);
const runTuiwright = () => sh([process.execPath, "test", "same.test.ts"], tw);
const passed = (out: string, tool: "tt" | "tw") => Number((tool === "tt" ? /tests: (?:\d+ failed, )?(\d+) passed/ : /^ *(\d+) pass$/m).exec(out)?.[1] ?? 0);

const walls = { tt: [] as number[], tw: [] as number[] };
const passes = { tt: [] as number[], tw: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  const a = runTuiTest();
  walls.tt.push(a.ms); passes.tt.push(passed(a.out, "tt"));
  const b = runTuiwright();
  walls.tw.push(b.ms); passes.tw.push(passed(b.out, "tw"));
}

// A settled screen that differs from its golden: how long until the vim test fails.
const ttSnapDir = join(tt, "tests/__snapshots__");
for (const name of readdirSync(ttSnapDir)) {
  const file = join(ttSnapDir, name);
  writeFileSync(file, readFileSync(file, "utf8").replace("hello", "HELLO"));
}
writeFileSync(join(tw, "vim.snap"), readFileSync(join(tw, "vim.snap"), "utf8").replace("hello", "HELLO"));
const ttFail = runTuiTest();
const twFail = runTuiwright();
const ttVimFail = /✘ .*vim.*\((\d+(?:\.\d+)?)(m?s)\)/.exec(ttFail.out);
const twVimFail = /\(fail\) vim .*\[(\d+(?:\.\d+)?)ms\]/.exec(twFail.out);
const ttFailMs = ttVimFail ? Number(ttVimFail[1]) * (ttVimFail[2] === "s" ? 1000 : 1) : NaN;
const twFailMs = twVimFail ? Number(twVimFail[1]) : NaN;

sh([join(ROOT, "dist/tuiwright"), "daemon", "stop"]);
rmSync(dir, { recursive: true, force: true });

const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const rows = [
  `| wall time of the 3 tests, median of ${ROUNDS} runs (runner start included) | ${secs(median(walls.tw))} | ${secs(median(walls.tt))} |`,
  `| runs with all 3 passing | ${passes.tw.filter((n) => n === 3).length} of ${ROUNDS} | ${passes.tt.filter((n) => n === 3).length} of ${ROUNDS} |`,
  `| the vim test, golden changed: time until it fails | ${Number.isNaN(twFailMs) ? "did not fail" : secs(twFailMs)} | ${Number.isNaN(ttFailMs) ? "did not fail" : secs(ttFailMs)} |`,
];
const section = `## tuiwright vs @microsoft/tui-test ${TUI_TEST_VERSION} (\`bun bench/tui-test.ts ${ROUNDS}\`)

The same three tests (bench/tui-test/: bash echo, vim insert + golden, a python REPL, 60x12), each
on its own runner: tui-test's CLI on Node ${Bun.spawnSync(["node", "--version"]).stdout.toString().trim()}, and \`bun test\` with the tuiwright library.
Machine load average at the end of the run: ${load} (2 cores, shared with other builds).

| measured | tuiwright | tui-test |
|---|---|---|
${rows.join("\n")}

| feature | tuiwright | tui-test |
|---|---|---|
| golden written on the first run | yes (\`toMatchScreen\`; not under CI=true) | yes (\`toMatchSnapshot\`) |
| update goldens | \`TUIWRIGHT_UPDATE_SNAPSHOTS=1\` or \`{update: true}\` | \`-u\` |
| settled screen that differs fails at once, with a diff | yes (after 200 ms still; timed above) | timed above (its tests take ~5 s each here, passing or not) |
| retries and a flaky count | live tests: no (bun test has no retries); \`replay DIR --retries N\` counts flaky | yes (\`retries\`, "flaky" in the report) |
| JUnit XML | \`bun test --reporter=junit\`; \`replay DIR --junit FILE\` | no (reporter: list only) |
| CI annotations | \`replay DIR --annotations github\` | no |
| recordings of every run, replayable offline, HTML report | yes (asciicast v3, \`replay\`, \`report\`) | traces (\`--trace\`), its own viewer |
| runtimes | Node ≥ 20, Deno, Bun | Node, Bun |
| platforms | Linux, macOS | Linux, macOS, Windows |
| outline with refs, semantic facts, manifests | yes | no (text locators) |
| the same sessions from a CLI, MCP, HTTP | yes | no |

Behind on two rows, and why: **a flaky count for live tests** — tuiwright is a library, not a
runner: bun test retries (\`--retry\`) but does not count a pass on a retry as flaky (only
\`replay DIR\` does, for recordings); **Windows** — no ConPTY backend (Linux and macOS PTYs only).
`;
const results = join(ROOT, "bench/RESULTS.md");
const text = readFileSync(results, "utf8");
const start = text.indexOf("## tuiwright vs @microsoft/tui-test");
const end = start < 0 ? -1 : text.indexOf("\n## ", start + 1);
writeFileSync(results, start < 0 ? `${text.trimEnd()}\n\n${section}` : text.slice(0, start) + section + (end < 0 ? "" : text.slice(end + 1)));
console.log(section);
