// The compact outline against the text snapshot it replaces, on real programs at 80x24:
// characters of `snapshot --format outline --plain` / characters of `snapshot --plain`.
// Targets (issue 14): ≤ 60% for vim, less, man, git, python and bash; ≤ 100% for htop and top.
// `bun bench/outline-size.ts` after `bun run build`; writes its section of bench/RESULTS.md.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { World } from "../tests/helpers/harness.ts";

const ROOT = resolve(import.meta.dir, "..");
type Case = { program: string; argv: string[]; ready: string[]; then?: string[][]; target: number };

const CASES: Case[] = [
  { program: "vim", argv: ["vim", "-u", "NONE", "-N", join(ROOT, "lib/worker/session-core.ts")], ready: ["--ref", "@vim.buffer"], target: 0.6 },
  { program: "vim (short file)", argv: ["vim", "-u", "NONE", "-N", join(ROOT, "tsconfig.json")], ready: ["--ref", "@vim.buffer"], target: 0.6 },
  { program: "less", argv: ["less", join(ROOT, "README.md")], ready: ["--ref", "@less.status"], target: 0.6 },
  { program: "man", argv: ["man", "ls"], ready: ["--regex", "/LS\\(1\\)/"], target: 0.6 },
  { program: "git log", argv: ["git", "-C", ROOT, "log"], ready: ["--ref", "@git.status"], target: 0.6 },
  {
    program: "python (a full screen)", argv: ["python3", "-q"], ready: ["--ref", "@python.prompt"],
    then: [["type", "for i in range(20): print(i, i * i, 'row' * (i % 5))\r\r"], ["wait", "--regex", "/^19 361/m"], ["wait", "--ref", "@python.prompt"]],
    target: 0.6,
  },
  {
    program: "python (a few lines)", argv: ["python3", "-q"], ready: ["--ref", "@python.prompt"],
    then: [["type", "for i in range(8): print(i, i * i)\r\r"], ["wait", "--regex", "/^7 49$/m"], ["type", "import sys; sys.version_info[:2]\r"], ["wait", "--regex", "/^\\(3, \\d+\\)$/m"]],
    target: 0.6,
  },
  {
    program: "bash", argv: ["bash", "--norc", "--noprofile"], ready: ["--ref", "@shell.prompt"],
    then: [["type", `ls -la ${ROOT}\r`], ["wait", "--regex", "/tsconfig.json/"], ["wait", "--ref", "@shell.prompt"]],
    target: 0.6,
  },
  { program: "htop", argv: ["htop"], ready: ["--regex", "/PID\\s+USER/"], target: 1 },
  { program: "top", argv: ["top", "-d", "60"], ready: ["--regex", "/PID\\s+USER/"], target: 1 },
];

const world = await World.start();
const rows: string[] = [];
try {
  for (const c of CASES) {
    const { name } = await world.spawn(c.argv, ["--cols", "80", "--rows", "24"]);
    await world.json(["wait", "--session", name, ...c.ready, "--timeout", "20000"]);
    for (const [verb, ...args] of c.then ?? []) await world.json([verb!, "--session", name, ...args, ...(verb === "wait" ? ["--timeout", "20000"] : [])]);
    await world.json(["wait", "--session", name, "--settled", "300", "--timeout", "20000"]);
    const text = (await world.run(["snapshot", "--session", name, "--plain"])).stdout;
    const outline = (await world.run(["snapshot", "--session", name, "--format", "outline", "--plain"])).stdout;
    const ratio = outline.length / text.length;
    const row = `| ${c.program} | ${text.length} | ${outline.length} | ${(ratio * 100).toFixed(0)}% | ≤ ${c.target * 100}% | ${ratio <= c.target ? "met" : "NOT met"} |`;
    console.log(row);
    if (process.env.SHOW) console.log(outline);
    rows.push(row);
    await world.json(["kill", "--session", name]);
  }
} finally {
  await world[Symbol.asyncDispose]();
}

const section = [
  "<!-- outline-size:begin -->",
  "## Outline size: compact outline vs text snapshot (80x24)",
  "",
  `Produced by \`bun bench/outline-size.ts\` (${new Date().toISOString().slice(0, 10)}): characters of \`snapshot --format outline --plain\` against \`snapshot --plain\` on the same screen.`,
  "",
  "| program | text chars | outline chars | outline / text | target | |",
  "|---|---|---|---|---|---|",
  ...rows,
  "<!-- outline-size:end -->",
].join("\n");
const file = join(ROOT, "bench/RESULTS.md");
const old = readFileSync(file, "utf8");
const marked = /<!-- outline-size:begin -->[\s\S]*<!-- outline-size:end -->/;
writeFileSync(file, marked.test(old) ? old.replace(marked, section) : `${old.replace(/\n*$/, "\n\n")}${section}\n`);
