// The corpus's judge itself: what makes a claim false, what counts as found, where a click by
// ref lands. Small hand-made outlines against small hand-made labels.
import { expect, test } from "bun:test";
import type { OutlineNode } from "../../lib/outline/types.ts";
import type { Grid } from "../../lib/terminal/grid.ts";
import { judge, withoutEvidence } from "./judge.ts";
import type { StateLabel } from "./labels.ts";

const grid = (rows: string[]): Grid => ({
  cols: 40, rows: rows.length, title: "", altScreen: false, cursor: { row: 0, col: 0, visible: true },
  lines: rows.map((text) => ({ text, chars: [...text.padEnd(40)], styles: Array.from({ length: 40 }, () => ({})) })),
} as unknown as Grid);

const SCREEN = grid(["  Apple   Banana", "  < OK >  <Cancel>", "", "mode line"]);
const base: StateLabel = { marker: "m", selected: [], focus: [], input: [], values: {}, clickables: [] };
const node = (ref: string, role: string, bbox: [number, number, number, number], extra: Partial<OutlineNode> = {}): OutlineNode =>
  ({ ref, role, name: ref, bbox: { row: bbox[0], col: bbox[1], rows: bbox[2], cols: bbox[3] }, ...extra });

test("a selected claim outside every labelled selection, or where nothing is selected, is false; inside one it is true and found", () => {
  const label: StateLabel = { ...base, selected: [{ name: "Banana", text: "Banana", box: { row: 0, col: 10, rows: 1, cols: 6 } }] };
  const right = judge(label, [node("@e1", "highlight", [0, 10, 1, 6], { selected: true })], SCREEN);
  expect(right.claims.map((c) => c.verdict)).toEqual(["true"]);
  expect(right.recall.selected).toEqual({ labelled: 1, found: 1 });
  const wrong = judge(label, [node("@e1", "highlight", [0, 2, 1, 5], { selected: true })], SCREEN);
  expect(wrong.claims.map((c) => c.verdict)).toEqual(["false"]);
  expect(wrong.recall.selected).toEqual({ labelled: 1, found: 0 });
  expect(judge(base, [node("@e1", "highlight", [0, 2, 1, 5], { selected: true })], SCREEN).claims[0]!.why).toBe("nothing is selected");
});

test("focused is true on the focus path (containing or inside a focused thing), false across it; input is false where there is no field", () => {
  const label: StateLabel = { ...base, focus: [{ name: "dialog", box: { row: 0, col: 0, rows: 2, cols: 20 } }] };
  const verdicts = judge(label, [
    node("@e1", "panel", [0, 0, 3, 40], { focused: true }), // contains the dialog
    node("@e2", "paragraph", [1, 2, 1, 6], { focused: true }), // inside it
    node("@e3", "paragraph", [1, 10, 2, 20], { focused: true }), // across its edge
    node("@e4", "input", [1, 0, 1, 40]),
  ], SCREEN).claims.map((c) => `${c.kind} ${c.verdict}`);
  expect(verdicts).toEqual(["focused true", "focused true", "focused false", "input false"]);
});

test("a value differing from the label, any value where the ref is absent, and a guess where the screen cannot tell are false", () => {
  const label: StateLabel = { ...base, values: { "@vim.mode": { unknown: true, actual: "insert" }, "@vim.file": { accept: ["b.txt"] }, "@shell.prompt": { absent: true } } };
  const claims = (mode: string, evidence?: OutlineNode["evidence"]) => judge(label, [
    node("@vim.mode", "status", [3, 0, 1, 40], { value: mode, ...(evidence ? { evidence } : {}) }),
    node("@vim.file", "text", [3, 0, 1, 40], { value: "a.txt" }),
    node("@shell.prompt", "input", [3, 0, 1, 40], { value: "" }),
  ], SCREEN).claims.filter((c) => c.kind === "value").map((c) => c.verdict);
  expect(claims("normal")).toEqual(["false", "false", "false"]);
  expect(claims("unknown")).toEqual(["true", "false", "false"]);
  // right, but only behaviour or process evidence may state what the screen cannot show
  expect(claims("insert")).toEqual(["false", "false", "false"]);
  expect(claims("insert", [{ source: "behaviour", key: "i", fromRow: 0, toRow: 0, revision: 3 }])).toEqual(["true", "false", "false"]);
});

test("a click by ref fails when the node reaches past the drawn button, and misses when no node covers it alone", () => {
  const label: StateLabel = { ...base, clickables: [
    { name: "< OK >", role: "button", text: "< OK >", box: { row: 1, col: 2, rows: 1, cols: 6 } },
    { name: "<Cancel>", role: "button", text: "<Cancel>", box: { row: 1, col: 10, rows: 1, cols: 8 } },
  ] };
  const result = judge(label, [node("@e1", "paragraph", [1, 2, 1, 16]), node("@e2", "highlight", [1, 10, 1, 25])], SCREEN);
  expect(result.clicks.map((c) => c.outcome)).toEqual(["miss", "fail"]);
  expect(result.claims.filter((c) => c.kind === "click").map((c) => c.verdict)).toEqual(["false"]);
  expect(judge(label, [node("@e1", "highlight", [1, 2, 1, 6]), node("@e2", "highlight", [1, 10, 1, 8])], SCREEN).clicks.map((c) => c.outcome)).toEqual(["ok", "ok"]);
});

test("a label whose text is not where it says is reported for relabelling", () => {
  const label: StateLabel = { ...base, selected: [{ name: "Banana", text: "Banana", box: { row: 0, col: 2, rows: 1, cols: 5 } }] };
  expect(judge(label, [], SCREEN).labelProblems[0]).toContain("relabel");
});

test("a semantic fact without evidence is reported; visible facts need none", () => {
  const evidence = [{ source: "behaviour" as const, key: "Down", fromRow: 0, toRow: 1, revision: 3 }];
  expect(withoutEvidence([
    node("@e1", "highlight", [0, 2, 1, 5], { attrs: ["inverse"] }), // visible only
    node("@e2", "highlight", [0, 10, 1, 6], { selected: true, evidence }),
    node("@e3", "panel", [0, 0, 4, 40], { children: [node("@e4", "input", [3, 0, 1, 40])] }),
    node("@vim.mode", "status", [3, 0, 1, 9], { value: "normal", focused: true }),
  ])).toEqual(["input @e4 input [3,0,1,40] with no evidence", "focused+value @vim.mode status [3,0,1,9] with no evidence"]);
});
