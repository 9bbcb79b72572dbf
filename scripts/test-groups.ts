// The suite's groups, so CI can run them as separate jobs: `engines` drives the real outside
// engines — the five AI coding CLIs against the model server, and the real Carbonyl (Chromium) —
// whose pace is their own; `core` is everything else (our code against bash, vim, htop, python3 …
// and the fake browser). `bash scripts/test.sh` with no group runs both, as the README says.
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The engines group, by path: a folder ends with "/". tests/unit/scripts/test-groups.test.ts
 * checks that each one exists and that every file using the real Carbonyl is listed. */
export const ENGINE_FILES = [
  "tests/e2e/ai-clis/",
  "tests/e2e/browser.test.ts",
  "tests/e2e/browser-awi.test.ts",
  "tests/e2e/browser-dialog-real.test.ts",
  "tests/e2e/awi-conformance.test.ts",
] as const;

export const GROUPS = ["core", "engines"] as const;
export type Group = (typeof GROUPS)[number];

/** Every test file under tests/, sorted. */
export function allTestFiles(root = "tests"): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.test\.[jt]sx?$/.test(entry.name)) found.push(path);
    }
  };
  walk(root);
  return found.sort();
}

export const isEngineFile = (file: string) => ENGINE_FILES.some((entry) => (entry.endsWith("/") ? file.startsWith(entry) : file === entry));

/** The files of a group. */
export function groupFiles(group: Group, files = allTestFiles()): string[] {
  return files.filter((file) => isEngineFile(file) === (group === "engines"));
}
