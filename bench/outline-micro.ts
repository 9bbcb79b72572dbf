// In-process micro-benchmark of the outline of a busy screen, to iterate on its cost (issue 25's
// outline-ratio row): p50 of outlineFor and its parts next to screen.text(), on frames of htop
// at 200x60, plus a digest of every outline made, so a change that alters any output shows.
//   bun bench/outline-micro.ts            captures 6 frames of a live htop (needs `bun run build`)
//   bun bench/outline-micro.ts F.json     reads frames saved before (a JSON array of ANSI screens)
//   SAVE=F.json bun bench/outline-micro.ts  captures and saves them, to compare two builds alike
// Nothing is written to bench/RESULTS.md: this is for profiling (`bun --cpu-prof` it).
import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { Screen } from "../lib/terminal/screen.ts";
import { BUILTIN_MANIFESTS } from "../lib/adapters/builtins.ts";
import { loadManifest } from "../lib/adapters/load-manifest.ts";
import { manifestOutline } from "../lib/adapters/manifest-outline.ts";
import { outlineFor } from "../lib/adapters/outline-for.ts";
import { unclaimedOutline } from "../lib/adapters/unclaimed.ts";
import { SessionObservations } from "../lib/adapters/session-observations.ts";
import { World } from "../tests/helpers/harness.ts";
import { forwardedResult } from "../lib/daemon/pass-through.ts";
import { ManifestCatalog } from "../lib/adapters/catalog.ts";
import { foregroundGroup } from "../lib/runtime/process.ts";

const COLS = 200;
const ROWS = 60;

/** ANSI screens of htop at distinct revisions, one per refresh. */
async function capture(count: number): Promise<string[]> {
  await using world = await World.start();
  await world.spawn(["htop", "-d", "2"], ["--session", "busy", "--cols", String(COLS), "--rows", String(ROWS)]);
  const rpc = await world.rpc();
  try {
    let { revision } = await rpc.call("wait", { session: "busy", ref: "@htop.selected", timeoutMs: 20_000 }) as { revision: number };
    const frames: string[] = [];
    while (frames.length < count) {
      const reply = await rpc.call("snapshot", { session: "busy", format: "ansi" }) as { revision: number; ansi: string };
      frames.push(reply.ansi);
      ({ revision } = await rpc.call("wait", { session: "busy", changedSince: Math.max(revision, reply.revision), timeoutMs: 10_000 }) as { revision: number });
    }
    return frames;
  } finally {
    rpc.close();
  }
}

const frames: string[] = process.argv[2] ? JSON.parse(readFileSync(process.argv[2], "utf8")) : await capture(6);
if (process.env.SAVE) writeFileSync(process.env.SAVE, JSON.stringify(frames));
const manifests = BUILTIN_MANIFESTS.map(({ file, source }) => loadManifest(source, file));
const htop = manifests.find((m) => m.name === "htop")!;
const observations = new SessionObservations();
const facts = { shellForeground: null, seenValues: observations.seenValues };
const screens = await Promise.all(frames.map(async (ansi) => {
  const screen = new Screen({ cols: COLS, rows: ROWS, scrollback: 0 });
  await screen.write(ansi);
  screen.sync();
  return screen;
}));
const outline = (screen: Screen) => outlineFor(screen.grid(), manifests, ["htop"], null, facts, observations.observed(screen.revision));
const digest = createHash("sha256");
for (const screen of screens) digest.update(JSON.stringify(outline(screen)));
console.log(`outputs ${digest.digest("hex").slice(0, 16)} (${screens.length} frames)`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function time(name: string, fn: (i: number) => unknown, n = 500): void {
  for (let i = 0; i < 50; i++) fn(i); // warm, as a live worker is
  const samples: number[] = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); fn(i); samples.push(performance.now() - t); }
  console.log(`${name.padEnd(40)} p50 ${median(samples).toFixed(3)} ms`);
}
const at = <T>(xs: T[], i: number) => xs[i % xs.length]!;
const grids = screens.map((s) => s.grid());
const claims = grids.map((g) => manifestOutline(htop, g)[0]!.children.filter((n) => n.ref?.startsWith("@htop.")).map((n) => n.bbox));
time("screen.text()", (i) => at(screens, i).text());
time("screen.grid()", (i) => at(screens, i).grid());
time("outlineFor(screen.grid()) (the bench row)", (i) => outline(at(screens, i)));
time("  manifestOutline(htop) on a read grid", (i) => manifestOutline(htop, at(grids, i), facts));
time("    unclaimedOutline (its generic part)", (i) => unclaimedOutline(at(grids, i), at(claims, i)));
time("JSON.stringify(outlineFor(…))", (i) => JSON.stringify(outline(at(screens, i))));

// The reply's way to the caller, outline against text: the worker's structured clone, the
// daemon's check of the worker's reply (pass-through.ts), its JSON, the client's parse.
const base = (screen: Screen) => ({ revision: screen.revision, hash: screen.hash, cols: COLS, rows: ROWS });
const replies: Record<string, object[]> = {
  text: screens.map((screen) => { const text = screen.text(); return { format: "text", ...base(screen), text, width: COLS, height: ROWS, lines: text.split("\n") }; }),
  outline: screens.map((screen) => { const { adapter, nodes } = outline(screen); return { format: "outline", ...base(screen), outline: { adapter, nodes } }; }),
};
for (const [kind, list] of Object.entries(replies)) {
  const encoded = list.map((reply) => JSON.stringify({ jsonrpc: "2.0", id: 1, result: forwardedResult("snapshot", "busy", reply) }));
  console.log(`${kind} reply: ${encoded[0]!.length} bytes of JSON`);
  time(`  structuredClone (worker → daemon)`, (i) => structuredClone(at(list, i)));
  time(`  the daemon's check (forwardedResult)`, (i) => forwardedResult("snapshot", "busy", at(list, i)));
  time(`  JSON.stringify (the daemon's reply)`, (i) => JSON.stringify({ jsonrpc: "2.0", id: 1, result: at(list, i) }));
  time(`  JSON.parse (the client)`, (i) => JSON.parse(at(encoded, i)));
}
// What each outline reads besides the screen: the terminal's foreground group (/proc), and the
// manifest directory (the catalog's generation and its manifests: a listing each).
const catalog = new ManifestCatalog();
time("foregroundGroup (a /proc read)", () => foregroundGroup(process.pid));
time("catalog.generation() + manifests()", () => { catalog.generation(); catalog.manifests(); });
for (const screen of screens) screen.dispose();
