// The README and docs/ as a user meets them: every `sh run` and `ts run` block runs as written
// against the compiled binary (the `js run` blocks, which import the npm package, run with Node
// and Deno in tests/e2e/npm-package.test.ts), no code block is left out without a reason, the
// README stays short, and no link leaves the repository or points at nothing.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { BIN, useWorld } from "../helpers/harness.ts";
import { CODE_LANGS, ROOT, docFiles, fencedBlocks, runnableBlocks } from "../helpers/doc-blocks.ts";

const world = useWorld();

/** Pages other branches write (the lead merges them): a link to one is checked once it exists. */

async function runIn(dir: string, argv: string[], env: Record<string, string>) {
  const proc = Bun.spawn(argv, { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, output: stdout + stderr };
}

test("the README is at most 200 lines", () => {
  expect(readFileSync(join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(200);
});

test("the README's two contributor commands are setup and the suite, and .ci/run runs that suite", () => {
  const block = fencedBlocks("README.md").find((b) => b.info.startsWith("no-run: the contributor commands"))!;
  expect(block.code.split("\n").filter(Boolean).map((line) => line.split("#")[0]!.trim())).toEqual(["bash scripts/setup.sh", "bash scripts/test.sh"]);
  expect(readFileSync(join(ROOT, ".ci/run"), "utf8")).toMatch(/^bash scripts\/test.sh /m);
});

test("every sh, ts and js block in README and docs/ runs in the tests or says why not", () => {
  const unmarked = docFiles().flatMap(fencedBlocks)
    .filter((block) => CODE_LANGS.has(block.lang) && block.info !== "run" && !/^no-run: \S/.test(block.info))
    .map((block) => `${block.file}:${block.line} \`\`\`${block.lang} ${block.info}`);
  expect(unmarked).toEqual([]);
  expect(runnableBlocks("sh").length).toBeGreaterThanOrEqual(5);
  expect(runnableBlocks("js").map((block) => block.file)).toEqual(["README.md", "docs/library.md"]);
});

/** The links of a Markdown text, outside fenced blocks and code spans. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```\s*$/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<((?:https?|ftp|mailto):[^>]+)>/g)].map((m) => m[1] ?? m[2]!);
}

test("no link in README or docs/ leaves the repository, and each names a file that exists", () => {
  const bad: string[] = [];
  for (const file of docFiles()) {
    for (const target of links(readFileSync(join(ROOT, file), "utf8"))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/") || target.startsWith("//")) { bad.push(`${file}: ${target} leaves the repository`); continue; }
      const path = target.split("#")[0]!;
      if (path === "") continue;
      const resolved = normalize(join(dirname(file), decodeURI(path)));
      if (resolved.startsWith("..")) bad.push(`${file}: ${target} leaves the repository`);
      else if (!existsSync(join(ROOT, resolved))) bad.push(`${file}: ${target} does not exist`);
    }
  }
  expect(bad).toEqual([]);
});

test("the link checker sees links, and flags outside and missing ones", () => {
  expect(links("[a](https://x.org) `[b](c.md)` ![p](docs/p.svg) <https://y.org>\n```\n[d](e.md)\n```\n")).toEqual(["https://x.org", "docs/p.svg", "https://y.org"]);
});

/** A scratch directory with `tuiwright` (the built binary) first on PATH. */
function scratch(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "tw-doc-"));
  mkdirSync(join(dir, ".bin"));
  symlinkSync(BIN, join(dir, ".bin/tuiwright"));
  return { dir, env: { ...world.env, PATH: `${join(dir, ".bin")}:${process.env.PATH}` } };
}

for (const block of runnableBlocks("sh")) {
  test(`${block.file}:${block.line} (sh) runs as written`, async () => {
    const { dir, env } = scratch();
    const run = await runIn(dir, ["bash", "-e", "-c", block.code], env);
    expect({ code: run.code, output: run.code === 0 ? "" : run.output }).toEqual({ code: 0, output: "" });
  }, 60_000);
}

test("the README's picture is what its quick start draws", async () => {
  const quickStart = runnableBlocks("sh").find((block) => block.file === "README.md" && block.code.includes("session.svg"))!;
  const { dir, env } = scratch();
  const run = await runIn(dir, ["bash", "-e", "-c", quickStart.code], env);
  expect(run.code).toBe(0);
  expect(readFileSync(join(dir, "session.svg"), "utf8")).toBe(readFileSync(join(ROOT, "docs/session.svg"), "utf8"));
  // And the outline printed beside the picture is the one this run printed.
  const shown = /```text\n(@vim application[\s\S]*?)```/.exec(readFileSync(join(ROOT, "README.md"), "utf8"))![1]!;
  expect(run.output).toContain(shown);
}, 60_000);

for (const block of runnableBlocks("ts")) {
  test(`${block.file}:${block.line} (ts, Bun, from the source checkout) runs as written`, async () => {
    // `tuiwright` and `tuiwright/desktop` resolve to this checkout, as for a package depending on it.
    const { dir, env } = scratch();
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules/tuiwright"));
    writeFileSync(join(dir, "example.ts"), block.code);
    const script = join(dir, "example.ts");
    const run = await runIn(ROOT, [process.execPath, script], env);
    expect({ code: run.code, output: run.code === 0 ? "" : run.output }).toEqual({ code: 0, output: "" });
  }, 60_000);
}
