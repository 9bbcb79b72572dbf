// The xterm 256-colour palette: the 16 base colours, the 6×6×6 cube and the grey ramp, as xterm
// draws them (a screenshot's colours are what the user saw).
import { expect, test } from "bun:test";
import { colourOf, DEFAULT_BG, DEFAULT_FG, paletteColour } from "../../../lib/render/palette.ts";

test("the 16 base colours are xterm's", () => {
  expect(paletteColour(0)).toBe("#000000");
  expect(paletteColour(1)).toBe("#cd0000");
  expect(paletteColour(7)).toBe("#e5e5e5");
  expect(paletteColour(8)).toBe("#7f7f7f");
  expect(paletteColour(9)).toBe("#ff0000");
  expect(paletteColour(12)).toBe("#5c5cff");
  expect(paletteColour(15)).toBe("#ffffff");
});

test("16..231 is the 6×6×6 cube with levels 0, 95, 135, 175, 215, 255", () => {
  expect(paletteColour(16)).toBe("#000000");
  expect(paletteColour(17)).toBe("#00005f");
  expect(paletteColour(21)).toBe("#0000ff");
  expect(paletteColour(22)).toBe("#005f00");
  expect(paletteColour(52)).toBe("#5f0000");
  expect(paletteColour(196)).toBe("#ff0000");
  expect(paletteColour(208)).toBe("#ff8700");
  expect(paletteColour(231)).toBe("#ffffff");
});

test("232..255 is the grey ramp from 8 to 238 in steps of 10", () => {
  expect(paletteColour(232)).toBe("#080808");
  expect(paletteColour(244)).toBe("#808080");
  expect(paletteColour(255)).toBe("#eeeeee");
  const greys = Array.from({ length: 24 }, (_, i) => paletteColour(232 + i));
  expect(new Set(greys).size).toBe(24);
  for (const grey of greys) expect(grey).toMatch(/^#([0-9a-f]{2})\1\1$/);
});

test("every index is a #rrggbb colour", () => {
  for (let i = 0; i < 256; i++) expect(paletteColour(i)).toMatch(/^#[0-9a-f]{6}$/);
});

test("colourOf: an index through the palette, a true colour as it is, none as the fallback", () => {
  expect(colourOf(196, DEFAULT_FG)).toBe("#ff0000");
  expect(colourOf("#123456", DEFAULT_FG)).toBe("#123456");
  expect(colourOf(undefined, DEFAULT_FG)).toBe(DEFAULT_FG);
  expect(colourOf(undefined, DEFAULT_BG)).toBe(DEFAULT_BG);
  expect(colourOf(0, DEFAULT_FG)).toBe("#000000"); // index 0 is a colour, not "none"
});
