// The engine's layout in cells: Carbonyl's 2×4-device-pixel cells under its bar, element boxes
// and text runs from a DOM snapshot (shape as Chromium 111 answers), and "does the screen show it".
import { expect, test } from "bun:test";
import { cellCenter, cellGeometry, deviceControlToCells, deviceRectToCells } from "../../../lib/browser/cell-geometry.ts";
import { pageLayout, runEndsShown, runsShown, type DomSnapshot } from "../../../lib/browser/page-layout.ts";

// Measured on Carbonyl 0.0.3 at 140x45: 281x177 device pixels, 739.47x465.79 CSS pixels.
const geometry = cellGeometry({ visualViewport: { clientWidth: 281, clientHeight: 177 }, cssVisualViewport: { clientWidth: 739.4736938476562, clientHeight: 465.7894592285156 } }, 140, 45);

test("geometry: the device pixel ratio rounded as Carbonyl rounds it; CSS pixels per cell", () => {
  expect(geometry.dpi).toBe(0.38);
  expect(geometry.scale.width).toBeCloseTo(5.263, 3);
  expect(geometry.scale.height).toBeCloseTo(10.526, 3);
  expect(cellCenter(1, 0, geometry)).toEqual({ x: geometry.scale.width / 2, y: geometry.scale.height / 2 });
});

test("boxes: below the bar, a cell per 2x4 device pixels, sizes rounded; off screen is null", () => {
  // "12 comments" on the test site: drawn at row 7, col 21, 11 cells.
  expect(deviceRectToCells(43.953125, 24.28125, 21.765625, 4, geometry)).toEqual({ row: 7, col: 21, rows: 1, cols: 11 });
  expect(deviceRectToCells(0, -40, 10, 4, geometry)).toBeNull(); // scrolled above the viewport
  expect(deviceRectToCells(300, 10, 10, 4, geometry)).toBeNull(); // right of it
  expect(deviceRectToCells(270, 10, 40, 4, geometry)).toEqual({ row: 3, col: 135, rows: 1, cols: 5 }); // cut at the edge
  // A check box (measured: device 4.55,31.48 4.94x4.94) is painted where its middle is, row 9.
  expect(deviceControlToCells(4.546875, 31.484375, 4.9375, 4.9375, geometry)).toEqual({ row: 9, col: 3, rows: 1, cols: 2 });
});

const snapshot: DomSnapshot = {
  strings: ["Tiny News", "Terminals are the new browsers", "\n    128 points | ", "12 comments"],
  documents: [{
    nodes: { backendNodeId: [4, 6, 12, 15, 16] },
    layout: { nodeIndex: [0, 1, 2, 3, 4], bounds: [[3.03, 8.14, 17.8, 4], [3.03, 8.14, 17.8, 4], [18.2, 20.3, 59.4, 4], [18.2, 24.3, 25.7, 4], [43.95, 24.28, 21.77, 4]], text: [-1, 0, 1, 2, 3] },
    textBoxes: { layoutIndex: [1, 2, 3, 4], bounds: [[3.03, 8.14, 17.8, 4], [18.2, 20.3, 59.4, 4], [18.2, 24.3, 25.7, 4], [43.95, 24.28, 21.77, 4]], start: [0, 0, 5, 0], length: [9, 30, 13, 11] },
    scrollOffsetX: 0, scrollOffsetY: 0,
  }],
};

test("text runs: where Carbonyl writes them, as many characters as fit their width (the next run overwrites the rest)", () => {
  const { text, boxes } = pageLayout(snapshot, geometry);
  // `whole` is all a run shows (an input's change past the compared start is found by it).
  expect(text.map((run) => run.whole)).toEqual(["Tiny News", "Terminals are the new browsers", "128 points |", "12 comments"]);
  expect(text.map(({ whole: _whole, ...run }) => run)).toEqual([
    { row: 3, col: 1, text: "Tiny News" },
    { row: 6, col: 9, text: "Terminals ar" }, // compared: the first 12 characters
    { row: 7, col: 9, text: "128 points |" },
    { row: 7, col: 21, text: "12 comments" },
  ]);
  expect(boxes.get(16)).toEqual({ row: 7, col: 21, rows: 1, cols: 11 });
});

test("scrolled: bounds are the document's, the offset makes them the viewport's; runs above it are not expected", () => {
  const scrolled = structuredClone(snapshot);
  scrolled.documents[0]!.scrollOffsetY = 16;
  const { text } = pageLayout(scrolled, geometry);
  expect(text.map((run) => [run.row, run.text])).toEqual([[2, "Terminals ar"], [3, "128 points |"], [3, "12 comments"]]);
});

test("runsShown: a run counts where Carbonyl draws it, a row or two columns either way", () => {
  const runs = pageLayout(snapshot, geometry).text;
  const screen = ["[bar]", "", "", " Tiny News", "", "", "         Terminals are the new browser (example.org)", "         128 points |12 comments"];
  expect(runsShown(runs, screen)).toBe(4);
  const old = ["[bar]", "", "", " Comments on Terminals", "", " Comment 1 on story 1"];
  expect(runsShown(runs, old)).toBe(0);
  const shifted = ["[bar]", "", "", "", "   Tiny News"]; // a row down, two columns right
  expect(runsShown(runs.slice(0, 1), shifted)).toBe(1);
});

test("runEndsShown: a run's end past the compared start must be on the screen too, unless another run draws over it", () => {
  const runs = [{ row: 8, col: 2, text: "typed: hello", whole: "typed: hello there" }];
  expect(runsShown(runs, Array(8).fill("").concat(["  typed: hello"]))).toBe(1); // the start alone cannot tell
  expect(runEndsShown(runs, Array(8).fill("").concat(["  typed: hello"]), runs)).toBe(0);
  expect(runEndsShown(runs, Array(8).fill("").concat(["  typed: hello there"]), runs)).toBe(1);
  // A later run on the row starts inside this one: Carbonyl draws it over this one's end.
  const covered = [...runs, { row: 8, col: 10, text: "[x]", whole: "[x]" }];
  expect(runEndsShown(runs, Array(8).fill("").concat(["  typed: h[x]"]), covered)).toBe(1);
});
