// Gemini CLI 0.61 resized narrower while it streams an answer: its next frames still count
// their rows at the old width, so its erase stops short and the old frame — "⠼ Thinking...
// (esc to cancel, 0s)", "? for shortcuts" and its status rule — stays above the new one and
// scrolls into the scrollback, which a turn's outline reads (an answer taller than the screen).
// Two real sessions (100×30, "wide lines please" from the model server, resized to 80×24 at its
// second line; `gunzip -k` a cast to replay it):
// - gemini-resize-while-streaming: the old spinner up there kept @gemini.busy on and
//   @gemini.done off for good once the answer had ended; the answer is not complete (resized);
// - gemini-resize-erased-frame: the old status rule up there ended @gemini.done's answer while
//   Gemini CLI had erased its frame to draw the next (one write erases, the next draws): the
//   turn was done at "wide line 04", mid-stream (the cast ends there, still streaming).
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { walk } from "../../../lib/outline/types.ts";
import { Screen } from "../../../lib/terminal/screen.ts";
import { SessionOutline } from "../../../lib/worker/session-outline.ts";
import { useBuiltinAdaptersOnly } from "../../helpers/builtin-adapters-only.ts";

const END = "END OF THE WIDE LINES.";

// Only the built-in manifests.
useBuiltinAdaptersOnly("tw-gemini-resize-");

let screen: Screen | undefined;
afterEach(() => screen?.dispose());

/** Plays a cast as the worker would (the outline read after every frame, input through
 * sending()); returns the outline and the first screen on which the turn was done. */
async function play(cast: string) {
  const file = join(import.meta.dir, "../../testdata/ai-clis", cast);
  const [header, ...events] = new TextDecoder().decode(Bun.gunzipSync(readFileSync(file))).trim().split("\n").map((line) => JSON.parse(line));
  screen = new Screen({ cols: header.term.cols, rows: header.term.rows, scrollback: 1000, reply: () => {} });
  const outline = new SessionOutline(screen, ["gemini"], 0);
  let resized = false;
  let doneOn: string | null = null;
  for (const [, kind, data] of events as [number, string, string][]) {
    if (kind === "o") await screen.write(data);
    else if (kind === "i") outline.sending(data);
    else if (kind === "r") { const [cols, rows] = data.split("x").map(Number); screen.resize(cols!, rows!); resized = true; }
    outline.current();
    if (doneOn === null && outline.turns?.latest?.state === "done") doneOn = screen.text();
  }
  expect(resized).toBe(true);
  const refs = [...walk(outline.current().nodes)].map((node) => node.ref);
  const scrollback = screen.lines(1000).slice(0, -screen.rows);
  return { outline, refs, doneOn, spinnersAbove: scrollback.filter((row) => /\(esc to cancel, /.test(row)).length };
}

test("a Gemini CLI turn resized while it streams ends done: the old frame's spinner left in the scrollback is not busy", async () => {
  const { outline, refs, doneOn, spinnersAbove } = await play("gemini-resize-while-streaming.cast.gz");
  expect(spinnersAbove).toBeGreaterThan(0); // the leftover is really there
  expect(screen!.text()).not.toMatch(/\(esc to cancel, /); // and no spinner on the screen
  expect(refs).not.toContain("@gemini.busy");
  expect(refs).toContain("@gemini.done");
  expect(outline.turns?.latest?.state).toBe("done");
  expect(doneOn).toContain(END); // done no sooner than the answer's end was drawn
  // The leftover rows may be in the answer: it is not claimed whole (lib/adapters/turns.ts).
  const response = [...walk(outline.current().nodes)].find((node) => node.ref === "@gemini.response");
  expect(response?.evidence?.find((e) => e.source === "turn")).toMatchObject({ complete: false, fact: expect.stringContaining("the terminal was resized while the answer was drawn (100x30 → 80x24)") });
});

test("a Gemini CLI frame erased to be drawn again is no end of the turn, though an old status rule stays above", async () => {
  const { outline, refs, doneOn, spinnersAbove } = await play("gemini-resize-erased-frame.cast.gz");
  expect(spinnersAbove).toBeGreaterThan(0);
  expect(doneOn).toBeNull();
  expect(refs).not.toContain("@gemini.done");
  expect(outline.turns?.latest?.state).toBe("running");
});
