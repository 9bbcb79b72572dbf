// snapshot --format png: the SVG drawn by resvg (wasm, with the embedded DejaVu font).
import { afterAll, expect, test } from "bun:test";
import { Screen } from "../../../lib/terminal/screen.ts";
import { renderSvg } from "../../../lib/render/svg.ts";
import { renderPng } from "../../../lib/render/png.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const screen = new Screen({ cols: 30, rows: 4, scrollback: 0 });
afterAll(() => screen.dispose());

/** The width and height in the PNG's IHDR chunk (big-endian, right after the signature). */
function size(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

test("renderPng returns a PNG of the SVG's size", async () => {
  await screen.write("\x1b[1;32m$\x1b[0m echo hello\r\nhello");
  const svg = renderSvg(screen.grid(), { chrome: "bash" });
  const png = await renderPng(svg);
  expect([...png.subarray(0, 8)]).toEqual(SIGNATURE);
  const [, width, height] = svg.match(/^<svg [^>]*width="([\d.]+)" height="(\d+)"/)!;
  expect(size(png)).toEqual({ width: Math.ceil(Number(width)), height: Number(height) });
});

test("a screen with program text XML does not allow (U+FFFF, U+FFFE) and a title with a control still renders", async () => {
  await screen.write("\x1b[2J\x1b[H<&>\"\uffff\ufffe");
  const screenOnly = await renderPng(renderSvg(screen.grid()));
  expect([...screenOnly.subarray(0, 8)]).toEqual(SIGNATURE);
  const framed = await renderPng(renderSvg(screen.grid(), { chrome: "t\x01", annotations: [{ bbox: { row: 0, col: 0, rows: 1, cols: 3 }, label: "<@e1>" }] }));
  expect([...framed.subarray(0, 8)]).toEqual(SIGNATURE);
});
