// A turn whose terminal was resized while its answer was drawn: a CLI that counts its rows at the
// old width leaves rows of its earlier frame in the answer (Gemini CLI narrowed while it
// streams), so an answer read from the screen is not claimed whole; only an agreeing transcript
// makes it so. A resize before the submission or after the end changes nothing.
import { expect, test } from "bun:test";
import { TurnTracker, type TranscriptReader } from "../../../lib/adapters/turns.ts";
import type { OutlineNode } from "../../../lib/outline/types.ts";

const box = (row: number) => ({ row, col: 0, rows: 1, cols: 80 });
const app = (children: OutlineNode[]): OutlineNode[] => [{ ref: "@ai", role: "application", name: "ai", bbox: { row: 0, col: 0, rows: 30, cols: 80 }, children }];
const SENT = app([{ ref: "@ai.input", role: "input", name: "> go", value: "go", bbox: box(20) }]);
const BUSY = app([{ ref: "@ai.busy", role: "status", name: "working", bbox: box(19) }, { ref: "@ai.input", role: "input", name: ">", value: "", bbox: box(20) }]);
const DONE = app([
  { ref: "@ai.response", role: "document", name: "the answer", value: "the answer", bbox: box(2) },
  { ref: "@ai.done", role: "status", name: "✻ done", bbox: box(4) },
  { ref: "@ai.input", role: "input", name: ">", value: "", bbox: box(20) },
]);

/** A turn sent at 100x30, `resize` called while it runs, then done: the response's turn evidence. */
function answered(resize: (turns: TurnTracker) => void, transcript: TranscriptReader | null = null, after: (turns: TurnTracker) => void = () => {}) {
  const turns = new TurnTracker("ai", "ai", transcript);
  turns.resized("90x30"); // before any turn: nothing to say
  turns.open("go", 1, SENT, "100x30");
  turns.observe(2, BUSY);
  resize(turns);
  turns.observe(3, DONE);
  expect(turns.latest!.state).toBe("done");
  after(turns);
  const response = turns.annotate(DONE, 3)[0]!.children!.find((node) => node.ref === "@ai.response")!;
  return { value: response.value, ...(response.evidence!.find((e) => e.source === "turn") as { complete: boolean; fact: string; transcript?: string }) };
}

test("an answer drawn at one size is whole; resized while drawn it is not, and the sizes are said", () => {
  expect(answered(() => {})).toMatchObject({ complete: true, fact: expect.stringContaining("complete, the turn is done and the answer is read from its first row") });
  const resized = answered((turns) => { turns.resized("80x24"); turns.resized("80x24"); turns.resized("100x30"); });
  expect(resized.complete).toBe(false);
  expect(resized.fact).toContain("not complete, the terminal was resized while the answer was drawn (100x30 → 80x24 → 100x30); rows of the CLI's earlier frame may remain in it; the text is what is on screen");
  // After the answer ended: it was drawn at one size.
  expect(answered(() => {}, null, (turns) => turns.resized("80x24")).complete).toBe(true);
});

test("resized while drawn, an agreeing transcript makes the answer whole, one that does not is cited", () => {
  const path = "/h/t.jsonl";
  const agreeing = answered((turns) => turns.resized("80x24"), { read: () => ({ text: "the whole answer", path }), signature: () => "a" });
  expect(agreeing).toMatchObject({ complete: true, transcript: path, value: "the whole answer" });
  expect(agreeing.fact).toContain(`complete, the terminal was resized while the answer was drawn (100x30 → 80x24); rows of the CLI's earlier frame may remain in it; the text is the last answer of the CLI's own transcript ${path}`);
  const disagreeing = answered((turns) => turns.resized("80x24"), { read: () => ({ why: `the CLI's transcript ${path} does not agree with the screen`, path }), signature: () => "a" });
  expect(disagreeing).toMatchObject({ complete: false, value: "the answer" });
  expect(disagreeing.fact).toContain(`(the CLI's transcript ${path} does not agree with the screen)`);
});
