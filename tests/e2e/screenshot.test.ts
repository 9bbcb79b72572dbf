// SVG and PNG screenshots of a coloured screen: decoded and checked cell by cell.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decode } from "fast-png";
import { World } from "../helpers/harness.ts";
import { CELL_HEIGHT, CELL_WIDTH } from "../../lib/render/svg.ts";

let world: World;
let session: string;
beforeAll(async () => {
  world = await World.start();
  session = (await world.spawn(["sh", "-c", "printf '\\033[41m RED \\033[0m \\033[42;30m GREEN \\033[0m plain\\n\\033[1mbold\\033[0m \\033[34mblue\\033[0m\\n'; read x"], ["--cols", "40", "--rows", "6"])).name;
  await world.json(["wait", "--session", session, "--text", "plain"]);
});
afterAll(async () => { await world[Symbol.asyncDispose](); });

const PAD = 8;

function pixel(png: ReturnType<typeof decode>, x: number, y: number): string {
  const i = (Math.round(y) * png.width + Math.round(x)) * png.channels;
  return `#${[0, 1, 2].map((c) => png.data[i + c]!.toString(16).padStart(2, "0")).join("")}`;
}
/** The top-left corner area of a cell, clear of glyphs. */
const cellAt = (row: number, col: number, top = 0) => [PAD + col * CELL_WIDTH + 1.5, PAD + top + row * CELL_HEIGHT + 1.5] as const;

test("PNG: known cells have their colours; the file decodes at the expected size", async () => {
  const out = join(world.dir, "shot.png");
  const result = await world.json(["snapshot", "--session", session, "--format", "png", "--out", "shot.png"]);
  expect(result.written).toBe(out);
  const png = decode(readFileSync(out));
  expect(png.width).toBe(Math.round(40 * CELL_WIDTH + PAD * 2));
  expect(png.height).toBe(6 * CELL_HEIGHT + PAD * 2);
  expect(pixel(png, ...cellAt(0, 0))).toBe("#cd0000"); // red background (SGR 41)
  expect(pixel(png, ...cellAt(0, 6))).toBe("#00cd00"); // green background (SGR 42)
  expect(pixel(png, ...cellAt(0, 30))).toBe("#000000"); // default background
  // Glyphs are drawn: the bright pixels of "plain" are the default foreground.
  const plain: string[] = [];
  for (let x = 0; x < 5 * CELL_WIDTH; x++) for (let y = 0; y < CELL_HEIGHT; y++) plain.push(pixel(png, PAD + 14 * CELL_WIDTH + x, PAD + y));
  expect(plain).toContain("#e5e5e5");
});

test("PNG with --chrome and --annotate: a title bar shifts the screen down; boxes are drawn", async () => {
  await world.json(["snapshot", "--session", session, "--format", "outline"]);
  await world.json(["snapshot", "--session", session, "--format", "png", "--out", "framed.png", "--chrome", "demo", "--annotate", "paragraph"]);
  const png = decode(readFileSync(join(world.dir, "framed.png")));
  expect(png.height).toBe(6 * CELL_HEIGHT + PAD * 2 + 28);
  expect(pixel(png, 2, 14)).toBe("#2d2d2d"); // the title bar
  expect(pixel(png, ...cellAt(0, 4, 28))).toBe("#cd0000"); // the space after "RED"
  // The annotation's amber frame around the paragraph (rows 0-1, starting at col 0).
  expect(pixel(png, PAD + 0.5 * CELL_WIDTH, PAD + 28 + 2 * CELL_HEIGHT)).toBe("#ffb000");
});

test("SVG: self-contained, with glyphs, colours, bold, the cursor and a window frame", async () => {
  const svg = (await world.run(["snapshot", "--session", session, "--format", "svg", "--chrome", "my title", "--annotate", "paragraph"])).stdout;
  expect(svg).toStartWith('<svg xmlns="http://www.w3.org/2000/svg"');
  expect(svg).not.toContain("href=");
  expect(svg).toContain('fill="#cd0000"');
  expect(svg).toMatch(/<text [^>]*fill="#000000"[^>]*>GREEN<\/text>/); // black text on green
  expect(svg).toMatch(/<text [^>]*font-weight="bold"[^>]*>bold<\/text>/);
  expect(svg).toMatch(/<text [^>]*fill="#0000ee"[^>]*>blue<\/text>/);
  expect(svg).toContain(">my title</text>");
  expect(svg).toContain(">@e1</text>");
  expect(svg).toMatch(/<rect x="0" y="34" width="8.43" height="17" fill="#e5e5e5" opacity="0.6"\/>/); // cursor at row 2, col 0
});

test("bad screenshot flags are usage errors", async () => {
  expect((await world.run(["snapshot", "--session", session, "--format", "png"])).stderr).toContain("--format png writes binary: give --out FILE");
  expect((await world.run(["snapshot", "--session", session, "--chrome", "x"])).code).toBe(64);
  const dir = await world.run(["snapshot", "--session", session, "--format", "svg", "--out", "/no/such/dir/x.svg"]);
  expect(dir.code).toBe(74);
});
