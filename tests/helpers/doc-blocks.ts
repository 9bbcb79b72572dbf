// The fenced code blocks of README.md and docs/*.md, for the tests that run them as written
// (docs/contributing.md, "Examples that run"): `sh run`, `ts run` and `js run` blocks run; a
// `sh`, `ts` or `js` block that does not says why (`sh no-run: REASON`).
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");

/** README.md and every page in docs/, as paths relative to the repository. */
export function docFiles(): string[] {
  return ["README.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).sort().map((name) => `docs/${name}`)];
}

export type DocBlock = { file: string; line: number; lang: string; info: string; code: string };

/** Every fenced block (``` fences) of a file, with the line its fence opens on. */
export function fencedBlocks(file: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    blocks.push({ file, line: start + 1, lang: open[1]!, info: open[2]!, code: `${body.join("\n")}\n` });
  }
  return blocks;
}

export const CODE_LANGS = new Set(["sh", "bash", "ts", "js"]);

/** The blocks of README.md and docs/ that run as `lang` (sh, ts or js). */
export function runnableBlocks(lang: "sh" | "ts" | "js"): DocBlock[] {
  return docFiles().flatMap(fencedBlocks).filter((block) => block.lang === lang && block.info === "run");
}
