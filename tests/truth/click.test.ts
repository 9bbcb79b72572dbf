// Clicking by ref acts on the thing clicked (issue 25, item 7): for each labelled clickable that
// says what a click does (labels/<cast>.toml, `click = {…}`), the scenario is played live to its
// state, the outline's ref for it is found as the corpus judge finds it (the smallest node that
// covers it and no other clickable), clicked with `click REF --rev N`, and the screen must show
// the effect. No ref for it is a miss (reported); a click that does not act (e.g. its node reaches
// past the drawn thing and the click lands on a blank cell) is a failure — today's are listed in
// known-click-false.json, which can only shrink (as known-false.json for the replayed claims,
// where a node reaching past its clickable is already a false claim).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";
import type { OutlineNode } from "../../lib/outline/types.ts";
import { clickTarget } from "./judge.ts";
import { readLabels, type Clickable, type StateLabel } from "./labels.ts";
import { cleanUp, cli, play, startSleepers } from "./play.ts";
import { SCENARIOS } from "./scenarios.ts";
import { makeScratch } from "./scratch.ts";

type Cell = { col: number; text: string; width: number; fg?: number | string; bg?: number | string; inverse?: boolean };
type Outcome = { cast: string; marker: string; clickable: string; outcome: "ok" | "miss" | "fail"; why: string };

const KNOWN_FILE = join(import.meta.dir, "known-click-false.json");
/** How long a click's effect may take to show (a known failure waits this long, so not more). */
const EFFECT_TIMEOUT = ["--timeout", "10000"];

let world: World;
let work: string;
beforeAll(async () => {
  world = await World.start();
  work = makeScratch(join(world.dir, "work"));
});
afterAll(async () => { await world[Symbol.asyncDispose](); });

/** The look the eye sees at a cell: inverse shows the foreground as background. */
function lookAt(cells: Cell[][], row: number, col: number): string {
  const run = cells[row]?.find((r) => col >= r.col && col < r.col + r.width);
  if (!run) return "";
  return run.inverse ? `i${run.fg ?? "-"}` : `b${run.bg ?? "-"}`;
}

/** The look of a box: at its first non-blank cell. */
function boxLook(cells: Cell[][], screen: string[], box: Clickable["box"]): string {
  for (let c = box.col; c < box.col + box.cols; c++) if ((screen[box.row] ?? "")[c]?.trim()) return lookAt(cells, box.row, c);
  return lookAt(cells, box.row, box.col);
}

async function screenNow(session: string): Promise<{ cells: Cell[][]; lines: string[]; cursor: { row: number; col: number }; exited: boolean }> {
  const snap = await cli(world, ["snapshot", "--session", session, "--format", "cells", "--include-meta"]);
  const lines = (snap.cells as Cell[][]).map((row) => row.map((r) => r.text).join(""));
  return { cells: snap.cells, lines, cursor: snap.meta.cursor, exited: snap.meta.exit !== null };
}

const walk = (nodes: OutlineNode[]): OutlineNode[] => nodes.flatMap((n) => [n, ...walk(n.children ?? [])]);

async function clickOne(cast: string, label: StateLabel, clickable: Clickable): Promise<Outcome> {
  const scenario = SCENARIOS.find((s) => s.name === cast)!;
  const sleepers = startSleepers(scenario.sleepers ?? 0);
  const base = { cast, marker: label.marker, clickable: clickable.name };
  let session = scenario.name;
  try {
    session = await play(world, scenario, work, sleepers.map((s) => s.pid).join(","), ["--no-record"], label.marker);
    const snap = await cli(world, ["snapshot", "--session", session, "--format", "outline"]);
    const target = clickTarget(clickable, label.clickables, walk(snap.outline.nodes));
    // A node reaching past the thing is a false claim of the replayed judge already; here the
    // question is only whether clicking the ref acts on the thing.
    if (target.outcome === "miss") return { ...base, outcome: "miss", why: target.why };
    const before = await screenNow(session);
    const selectedLook = label.selected !== "unknown" && label.selected[0] ? boxLook(before.cells, before.lines, label.selected[0].box) : "";
    const effect = clickable.click!;
    const wait = effect.expect ? ["--regex", effect.expect] : effect.expect_gone ? ["--regex", effect.expect_gone, "--gone"] : effect.exits ? ["--exit"] : ["--changed-since", String(snap.revision), "--settled", "300", "--all"];
    const clicked = await world.run(["--json", "click", "--session", session, target.node!.ref, "--rev", String(snap.revision), ...wait, ...EFFECT_TIMEOUT]);
    if (clicked.code !== 0) return { ...base, outcome: "fail", why: `click ${target.node!.ref} (${target.why}) did not act: exit ${clicked.code} ${clicked.stdout.slice(0, 300)}` };
    if (effect.cursor_in || effect.highlighted) {
      const after = await screenNow(session);
      if (effect.cursor_in) {
        const { row, col } = after.cursor;
        const b = clickable.box;
        if (row < b.row || row >= b.row + b.rows || col < b.col || col >= b.col + b.cols) return { ...base, outcome: "fail", why: `after clicking ${target.node!.ref} the cursor is at ${row},${col}, not in ${clickable.name}` };
      }
      if (effect.highlighted) {
        const look = boxLook(after.cells, after.lines, clickable.box);
        if (look !== selectedLook || look === boxLook(before.cells, before.lines, clickable.box)) return { ...base, outcome: "fail", why: `after clicking ${target.node!.ref} ${clickable.name} looks ${look}, the selection looked ${selectedLook}` };
      }
    }
    return { ...base, outcome: "ok", why: `clicked ${target.node!.ref}: ${target.why}` };
  } finally {
    await cli(world, ["kill", "--session", session, "--grace", "500"]).catch(() => {});
    cleanUp(world, scenario);
    for (const s of sleepers) s.kill();
  }
}

test("a labelled button, row, tab or window clicked by its ref acts on that thing (failures only from known-click-false.json)", async () => {
  const outcomes: Outcome[] = [];
  for (const scenario of SCENARIOS) {
    const file = join(import.meta.dir, "labels", `${scenario.name}.toml`);
    if (!existsSync(file)) continue;
    for (const state of readLabels(file, scenario.program).states) {
      for (const clickable of state.clickables.filter((c) => c.click)) outcomes.push(await clickOne(scenario.name, state, clickable));
    }
  }
  for (const o of outcomes) console.log(`${o.outcome.padEnd(4)} ${o.cast} ${o.marker} ${o.clickable}: ${o.why}`);
  const count = (k: Outcome["outcome"]) => outcomes.filter((o) => o.outcome === k).length;
  console.log(`clicks: ${outcomes.length} tried, ${count("ok")} acted, ${count("miss")} had no ref, ${count("fail")} failed`);
  const known: { cast: string; marker: string; clickable: string }[] = existsSync(KNOWN_FILE) ? JSON.parse(readFileSync(KNOWN_FILE, "utf8")) : [];
  const id = (k: { cast: string; marker: string; clickable: string }) => `${k.cast} ${k.marker} ${k.clickable}`;
  const failed = outcomes.filter((o) => o.outcome === "fail");
  const fresh = failed.filter((o) => !known.some((k) => id(k) === id(o))).map((o) => `NEW CLICK FAILURE ${id(o)}: ${o.why}`);
  const fixed = known.filter((k) => !failed.some((o) => id(o) === id(k))).map((k) => `FIXED (remove from known-click-false.json) ${id(k)}`);
  expect([...fresh, ...fixed]).toEqual([]);
}, 600_000);
