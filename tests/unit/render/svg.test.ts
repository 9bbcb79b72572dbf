// The screen as SVG (snapshot --format svg, and the source of png): program text is data, so it
// is escaped, and the picture shows what the terminal shows (colours, inverse, the cursor).
import { afterEach, expect, test } from "bun:test";
import { Screen } from "../../../lib/terminal/screen.ts";
import { CELL_HEIGHT, CELL_WIDTH, renderSvg } from "../../../lib/render/svg.ts";
import { DEFAULT_BG, DEFAULT_FG } from "../../../lib/render/palette.ts";

const screens: Screen[] = [];
afterEach(() => screens.splice(0).forEach((screen) => screen.dispose()));

async function gridOf(output: string, cols = 20, rows = 3) {
  const screen = new Screen({ cols, rows, scrollback: 0 });
  screens.push(screen);
  await screen.write(output);
  return screen.grid();
}

/** The text elements' contents, as the SVG has them (escaped). */
const texts = (svg: string) => [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
/** Characters XML 1.0 does not allow in a document: an SVG holding one does not parse. */
const NOT_XML = /[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

test("program text with <, >, & and quotes is escaped: no element of its own, no broken attribute", async () => {
  const svg = renderSvg(await gridOf(`<script>alert(1)</script>&"q"`, 40, 2));
  expect(svg).not.toContain("<script");
  expect(texts(svg)).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;q&quot;");
  expect(svg.match(/<text /g)!.length).toBe(svg.match(/<\/text>/g)!.length);
});

test("the chrome title and annotation labels are escaped too", async () => {
  const svg = renderSvg(await gridOf("hi"), { chrome: `</text><script>x()</script> & "t"`, annotations: [{ bbox: { row: 0, col: 0, rows: 1, cols: 2 }, label: `<b>&"` }] });
  expect(svg).not.toContain("<script");
  expect(svg).not.toContain("<b>");
  expect(texts(svg)).toContain("&lt;/text&gt;&lt;script&gt;x()&lt;/script&gt; &amp; &quot;t&quot;");
  expect(texts(svg)).toContain("&lt;b&gt;&amp;&quot;");
});

test("characters XML does not allow (a program's U+FFFF, a control in a title) become U+FFFD, so the SVG still parses", async () => {
  const grid = await gridOf("a\uffffb\ufffec");
  const svg = renderSvg(grid, { chrome: "title\x01\x1b[2J", annotations: [{ bbox: { row: 0, col: 0, rows: 1, cols: 1 }, label: "\x02e1" }] });
  expect(NOT_XML.exec(svg)).toBeNull();
  expect(texts(svg)).toContain("a\ufffdb\ufffdc");
  expect(texts(svg)).toContain("title\ufffd\ufffd[2J");
});

test("inverse swaps foreground and background, default colours included", async () => {
  const coloured = renderSvg(await gridOf("\x1b[31;42;7mX\x1b[0m"));
  expect(coloured).toContain(`<rect x="0" y="0" width="${CELL_WIDTH}" height="${CELL_HEIGHT}" fill="#cd0000"/>`);
  expect(coloured).toMatch(/<text x="0" y="13" fill="#00cd00">X<\/text>/);
  const plain = renderSvg(await gridOf("\x1b[7mY\x1b[0m"));
  expect(plain).toContain(`width="${CELL_WIDTH}" height="${CELL_HEIGHT}" fill="${DEFAULT_FG}"/>`);
  expect(plain).toMatch(new RegExp(`<text x="0" y="13" fill="${DEFAULT_BG}">Y</text>`));
  const normal = renderSvg(await gridOf("\x1b[31;42mZ\x1b[0m"));
  expect(normal).toMatch(/fill="#00cd00"\/>\n<text x="0" y="13" fill="#cd0000">Z<\/text>/);
});

test("256-colour and true-colour text, bold, dim, italic and underline reach the SVG", async () => {
  const svg = renderSvg(await gridOf("\x1b[38;5;196ma\x1b[38;2;1;2;3mb\x1b[0;1mc\x1b[0;2md\x1b[0;3me\x1b[0;4mf\x1b[0m"));
  expect(svg).toMatch(/fill="#ff0000">a</);
  expect(svg).toMatch(/fill="#010203">b</);
  expect(svg).toMatch(/font-weight="bold">c</);
  expect(svg).toMatch(/opacity="0.5">d</);
  expect(svg).toMatch(/font-style="italic">e</);
  expect(svg).toMatch(/text-decoration="underline">f</);
});

test("each glyph sits at its column: blanks are skipped, a wide character takes two", async () => {
  const svg = renderSvg(await gridOf("a b漢c"));
  expect(svg).toContain(`<text x="0 ${2 * CELL_WIDTH} ${3 * CELL_WIDTH} ${5 * CELL_WIDTH}" y="13" fill="${DEFAULT_FG}">ab漢c</text>`);
});

test("the cursor is drawn where it is, only when visible and inside the grid", async () => {
  const cursorRect = /<rect [^>]*opacity="0.6"\/>/g;
  const shown = renderSvg(await gridOf("ab\r\nx"));
  expect(shown.match(cursorRect)).toEqual([`<rect x="${CELL_WIDTH}" y="${CELL_HEIGHT}" width="${CELL_WIDTH}" height="${CELL_HEIGHT}" fill="${DEFAULT_FG}" opacity="0.6"/>`]);
  expect(renderSvg(await gridOf("ab\x1b[?25l")).match(cursorRect)).toBeNull();
  // After the last column the cursor waits to wrap, one past the grid: nothing to draw there.
  const full = await gridOf("abcd", 4, 2);
  expect(full.cursor).toEqual({ row: 0, col: 4, visible: true });
  expect(renderSvg(full).match(cursorRect)).toBeNull();
});

test("the picture's size follows the grid, with the title bar's height added for chrome", async () => {
  const grid = await gridOf("", 80, 24);
  const width = Number((80 * CELL_WIDTH + 16).toFixed(2));
  expect(renderSvg(grid)).toStartWith(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${24 * CELL_HEIGHT + 16}"`);
  expect(renderSvg(grid, { chrome: "" })).toStartWith(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${24 * CELL_HEIGHT + 16 + 28}"`);
  expect(renderSvg(grid)).not.toContain("<circle");
  expect(renderSvg(grid, { chrome: "" }).match(/<circle/g)!.length).toBe(3);
});

test("an annotation is a box over its cells with its label above", async () => {
  const svg = renderSvg(await gridOf("[ OK ]"), { annotations: [{ bbox: { row: 1, col: 2, rows: 1, cols: 4 }, label: "@e3" }] });
  expect(svg).toContain(`<rect x="${2 * CELL_WIDTH}" y="${CELL_HEIGHT}" width="${4 * CELL_WIDTH}" height="${CELL_HEIGHT}" fill="none" stroke="#ffb000" stroke-width="2"/>`);
  expect(texts(svg)).toContain("@e3");
});
