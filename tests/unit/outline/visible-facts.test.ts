// The generic layer's visible facts on the shapes real programs draw: painted boxes (dialog),
// panels whose bottom border carries text (mc), a framed box beside an unframed column, and
// text folded in the compact outline always said, never dropped.
import { afterEach, expect, test } from "bun:test";
import { compactOutline } from "../../../lib/outline/compact.ts";
import { genericOutline } from "../../../lib/outline/generic.ts";
import { assignRefs } from "../../../lib/outline/refs.ts";
import { walk } from "../../../lib/outline/types.ts";
import { Screen } from "../../../lib/terminal/screen.ts";

let screen: Screen;
afterEach(() => screen?.dispose());

async function outlineOf(text: string, cols: number, rows: number) {
  screen = new Screen({ cols, rows, scrollback: 0 });
  await screen.write(text);
  return assignRefs(genericOutline(screen.grid()));
}

test("on a painted box the paint is paper: only the button drawn in another colour is a highlight, and its box is the button", async () => {
  const blue = "\x1b[44m";
  const white = "\x1b[47m\x1b[30m";
  const rows = [
    `${blue}${" ".repeat(30)}`,
    `${blue}  ${white}┌──────────────────────┐${blue}    `,
    `${blue}  ${white}│ Delete the files?    │${blue}    `,
    `${blue}  ${white}│  ${blue}\x1b[37m< Yes >${white}    < No >   │${blue}    `,
    `${blue}  ${white}└──────────────────────┘${blue}    `,
    `${blue}${" ".repeat(30)}\x1b[0m\x1b[?25l`,
  ].map((row, i) => `\x1b[${i + 1};1H${row}`);
  const nodes = await outlineOf(rows.join(""), 30, 6);
  const highlights = [...walk(nodes)].filter((n) => n.role === "highlight");
  expect(highlights.map((n) => [n.name, n.bbox])).toEqual([["< Yes >", { row: 3, col: 5, rows: 1, cols: 7 }]]);
  expect([...walk(nodes)].some((n) => n.selected || n.focused)).toBe(false);
});

test("a panel's bottom border may carry text (mc's free space) and the panel is still a panel", async () => {
  const nodes = await outlineOf([
    "┌─ /tmp ───────┐┌─ /home ──────┐",
    "│ a.txt        ││ b.txt        │",
    "└───────── 2G ─┘└───────── 9G ─┘",
  ].join("\r\n") + "\x1b[?25l", 32, 3);
  expect(nodes.map((n) => [n.role, n.name, n.bbox.col, n.bbox.cols])).toEqual([["panel", "/tmp", 0, 16], ["panel", "/home", 16, 16]]);
  expect(nodes[0]!.children![0]!.name).toBe("a.txt");
});

test("a framed box beside an unframed column: the box's highlighted row appears once, inside the box", async () => {
  const nodes = await outlineOf([
    "menu      ┌────────┐",
    "files     │ one    │",
    "help      │\x1b[7m two    \x1b[0m│",
    "          └────────┘",
  ].join("\r\n") + "\x1b[?25l", 20, 4);
  const highlights = [...walk(nodes)].filter((n) => n.role === "highlight");
  expect(highlights.map((n) => [n.name, n.bbox.col])).toEqual([["two", 11]]);
  const column = nodes.find((n) => n.role === "paragraph")!;
  expect(column.name).toBe("menu\nfiles\nhelp");
  expect(column.bbox).toEqual({ row: 0, col: 0, rows: 3, cols: 5 });
});

test("a long output keeps its first row, its last rows and its error rows, and says how much it folded", async () => {
  const lines = ["$ python3 build.py", ...Array.from({ length: 30 }, (_, i) => `step ${i} of the build went fine`), "Traceback (most recent call last):",
    ...Array.from({ length: 6 }, (_, i) => `  File "build.py", line ${i + 10}, in step_${i}`), "ZeroDivisionError: division by zero", "$"];
  const nodes = await outlineOf(lines.join("\r\n") + "\x1b[?25l", 60, 40);
  const [line] = compactOutline(nodes);
  expect(line).toContain('"$ python3 build.py ⏎ …');
  expect(line).toContain("Traceback (most recent call last):");
  expect(line).toContain("ZeroDivisionError: division by zero ⏎ $");
  expect(line).toMatch(/\((\d+) of 40 rows folded\)$/);
  const folded = Number(/\((\d+) of 40 rows folded\)$/.exec(line!)![1]);
  const shown = line!.split(" ⏎ ").filter((part) => part !== "…" && !part.startsWith("@e1") && part !== "$\"").length;
  expect(folded + shown + 2).toBeGreaterThanOrEqual(40); // nothing unaccounted for
});

test("a long single row says how many characters were cut", async () => {
  const nodes = await outlineOf(`${"x".repeat(150)}\x1b[?25l`, 160, 2);
  expect(compactOutline(nodes)[0]).toBe(`@e1 paragraph "${"x".repeat(119)}…" (+31 chars)`);
});
