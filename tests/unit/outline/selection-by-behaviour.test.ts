// A selection is stated only when this session's own key moved exactly one highlight the way
// the key moves: the generic layer's behavioural evidence.
import { afterEach, expect, test } from "bun:test";
import { genericOutline } from "../../../lib/outline/generic.ts";
import { assignRefs } from "../../../lib/outline/refs.ts";
import { SelectionByBehaviour } from "../../../lib/outline/selection-by-behaviour.ts";
import { walk, type OutlineNode } from "../../../lib/outline/types.ts";
import { Screen } from "../../../lib/terminal/screen.ts";

const DOWN = "\x1b[B";
let screen: Screen;
afterEach(() => screen?.dispose());

/** A list of items with `current` drawn inverse, and a status bar drawn inverse on the last row. */
function list(current: number, items = ["alpha", "beta", "gamma", "delta"], extra = ""): string {
  const rows = items.map((item, i) => (i === current ? `\x1b[7m ${item.padEnd(18)}\x1b[0m` : ` ${item}`));
  return `\x1b[H\x1b[2J${rows.join("\r\n")}\r\n\r\n\x1b[7m status bar ${extra}\x1b[0m\x1b[?25l`;
}

async function draw(text: string): Promise<void> {
  await screen.write(text);
  screen.sync();
}

function selected(tracker: SelectionByBehaviour): OutlineNode[] {
  const nodes = assignRefs(genericOutline(screen.grid(), { revision: screen.revision, claim: tracker.claim }));
  return [...walk(nodes)].filter((n) => n.selected);
}

async function start(): Promise<SelectionByBehaviour> {
  screen = new Screen({ cols: 30, rows: 8, scrollback: 0 });
  await draw(list(0));
  return new SelectionByBehaviour();
}

async function press(tracker: SelectionByBehaviour, key: string, after: string, at = 0): Promise<void> {
  tracker.sent(key, () => screen.grid(), at);
  await draw(after);
  tracker.changed(screen.grid(), screen.revision, at + 10);
}

test("without a key sent, no highlight is the selection — not the list's, not the status bar's", async () => {
  const tracker = await start();
  expect(selected(tracker)).toEqual([]);
  const highlights = [...walk(assignRefs(genericOutline(screen.grid())))].filter((n) => n.role === "highlight").map((n) => n.name);
  expect(highlights).toEqual(["alpha", "status bar"]);
});

test("Down moved one highlight one row down: that row is selected, citing the key and the revision", async () => {
  const tracker = await start();
  await press(tracker, DOWN, list(1));
  const [node, ...more] = selected(tracker);
  expect(more).toEqual([]);
  expect(node).toMatchObject({ role: "highlight", name: "beta", selected: true, bbox: { row: 1 } });
  expect(node!.evidence).toEqual([{ source: "behaviour", key: "Down", fromRow: 0, toRow: 1, revision: screen.revision }]);
  // A second Down moves the claim with it.
  await press(tracker, DOWN, list(2));
  expect(selected(tracker).map((n) => n.name)).toEqual(["gamma"]);
});

test("the claim holds while the highlights stay, even as text changes, and lapses when they move on their own", async () => {
  const tracker = await start();
  await press(tracker, DOWN, list(1));
  await draw(list(1, ["alpha", "beta", "gamma", "delta"], "12:01")); // a clock in the status bar
  tracker.changed(screen.grid(), screen.revision, 20);
  expect(selected(tracker).map((n) => n.name)).toEqual(["beta"]);
  await draw(list(3)); // the program moved its highlight without a key from us
  tracker.changed(screen.grid(), screen.revision, 30);
  expect(selected(tracker)).toEqual([]);
});

test("no claim when the key's effect does not match: Up that moves down, two highlights moving, a plain letter, a late move", async () => {
  const up = await start();
  await press(up, "\x1b[A", list(1));
  expect(selected(up)).toEqual([]);
  screen.dispose();

  const letter = await start();
  await press(letter, "j", list(1));
  expect(selected(letter)).toEqual([]);
  screen.dispose();

  const two = await start();
  const bothMoved = `\x1b[H\x1b[2J alpha\r\n\x1b[7m beta              \x1b[0m\r\n gamma\r\n delta\r\n\r\n status bar\x1b[?25l`;
  await press(two, DOWN, bothMoved); // the list moved and the status bar lost its highlight
  expect(selected(two)).toEqual([]);
  screen.dispose();

  const late = await start();
  late.sent(DOWN, () => screen.grid(), 0);
  await draw(list(1));
  late.changed(screen.grid(), screen.revision, 60_000); // long after the key: not its effect
  expect(selected(late)).toEqual([]);
});

test("a redraw in two steps (old highlight erased first) still proves the move", async () => {
  const tracker = await start();
  tracker.sent(DOWN, () => screen.grid(), 0);
  await draw(`\x1b[1;1H\x1b[0m alpha              `); // erased, not drawn yet
  tracker.changed(screen.grid(), screen.revision, 5);
  expect(selected(tracker)).toEqual([]);
  await draw(list(1));
  tracker.changed(screen.grid(), screen.revision, 9);
  expect(selected(tracker).map((n) => n.name)).toEqual(["beta"]);
});

test("Tab moving a dialog's button highlight along its row proves the focused button", async () => {
  screen = new Screen({ cols: 40, rows: 3, scrollback: 0 });
  const buttons = (on: number) => `\x1b[H\x1b[2J Proceed?\r\n  ${on === 0 ? "\x1b[7m< Yes >\x1b[0m" : "< Yes >"}   ${on === 1 ? "\x1b[7m< No >\x1b[0m" : "< No >"}\x1b[?25l`;
  await draw(buttons(0));
  const tracker = new SelectionByBehaviour();
  await press(tracker, "\t", buttons(1));
  expect(selected(tracker).map((n) => [n.name, n.bbox.col, n.bbox.cols])).toEqual([["< No >", 12, 6]]);
});

test("Down Down sent in one write (`press Down Down`) moving the highlight two rows proves the selection", async () => {
  const tracker = await start();
  await press(tracker, DOWN + DOWN, list(2));
  const [node, ...more] = selected(tracker);
  expect(more).toEqual([]);
  expect(node).toMatchObject({ name: "gamma", selected: true });
  expect(node!.evidence).toEqual([{ source: "behaviour", key: "Down Down", fromRow: 0, toRow: 2, revision: screen.revision }]);
  // SS3 arrows (application cursor keys, as mc gets them) repeated too.
  const ss3 = await start();
  await press(ss3, "\x1bOB\x1bOB\x1bOB", list(3));
  expect(selected(ss3).map((n) => n.name)).toEqual(["delta"]);
});

test("repeated keys prove nothing unless the highlight moved by exactly that many rows; a one-row step on the way is waited past", async () => {
  const short = await start();
  await press(short, DOWN + DOWN, list(1)); // one row for two Downs: a skipped key, a scroll, a wrap — unknown
  expect(selected(short)).toEqual([]);
  screen.dispose();

  const far = await start();
  await press(far, DOWN + DOWN, list(3));
  expect(selected(far)).toEqual([]);
  screen.dispose();

  const mixed = await start();
  await press(mixed, DOWN + "\x1b[A", list(1)); // not one key repeated
  expect(selected(mixed)).toEqual([]);
  screen.dispose();

  // A program that draws after each key shows the first step before the second.
  const stepwise = await start();
  stepwise.sent(DOWN + DOWN, () => screen.grid(), 0);
  await draw(list(1));
  stepwise.changed(screen.grid(), screen.revision, 5);
  expect(selected(stepwise)).toEqual([]);
  await draw(list(2));
  stepwise.changed(screen.grid(), screen.revision, 9);
  expect(selected(stepwise).map((n) => n.name)).toEqual(["gamma"]);
});
