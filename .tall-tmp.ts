import xt from "@xterm/headless";
import { readFileSync } from "node:fs";
import { readGrid } from "./lib/terminal/grid.ts";
import { loadManifest } from "./lib/adapters/load-manifest.ts";
import { outlineFor } from "./lib/adapters/outline-for.ts";
const [file, fromMarker, stopAt] = process.argv.slice(2);
const lines = readFileSync(file!, "utf8").split("\n");
const header = JSON.parse(lines[0]!);
const term = new xt.Terminal({ cols: header.term.cols, rows: header.term.rows, scrollback: 1000, allowProposedApi: true });
const manifest = loadManifest(readFileSync("adapters/gemini.toml", "utf8"), "adapters/gemini.toml");
let m = 0, n = 0, top = 0;
for (const l of lines.slice(1)) {
  n++;
  if (!l.trim()) continue;
  const [, code, data] = JSON.parse(l);
  if (code === "m") { m++; if (m === Number(fromMarker)) { top = term.buffer.active.baseY; console.log(`turnTop=${top}`); } if (m === Number(stopAt)) break; continue; }
  if (code !== "o") continue;
  await new Promise<void>((r) => term.write(data, r));
  if (m < Number(fromMarker)) continue;
  const b = term.buffer.active;
  const grid = readGrid(term as any, { cursor: { row: b.cursorY, col: b.cursorX, visible: true }, title: "", altScreen: false } as any, Math.max(0, b.baseY - top));
  const { nodes } = outlineFor(grid, [manifest], ["gemini"], null);
  const app = nodes.find((x) => x.ref === "@gemini");
  const resp = app?.children?.find((c) => c.ref === "@gemini.response");
  const done = app?.children?.find((c) => c.ref === "@gemini.done");
  const nums = [...(resp?.value ?? "").matchAll(/line (\d{3})/g)].map((x) => Number(x[1]));
  console.log(`event ${n} baseY=${b.baseY} above=${b.baseY - top} gridRows=${grid.rows} done=${!!done} resp ${nums[0]}..${nums.at(-1)} (${nums.length}) tail=${JSON.stringify((resp?.value ?? "").slice(-40))}`);
}
