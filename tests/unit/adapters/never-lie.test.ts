// "Never lie": every built-in manifest, over casts recorded from the real programs
// (tests/testdata/casts, made by tests/testdata/record-dom-casts.ts), frame by frame — after
// every output event, half-drawn screens included — claims nothing the frame contradicts:
// every node's text is on the frame inside its box, a selected node is drawn highlighted, a
// keyed item starts with its key, and each value has the evidence its manifest's table names.
import { shownText } from "../../../lib/outline/container-name.ts";
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_MANIFESTS } from "../../../lib/adapters/builtins.ts";
import { loadManifest } from "../../../lib/adapters/load-manifest.ts";
import { outlineFor } from "../../../lib/adapters/outline-for.ts";
import { walk, type OutlineNode } from "../../../lib/outline/types.ts";
import { parseCast } from "../../../lib/record/cast-reader.ts";
import type { Grid } from "../../../lib/terminal/grid.ts";
import { Screen } from "../../../lib/terminal/screen.ts";

const CASTS = join(import.meta.dir, "../../testdata/casts");
const manifests = BUILTIN_MANIFESTS.map(({ file, source }) => loadManifest(source, file));

/** Evidence each value needs in its node's own text (the manifests' value tables). */
const EVIDENCE: Record<string, Record<string, (text: string) => boolean>> = {
  "@vim.mode": {
    insert: (t) => t.startsWith("-- INSERT --"),
    replace: (t) => t.startsWith("-- REPLACE --"),
    vreplace: (t) => t.startsWith("-- VREPLACE --"),
    visual: (t) => /^-- (\(insert\) )?VISUAL --/.test(t),
    "visual-line": (t) => /^-- (\(insert\) )?VISUAL LINE --/.test(t),
    "visual-block": (t) => /^-- (\(insert\) )?VISUAL BLOCK --/.test(t),
    select: (t) => /^-- (\(insert\) )?SELECT --/.test(t),
    command: (t) => t.startsWith(":"),
    search: (t) => /^[/?]/.test(t),
    more: (t) => t.startsWith("-- More --"),
    "hit-enter": (t) => t.startsWith("Press ENTER or type command to continue"),
    "swap-prompt": (t) => /\(A\)bort:\s*$/.test(t),
    unknown: (t) => !/^-- (INSERT|REPLACE|VREPLACE|VISUAL|SELECT|More)/.test(t),
  },
  "@less.status": {
    end: (t) => t.startsWith("(END)"),
    "not-found": (t) => t.startsWith("Pattern not found"),
    help: (t) => t.startsWith("HELP -- "),
    search: (t) => /^[/?]/.test(t),
    prompt: (t) => t === ":",
    file: (t) => !/^(\(END\)|Pattern not found|HELP -- )/.test(t),
  },
  "@git.status": { end: (t) => t.startsWith("(END)") },
};

function rowText(grid: Grid, row: number): string {
  return grid.lines[row]?.text ?? "";
}

/** What a node may not claim on this frame; empty when it tells the truth. */
function lies(node: OutlineNode, grid: Grid): string[] {
  const problems: string[] = [];
  const { row, col, rows, cols } = node.bbox;
  const inBox = Array.from({ length: rows }, (_, i) => grid.lines[row + i]?.chars.slice(col, col + cols).join("") ?? "").join("\n");
  const squash = (text: string) => text.replace(/\s+/g, "");
  // A container named by its label (container-name.ts) claims its children's text instead.
  const shown = shownText(node);
  if (node.role !== "application" && !squash(inBox).includes(squash(shown))) problems.push(`${node.ref} names ${JSON.stringify(shown.slice(0, 60))}, not in its box`);
  if (node.selected) {
    const line = grid.lines[row]!;
    const lit = line.styles.slice(col, col + cols).some((s) => s.inverse || s.bg !== undefined);
    if (!lit) problems.push(`${node.ref} is selected but row ${row} is not highlighted`);
  }
  if (node.key !== undefined && !node.name.startsWith(node.key)) problems.push(`${node.ref} has key ${node.key} but reads ${JSON.stringify(node.name.slice(0, 30))}`);
  const evidence = EVIDENCE[node.ref];
  if (evidence && node.value !== undefined) {
    const check = evidence[node.value];
    if (!check) problems.push(`${node.ref} = ${JSON.stringify(node.value)} is not in its manifest's value table`);
    else if (!check(rowText(grid, row))) problems.push(`${node.ref} = ${JSON.stringify(node.value)} on ${JSON.stringify(rowText(grid, row))}`);
  }
  if (node.ref === "@htop.selected" && node.value !== undefined && !node.name.startsWith(node.value)) problems.push(`@htop.selected = ${node.value} on ${node.name.slice(0, 30)}`);
  return problems;
}

const casts = readdirSync(CASTS).filter((f) => f.endsWith(".cast")).sort();

test("there are recorded casts for every built-in manifest but the browser", () => {
  const names = new Set(casts.map((f) => f.replace(/(-\w+)?\.cast$/, "")));
  for (const program of ["vim", "less", "htop", "top", "man", "python", "bash"]) expect(names.has(program)).toBe(true);
});

for (const file of casts) {
  test(`${file}: no node claims what a frame contradicts, on any frame`, async () => {
    const cast = parseCast(readFileSync(join(CASTS, file), "utf8"), file);
    const screen = new Screen({ cols: cast.cols, rows: cast.rows, scrollback: 0 });
    const argv = cast.command.split(" ").filter(Boolean);
    const problems: string[] = [];
    const adapters = new Set<string>();
    let frames = 0;
    try {
      for (const event of cast.events) {
        if (event.code === "r") {
          const [cols, rows] = event.data.split("x").map(Number);
          screen.resize(cols!, rows!);
          continue;
        }
        if (event.code !== "o") continue;
        await screen.write(event.data);
        screen.sync();
        const grid = screen.grid();
        const { adapter, nodes } = outlineFor(grid, manifests, argv, null);
        if (adapter) adapters.add(adapter);
        frames++;
        for (const node of walk(nodes)) for (const problem of lies(node, grid)) if (problems.length < 10) problems.push(`frame ${frames}: ${problem}`);
      }
    } finally {
      screen.dispose();
    }
    expect(frames).toBeGreaterThan(2);
    expect(adapters.size).toBeGreaterThan(0); // the manifest did shape some frames
    expect(problems).toEqual([]);
  });
}
