// docs/architecture.md is drawn from the layer rules scripts/check-layers.ts enforces: a rule
// changed without regenerating the file fails here.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { ALLOWED } from "../../scripts/check-layers.ts";
import { METHODS } from "../../lib/protocol/methods.ts";
import { ARCHITECTURE_DOC, architectureDoc, directLinks, forwarding, layerRanks } from "../../scripts/gen-architecture-doc.ts";

test("docs/architecture.md is the layer rules as generated (bun scripts/gen-architecture-doc.ts)", () => {
  expect(readFileSync(ARCHITECTURE_DOC, "utf8")).toBe(architectureDoc());
});

test("a changed rule changes the diagram: a new allowed import is a new arrow and row", () => {
  const loosened = { ...ALLOWED, "lib/terminal": [...ALLOWED["lib/terminal"]!, "lib/runtime"] };
  expect(architectureDoc()).not.toContain("lib_terminal --> lib_runtime");
  expect(architectureDoc(loosened)).toContain("lib_terminal --> lib_runtime");
  expect(architectureDoc(loosened)).toContain("| `lib/terminal` | 2 | `lib/protocol`, `lib/runtime` |");
});

test("ranks put each folder above everything it may import; implied arrows are left out", () => {
  const rules = { a: ["b", "c"], b: ["c"], c: [] };
  expect(Object.fromEntries(layerRanks(rules))).toEqual({ a: 2, b: 1, c: 0 });
  expect(directLinks(rules)).toEqual([["a", "b"], ["b", "c"]]);
  const ranks = layerRanks();
  for (const [folder, may] of Object.entries(ALLOWED)) for (const to of may.filter((m) => m !== "*")) expect(ranks.get(folder)!).toBeGreaterThan(ranks.get(to)!);
});

test("the forwarding sentence is read from the method table: resize is forwarded, spawn is not", () => {
  const { forwarded, handled } = forwarding();
  expect(forwarded).toContain("resize");
  expect(handled).toContain("spawn");
  expect(handled).not.toContain("list"); // takes no session
  expect(forwarded.length).toBe(Object.values(METHODS).filter((m) => "forward" in m && m.forward).length);
  const spawnForwarded = { ...METHODS, spawn: { ...METHODS.spawn, forward: true as const } };
  expect(forwarding(spawnForwarded).handled).not.toContain("spawn");
  expect(architectureDoc()).toContain(`${forwarded.length} methods are: every one that takes a session but ${handled[0]}`);
});
