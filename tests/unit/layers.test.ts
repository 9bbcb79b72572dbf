// The layer table holds, and catches what it is for: an upward import, a new folder nobody
// placed, heavy code on the thin CLI's path, an import cycle.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { checkLayers } from "../../scripts/check-layers.ts";

const read = (file: string) => readFileSync(resolve(import.meta.dir, "../..", file), "utf8");

test("the code follows the layer table", () => {
  expect(checkLayers()).toEqual([]);
});

test("a planted upward import fails, naming the file and what its folder may import", () => {
  const problems = checkLayers({ "lib/terminal/screen.ts": `${read("lib/terminal/screen.ts")}\nimport { x } from "../daemon/registry.ts";\n` });
  expect(problems).toContain("lib/terminal/screen.ts imports lib/daemon/registry.ts: lib/terminal may import only lib/protocol");
});

test("a folder with no row, valibot on the thin CLI's path, and a cycle are each reported", () => {
  expect(checkLayers({ "lib/newthing/a.ts": "export const a = 1;\n" })).toContain("lib/newthing/a.ts: folder lib/newthing has no row in scripts/check-layers.ts (say which layers it may import)");
  const thin = checkLayers({ "lib/cli/words.ts": `${read("lib/cli/words.ts")}\nimport * as v from "valibot";\n` });
  expect(thin).toContain("the thin CLI loads valibot: imported by lib/cli/words.ts (reached from main.ts)");
  // node:fs too (~1 ms of every start): the thin CLI's files take it from lib/runtime/node-fs.ts.
  const fs = checkLayers({ "lib/runtime/paths.ts": `${read("lib/runtime/paths.ts")}\nimport { statSync } from "node:fs";\n` });
  expect(fs).toContain("the thin CLI loads node:fs: imported by lib/runtime/paths.ts (reached from main.ts)");
  expect(checkLayers({ "lib/runtime/paths.ts": `${read("lib/runtime/paths.ts")}\nimport type { Stats } from "node:fs";\n` })).toEqual([]);
  const cycle = checkLayers({ "lib/protocol/errors.ts": `${read("lib/protocol/errors.ts")}\nimport "./jsonrpc.ts";\n`, "lib/protocol/jsonrpc.ts": `${read("lib/protocol/jsonrpc.ts")}\nimport "./errors.ts";\n` });
  expect(cycle.some((p) => p.startsWith("import cycle:") && p.includes("lib/protocol/errors.ts") && p.includes("lib/protocol/jsonrpc.ts"))).toBe(true);
});
