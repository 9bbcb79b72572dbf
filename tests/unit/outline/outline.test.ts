import { afterEach, expect, test } from "bun:test";
import { compactOutline } from "../../../lib/outline/compact.ts";
import { genericOutline } from "../../../lib/outline/generic.ts";
import { assignRefs } from "../../../lib/outline/refs.ts";
import { Screen } from "../../../lib/terminal/screen.ts";

let screen: Screen;
afterEach(() => screen?.dispose());

async function outlineOf(text: string, cols = 40, rows = 10) {
  screen = new Screen({ cols, rows, scrollback: 0 });
  await screen.write(text);
  return assignRefs(genericOutline(screen.grid()));
}

test("a box, an inverse row, an OSC 8 link and the cursor give this exact tree: visible facts only", async () => {
  const nodes = await outlineOf([
    "Header line",
    "┌─ Files ──────────┐",
    "│ a.txt            │",
    "│\x1b[7m b.txt            \x1b[0m│",
    "│ c.txt            │",
    "└──────────────────┘",
    "See \x1b]8;;https://example.com/docs\x07the docs\x1b]8;;\x07 now",
    "$ ",
  ].join("\r\n"));
  expect(nodes).toEqual([
    { ref: "@e1", role: "paragraph", name: "Header line", bbox: { row: 0, col: 0, rows: 1, cols: 11 } },
    {
      ref: "@e2", role: "panel", name: "Files", bbox: { row: 1, col: 0, rows: 5, cols: 20 },
      children: [{
        ref: "@e3", role: "paragraph", name: "a.txt\nb.txt\nc.txt", bbox: { row: 2, col: 2, rows: 3, cols: 5 },
        // Highlighted, not "selected": nothing on this screen proves it is the current item.
        children: [{ ref: "@e4", role: "highlight", name: "b.txt", attrs: ["inverse"], bbox: { row: 3, col: 1, rows: 1, cols: 18 } }],
      }],
    },
    {
      // No "input" and no "focused": the cursor's cell is a visible fact, what it means is not.
      ref: "@e5", role: "paragraph", name: "See the docs now\n$", bbox: { row: 6, col: 0, rows: 2, cols: 16 },
      children: [
        { ref: "@e6", role: "link", name: "the docs", value: "https://example.com/docs", bbox: { row: 6, col: 4, rows: 1, cols: 8 }, evidence: [{ source: "escape", sequence: "OSC 8", revision: 0 }] },
        { ref: "@e7", role: "cursor", name: "", bbox: { row: 7, col: 2, rows: 1, cols: 1 } },
      ],
    },
  ]);
  expect(compactOutline(nodes)).toEqual([
    '@e1 paragraph "Header line"',
    '@e2 panel "Files"',
    '  @e3 paragraph "a.txt ⏎ b.txt ⏎ c.txt"',
    '    @e4 highlight "b.txt"',
    '@e5 paragraph "See the docs now ⏎ $"',
    '  @e6 link "the docs" = "https://example.com/docs"',
    '  @e7 cursor at 7,2',
  ]);
});

test("two highlighted rows are highlights but neither is 'the' selection; a short highlight is not a bar", async () => {
  const nodes = await outlineOf(["\x1b[7m one                \x1b[0m", "\x1b[7m two                \x1b[0m", "plain \x1b[44mtag\x1b[0m"].join("\r\n"), 20, 4);
  const highlights = nodes[0]!.children!.filter((n) => n.role === "highlight");
  expect(highlights.map((n) => n.name)).toEqual(["one", "two", "tag"]);
  expect(highlights.some((n) => n.selected)).toBe(false);
});

test("side-by-side and nested panels; wide characters keep their columns", async () => {
  const nodes = await outlineOf([
    "╭─ Left ─╮╭─ Right ──────╮",
    "│ 漢字   ││ ┌─ In ─┐     │",
    "│        ││ │ x    │     │",
    "╰────────╯│ └──────┘     │",
    "          ╰──────────────╯",
  ].join("\r\n"), 30, 5);
  expect(nodes.filter((n) => n.role === "panel").map((n) => [n.role, n.name, n.bbox])).toEqual([
    ["panel", "Left", { row: 0, col: 0, rows: 4, cols: 10 }],
    ["panel", "Right", { row: 0, col: 10, rows: 5, cols: 16 }],
  ]);
  expect(nodes[0]!.children![0]).toMatchObject({ role: "paragraph", name: "漢字", bbox: { row: 1, col: 2, rows: 1, cols: 4 } });
  const inner = nodes[1]!.children!.find((n) => n.role === "panel")!;
  expect(inner).toMatchObject({ name: "In", bbox: { row: 1, col: 12, rows: 3, cols: 8 } });
  expect(inner.children![0]).toMatchObject({ role: "paragraph", name: "x" });
});

test("an incomplete frame is text, not a panel", async () => {
  const nodes = await outlineOf(["┌─ Broken ──┐", "│ no bottom │"].join("\r\n"), 20, 3);
  expect(nodes.map((n) => n.role)).toEqual(["paragraph"]);
});
