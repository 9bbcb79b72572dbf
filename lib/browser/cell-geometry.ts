// Where the page's pixels land in the terminal. Carbonyl draws its bar on row 0 and the page
// below it, one cell per 2×4 quadrant of device pixels (src/output/window.rs: "a virtual cell
// should contain a 2x4 pixel quadrant"); the engine's device pixel ratio (0.38 at Carbonyl's
// default zoom) turns CSS pixels into device pixels. The ratio is measured from the engine's
// layout metrics, never assumed.
import type { BBox } from "../outline/types.ts";

/** Device pixels per cell: Carbonyl's quadrant. */
export const CELL_DEVICE_PX = { width: 2, height: 4 } as const;
/** Rows above the page: Carbonyl's navigation bar. */
export const PAGE_TOP_ROW = 1;

export type CellGeometry = {
  /** Device pixels per CSS pixel (window.devicePixelRatio). */
  dpi: number;
  /** CSS pixels per cell. */
  scale: { width: number; height: number };
  cols: number;
  rows: number;
};

type Viewport = { clientWidth: number; clientHeight: number };
export type LayoutMetrics = { visualViewport: Viewport; cssVisualViewport: Viewport };

/** The geometry from Page.getLayoutMetrics (device and CSS sizes of the same viewport). */
export function cellGeometry(metrics: LayoutMetrics, cols: number, rows: number): CellGeometry {
  const measured = metrics.visualViewport.clientWidth / metrics.cssVisualViewport.clientWidth;
  // Carbonyl rounds its ratio to two decimals; so does this (the division is off by a rounding).
  const dpi = Number.isFinite(measured) && measured > 0 ? Math.round(measured * 100) / 100 : 1;
  return { dpi, scale: { width: CELL_DEVICE_PX.width / dpi, height: CELL_DEVICE_PX.height / dpi }, cols, rows };
}

/** A rectangle in device pixels of the viewport as the cells it covers on the page area, or
 * null when none of it is on screen. */
export function deviceRectToCells(x: number, y: number, width: number, height: number, geometry: CellGeometry): BBox | null {
  // Carbonyl puts a cell at every whole quadrant; a box's size in cells is rounded as its text's is.
  const left = Math.floor(x / CELL_DEVICE_PX.width);
  const top = Math.floor(y / CELL_DEVICE_PX.height) + PAGE_TOP_ROW;
  const right = left + Math.max(1, Math.round(width / CELL_DEVICE_PX.width));
  const bottom = top + Math.max(1, Math.round(height / CELL_DEVICE_PX.height));
  const col = Math.max(0, left);
  const row = Math.max(PAGE_TOP_ROW, top);
  const cols = Math.min(geometry.cols, right) - col;
  const rows = Math.min(geometry.rows, bottom) - row;
  if (cols <= 0 || rows <= 0) return null;
  return { row, col, rows, cols };
}

/** A small control with no text (a check box, a radio button): the cells its middle falls in,
 * as wide and tall as it is — Carbonyl paints it there (its top edge may fall in the row above). */
export function deviceControlToCells(x: number, y: number, width: number, height: number, geometry: CellGeometry): BBox | null {
  const cols = Math.max(1, Math.round(width / CELL_DEVICE_PX.width));
  const rows = Math.max(1, Math.round(height / CELL_DEVICE_PX.height));
  const middleCol = Math.floor((x + width / 2) / CELL_DEVICE_PX.width);
  const middleRow = Math.floor((y + height / 2) / CELL_DEVICE_PX.height) + PAGE_TOP_ROW;
  return deviceRectToCells((middleCol - Math.floor((cols - 1) / 2)) * CELL_DEVICE_PX.width, (middleRow - PAGE_TOP_ROW - Math.floor((rows - 1) / 2)) * CELL_DEVICE_PX.height, cols * CELL_DEVICE_PX.width, rows * CELL_DEVICE_PX.height, geometry);
}

/** The CSS point (viewport coordinates) at the middle of a page cell. */
export function cellCenter(row: number, col: number, geometry: CellGeometry): { x: number; y: number } {
  return { x: (col + 0.5) * geometry.scale.width, y: (row - PAGE_TOP_ROW + 0.5) * geometry.scale.height };
}
