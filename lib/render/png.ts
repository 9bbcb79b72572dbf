// SVG → PNG with resvg (wasm, embedded in the binary with the DejaVu Sans Mono font, so
// screenshots look the same on every machine). Initialised once, on first use.
import fontPath from "dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf" with { type: "file" };
import boldFontPath from "dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf" with { type: "file" };
import wasmPath from "@resvg/resvg-wasm/index_bg.wasm" with { type: "file" };
import { readFileSync } from "node:fs";
import { initWasm, Resvg } from "@resvg/resvg-wasm";

let ready: Promise<Uint8Array[]> | null = null;

function init(): Promise<Uint8Array[]> {
  ready ??= initWasm(readFileSync(wasmPath)).then(() => [readFileSync(fontPath), readFileSync(boldFontPath)]);
  return ready;
}

export async function renderPng(svg: string): Promise<Uint8Array> {
  const fonts = await init();
  const resvg = new Resvg(svg, { font: { fontBuffers: fonts, loadSystemFonts: false, defaultFontFamily: "DejaVu Sans Mono", monospaceFamily: "DejaVu Sans Mono" } });
  return resvg.render().asPng();
}
