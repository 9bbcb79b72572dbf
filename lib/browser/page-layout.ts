// The page as the engine laid it out (DOMSnapshot.captureSnapshot, one call): each element's box
// by its backend node id, and each run of text with the cell Carbonyl draws it at — what the
// screen must show once Carbonyl has drawn the engine's current frame. Bounds are device pixels
// of the document; the document's scroll offset makes them the viewport's.
import type { BBox } from "../outline/types.ts";
import { deviceControlToCells, deviceRectToCells, type CellGeometry } from "./cell-geometry.ts";

/** A run of text as the screen will show it: from (row, col), its first characters (Carbonyl
 * writes a run's characters one per cell from its origin, and the next run may overwrite its tail). */
/** `text`: the first RUN_PREFIX characters, what screens are compared on; `whole`: all of it. */
export type TextRun = { row: number; col: number; text: string; whole?: string };

export type PageLayout = {
  /** Each laid-out element's box on the screen (null: laid out, but not in the viewport). */
  boxes: Map<number, BBox | null>;
  /** The same for a small control without text (check box, radio): the cells of its middle. */
  controls: Map<number, BBox | null>;
  /** Runs of visible text, top to bottom. */
  text: TextRun[];
  scroll: { x: number; y: number };
};

/** The parts of DOMSnapshot.captureSnapshot's answer read here. */
export type DomSnapshot = {
  strings: string[];
  documents: {
    nodes: { backendNodeId?: number[] };
    layout: { nodeIndex: number[]; bounds: number[][]; text: number[] };
    textBoxes: { layoutIndex: number[]; bounds: number[][]; start: number[]; length: number[] };
    scrollOffsetX?: number;
    scrollOffsetY?: number;
  }[];
};

/** The characters of a run Carbonyl shows, at most this many compared. */
const RUN_PREFIX = 12;

export function pageLayout(snapshot: DomSnapshot, geometry: CellGeometry): PageLayout {
  const document = snapshot.documents[0];
  const scroll = { x: document?.scrollOffsetX ?? 0, y: document?.scrollOffsetY ?? 0 };
  const boxes = new Map<number, BBox | null>();
  const controls = new Map<number, BBox | null>();
  const text: TextRun[] = [];
  if (!document) return { boxes, controls, text, scroll };
  const ids = document.nodes.backendNodeId ?? [];
  const { layout, textBoxes } = document;
  for (let i = 0; i < layout.nodeIndex.length; i++) {
    const id = ids[layout.nodeIndex[i]!];
    const bounds = layout.bounds[i];
    if (id === undefined || !bounds || boxes.get(id)) continue;
    const [x = 0, y = 0, width = 0, height = 0] = bounds;
    const empty = width <= 0 && height <= 0;
    boxes.set(id, empty ? null : deviceRectToCells(x - scroll.x, y - scroll.y, width, height, geometry));
    controls.set(id, empty ? null : deviceControlToCells(x - scroll.x, y - scroll.y, width, height, geometry));
  }
  const placed: { row: number; col: number; chars: string[] }[] = [];
  for (let i = 0; i < textBoxes.layoutIndex.length; i++) {
    const whole = snapshot.strings[layout.text[textBoxes.layoutIndex[i]!] ?? -1];
    const [x = 0, y = 0, width = 0, height = 0] = textBoxes.bounds[i] ?? [];
    if (whole === undefined) continue;
    const cells = deviceRectToCells(x - scroll.x, y - scroll.y, width, height, geometry);
    // Only runs wholly on the page area: one cut by an edge may be drawn in part.
    if (!cells || x - scroll.x < 0 || y - scroll.y < 0 || cells.row + 1 > geometry.rows - 1 || cells.col + cells.cols > geometry.cols) continue;
    const run = [...whole.substr(textBoxes.start[i]!, textBoxes.length[i]!)];
    placed.push({ row: cells.row, col: cells.col, chars: run.slice(0, Math.max(1, Math.round(width / 2))) });
  }
  placed.sort((a, b) => a.row - b.row || a.col - b.col);
  for (const [i, run] of placed.entries()) {
    // Carbonyl writes a run's characters from its origin; the next run on the row overwrites its tail.
    const next = placed[i + 1];
    const chars = next && next.row === run.row ? run.chars.slice(0, Math.max(0, next.col - run.col)) : run.chars;
    const lead = chars.findIndex((c) => c.trim() !== "");
    const shown = chars.join("").trim();
    if (lead === -1 || shown.length < 2 || !/\p{L}|\p{N}/u.test(shown)) continue;
    text.push({ row: run.row, col: run.col + lead, text: [...shown].slice(0, RUN_PREFIX).join(""), whole: shown });
  }
  return { boxes, controls, text, scroll };
}

/** How many of `runs` the screen's `lines` show where Carbonyl draws them (a row either side,
 * two columns either side: its rounding differs from the layout's). */
/** How many of `runs` the screen shows the end of too (its last RUN_PREFIX characters, on its
 * row or one off): an input that changed a run past its start changed that end. A run whose end
 * another run of the page (`all`) draws over counts as shown: its end is not on any screen. */
export function runEndsShown(runs: TextRun[], lines: string[], all: TextRun[]): number {
  let shown = 0;
  for (const run of runs) {
    const whole = [...(run.whole ?? run.text)];
    const coveredAt = all.some((other) => other !== run && other.row === run.row && other.col > run.col && other.col < run.col + whole.length);
    const end = whole.slice(-RUN_PREFIX).join("");
    if (coveredAt || [run.row, run.row - 1, run.row + 1].some((row) => lines[row]?.includes(end))) shown++;
  }
  return shown;
}

export function runsShown(runs: TextRun[], lines: string[]): number {
  let shown = 0;
  for (const run of runs) {
    for (const row of [run.row, run.row - 1, run.row + 1]) {
      const line = lines[row];
      if (line === undefined) continue;
      const at = line.indexOf(run.text, Math.max(0, run.col - 2));
      if (at !== -1 && at <= run.col + 2) { shown++; break; }
    }
  }
  return shown;
}
