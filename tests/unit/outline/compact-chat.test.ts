// The compact outline of a chat program's screen costs less than its text: a done mark that
// holds the answer above it points at it, a highlight of a paragraph's whole text is said on
// the paragraph's line, an answer's value is not quoted twice, a dialog's options once.
import { expect, test } from "bun:test";
import { compactOutline } from "../../../lib/outline/compact.ts";
import type { OutlineNode } from "../../../lib/outline/types.ts";

const box = (row: number, rows = 1) => ({ row, col: 0, rows, cols: 80 });

test("a chat screen's outline says each text once", () => {
  const answer = "Ran 1 shell command\n\n● Created made-by-tool.txt for you.";
  const nodes: OutlineNode[] = [{ ref: "@claude", role: "application", name: "claude", bbox: box(0, 30), children: [
    { ref: "@e1", role: "paragraph", name: "❯ make the file", bbox: box(2), children: [{ ref: "@e2", role: "highlight", name: "❯ make the file", bbox: box(2) }] },
    { ref: "@e3", role: "paragraph", name: "┃ say pong", bbox: box(3), children: [{ ref: "@e4", role: "highlight", name: "say pong", bbox: box(3) }] },
    { ref: "@claude.response", role: "document", name: answer, value: "Created made-by-tool.txt for you.", bbox: box(4, 3) },
    { ref: "@claude.done", role: "status", name: `${answer}\n\n✻ Cooked for 1s · done 4:46 AM`, bbox: box(4, 5) },
    { ref: "@claude.approval", role: "dialog", name: "Do you want to proceed?\n› 1. Yes\n  2. No, and tell Claude what to do differently (esc)\nEsc to cancel", bbox: box(10, 4), children: [
      { ref: "@e5", role: "option", name: "1. Yes", selected: true, bbox: box(11) },
      { ref: "@e6", role: "option", name: "2. No, and tell Claude what to do differently (esc)", bbox: box(12) },
    ] },
  ] }];
  expect(compactOutline(nodes)).toEqual([
    "@claude application",
    '  @e1 paragraph "❯ make the file" [highlight @e2]',
    '  @e3 paragraph "┃ say pong" [highlight @e4]',
    '  @claude.response document "Ran 1 shell command ⏎⏎ ● ‹value›" = "Created made-by-tool.txt for you."',
    '  @claude.done status (text of @claude.response) ⏎ "✻ Cooked for 1s · done 4:46 AM"',
    '  @claude.approval dialog "Do you want to proceed? ⏎ Esc to cancel"',
    '    @e5 option "1. Yes" [selected]',
    '    @e6 option "2. No, and tell Claude what to do differently (esc)"',
  ]);
});
