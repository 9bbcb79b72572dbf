// A browser's resize answers once the page redrew at the new size — and says so when it did not.
// Carbonyl's frame stalls are rare and load-dependent, so a stand-in (tests/testdata/fake-carbonyl)
// draws like Carbonyl and, by its URL's host, redraws, stalls, paints pixels only, or redraws only
// when nudged. The real browser's redraw is in browser.test.ts.
import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { useWorld } from "../helpers/harness.ts";

const world = useWorld({ CARBONYL: resolve(import.meta.dir, "../testdata/fake-carbonyl/carbonyl") });

async function browse(how: string): Promise<void> {
  await world.json(["browse", "--session", how, `http://${how}/`]);
  await world.json(["wait", "--session", how, "--text", "Fake page text"]);
}

test("a page that redraws: the answer comes with its frame, its text read at once", async () => {
  await browse("redraws");
  expect(await world.json(["resize", "--session", "redraws", "100", "30"])).toMatchObject({ cols: 100, rows: 30, redrawn: true, nudged: false });
  expect((await world.run(["snapshot", "--session", "redraws", "--plain"])).stdout).toContain("Fake page text");
  // Two resizes at once (two clients): each sees the frame that follows it.
  const both = await Promise.all([world.json(["resize", "--session", "redraws", "90", "30"]), world.json(["resize", "--session", "redraws", "80", "24"])]);
  for (const sized of both) expect(sized).toMatchObject({ redrawn: true, nudged: false });
});

test("no page frame, pixels without the text, text that goes again, or a frame only after the nudge: each is reported as it is", async () => {
  const kinds = ["stalls", "pixels", "loses-text", "nudged"];
  await Promise.all(kinds.map(browse));
  // The nudge comes at 3 s; each resize waits at most 3.5 s.
  const [stalls, pixels, losesText, nudged] = await Promise.all(kinds.map((how) => world.json(["resize", "--session", how, "100", "30", "--timeout", "3500"])));
  expect(stalls).toMatchObject({ cols: 100, rows: 30, redrawn: false, nudged: true });
  expect(pixels).toMatchObject({ cols: 100, rows: 30, redrawn: false, nudged: true });
  expect(losesText).toMatchObject({ cols: 100, rows: 30, redrawn: false, nudged: true });
  expect(nudged).toMatchObject({ cols: 100, rows: 30, redrawn: true, nudged: true });
  // The size is set either way, and the person reading is told the page did not redraw.
  const human = await world.run(["resize", "--session", "stalls", "90", "30", "--timeout", "100"]);
  expect(human.code).toBe(0);
  expect(human.stdout).toContain("stalls: 90x30");
  expect(human.stdout).toContain("the page did not redraw at this size before the timeout");
});

test("a resize of a browser that exited answers at once, with no redraw claimed", async () => {
  await browse("redraws-then-ends");
  await world.run(["signal", "--session", "redraws-then-ends", "TERM"]);
  await world.json(["wait", "--session", "redraws-then-ends", "--exit"]);
  const sized = await world.json(["resize", "--session", "redraws-then-ends", "100", "30"]);
  expect(sized).toMatchObject({ cols: 100, rows: 30 });
  expect(sized.redrawn).toBeUndefined();
});

test("a bad --timeout is refused with exit 64, naming the flag or the param, and the size is kept", async () => {
  await browse("keeps-size");
  const word = await world.run(["resize", "--session", "keeps-size", "100", "30", "--timeout", "soon"]);
  expect(word.code).toBe(64);
  expect(word.stderr).toContain('--timeout needs a whole number, got "soon"');
  const zero = await world.run(["resize", "--session", "keeps-size", "100", "30", "--timeout", "0"]);
  expect(zero.code).toBe(64);
  expect(zero.stderr).toContain('invalid params for "resize": timeoutMs: Invalid value: Expected >=1 but received 0');
  expect(await world.json(["get", "size", "--session", "keeps-size"])).toMatchObject({ value: { cols: 140, rows: 45 } });
});
