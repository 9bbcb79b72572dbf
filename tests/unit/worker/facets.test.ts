// The worker's session is a core and facets: the core knows no facet (they reach it through its
// Facet hooks), and no facet knows another. Type imports count too: knowing a facet's types is
// knowing its internals.
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const WORKER = resolve(import.meta.dir, "../../../lib/worker");
const importsOf = (file: string) => [...readFileSync(resolve(WORKER, file), "utf8").matchAll(/^\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/gm)].map((m) => m[1]!);
const facets = [...new Glob("*-facet.ts").scanSync({ cwd: WORKER })].sort();

test("lib/worker has the three facets, one file each", () => {
  expect(facets).toEqual(["browser-facet.ts", "shell-facet.ts", "snapshot-facet.ts"]);
});

test("the session core imports no facet, no facet helper and not the op table", () => {
  const own = importsOf("session-core.ts").filter((path) => path.startsWith("./"));
  expect(own.filter((path) => /facet|navigation|ops\.ts/.test(path))).toEqual([]);
  expect(importsOf("session-core.ts").length).toBeGreaterThan(5); // the pattern does read its imports
});

test("no facet imports another facet", () => {
  for (const facet of facets) {
    const others = importsOf(facet).filter((path) => facets.some((f) => f !== facet && path.endsWith(`/${f}`)));
    expect({ facet, others }).toEqual({ facet, others: [] });
  }
});
