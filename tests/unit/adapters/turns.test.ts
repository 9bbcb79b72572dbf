// The turn tracker on hand-made outlines: which end marks belong to the turn just sent.
import { expect, test } from "bun:test";
import { inputTakesKeys, TurnTracker, typedText } from "../../../lib/adapters/turns.ts";
import type { OutlineNode } from "../../../lib/outline/types.ts";
import { SCROLLED } from "../../../lib/adapters/manifest-outline.ts";

type Region = { name?: string; value?: string; row?: number };

/** A chat program's outline: @ai with the regions given (name: their text). */
function screen(regions: Record<string, Region>): OutlineNode[] {
  const children = Object.entries(regions).map(([region, r], i): OutlineNode => ({
    ref: `@ai.${region}`, role: "status", name: r.name ?? region, ...(r.value !== undefined ? { value: r.value } : {}),
    bbox: { row: r.row ?? i, col: 0, rows: 1, cols: 80 },
  }));
  return [{ ref: "@ai", role: "application", name: "ai", bbox: { row: 0, col: 0, rows: 30, cols: 80 }, children }];
}

const refs = (nodes: OutlineNode[]) => (nodes[0]!.children ?? []).map((n) => n.ref);
const OLD_DONE = { done: { name: "● old answer ✻ done", row: 5 }, response: { name: "● old answer", value: "old answer", row: 5 } };

test("the previous turn's done is not this turn's: dropped until it goes, then a new one ends the turn", () => {
  const turns = new TurnTracker("ai", "ai");
  const before = screen({ ...OLD_DONE, input: { name: "> next", value: "next", row: 20 } });
  expect(turns.promptOf(before, "")).toBe("next");
  const turn = turns.open("next", 10, before, "80x24");
  expect(turn.state).toBe("submitted");
  // The screen after Enter, before the CLI redrew: the old done is still drawn.
  const unchanged = screen({ ...OLD_DONE, input: { name: "> next", value: "next", row: 20 } });
  turns.observe(11, unchanged);
  expect(turn.state).toBe("submitted");
  expect(refs(turns.annotate(unchanged, 11)).sort()).toEqual(["@ai.input", "@ai.turn"]);
  // The CLI took it: busy, the old marks gone.
  turns.observe(12, screen({ busy: { name: "esc to interrupt", row: 29 }, input: { name: ">", value: "", row: 20 } }));
  expect(turn).toMatchObject({ state: "running", taken: 12, takenBy: "@ai.busy appeared" });
  const after = screen({ done: { name: "● new answer ✻ done", row: 8 }, response: { name: "● new answer", value: "new answer", row: 8 }, input: { name: ">", value: "", row: 20 } });
  expect(turns.observe(13, after)).toBe(true);
  expect(turn).toMatchObject({ state: "done", changed: 13, region: { ref: "@ai.done" } });
  const annotated = turns.annotate(after, 13);
  const done = annotated[0]!.children!.find((n) => n.ref === "@ai.done")!;
  expect(done.evidence).toEqual([{ source: "turn", turn: 1, submitted: 10, taken: 12, revision: 13, fact: expect.stringContaining("drawn after turn 1 was sent (revision 10) and taken (revision 12") }]);
  expect(annotated[0]!.children!.find((n) => n.ref === "@ai.turn")).toMatchObject({ value: "done", name: "next" });
  // Ends are final: later screens do not move it.
  turns.observe(14, screen({ error: { name: "boom" } }));
  expect(turn.state).toBe("done");
});

test("a whole turn in one parsed batch: the old done replaced by a new one counts, the prompt having left the input", () => {
  const turns = new TurnTracker("ai", "ai");
  const turn = turns.open("next", 10, screen({ ...OLD_DONE, input: { name: "> next", value: "next", row: 20 } }), "80x24");
  turns.observe(11, screen({ done: { name: "● new answer ✻ done", row: 9 }, input: { name: ">", value: "", row: 20 } }));
  expect(turn).toMatchObject({ state: "done", taken: 11 });
  expect(turn.takenBy).toContain("the prompt left @ai.input");
});

test("Enter the CLI took into a paste: the prompt stays in the input, the old done stays old, the turn stays submitted", () => {
  const turns = new TurnTracker("ai", "ai");
  const turn = turns.open("next", 10, screen({ ...OLD_DONE, input: { name: "> next", value: "next", row: 20 } }), "80x24");
  const pasted = screen({ ...OLD_DONE, input: { name: "> next\n", value: "next", row: 20 } });
  turns.observe(11, pasted);
  expect(turn.state).toBe("submitted");
  expect(refs(turns.annotate(pasted, 11))).not.toContain("@ai.done");
  // Enter again on the same prompt is the same submission.
  expect(turns.open("next", 11, pasted, "80x24")).toBe(turn);
  expect(turns.list.length).toBe(1);
});

test("a busy mark already on screen when the prompt was sent (the turn before still running) does not take it", () => {
  const turns = new TurnTracker("ai", "ai");
  const busy = { busy: { name: "esc to interrupt", row: 29 } };
  const turn = turns.open("queued", 10, screen({ ...busy, input: { name: "> queued", value: "queued", row: 20 } }), "80x24");
  turns.observe(11, screen({ ...busy, input: { name: "> queued", value: "queued", row: 20 } }));
  expect(turn.state).toBe("submitted");
  turns.observe(12, screen({ ...OLD_DONE, input: { name: "> queued", value: "queued", row: 20 } }));
  expect(turn.state).toBe("submitted");
});

test("approval and question are waiting states of the running turn; the turn goes on after them", () => {
  const turns = new TurnTracker("ai", "ai");
  const turn = turns.open("make it", 1, screen({ input: { name: "> make it", value: "make it" } }), "80x24");
  turns.observe(2, screen({ approval: { name: "Allow?" } }));
  expect(turn).toMatchObject({ state: "approval", taken: 2, region: { ref: "@ai.approval" } });
  turns.observe(3, screen({ busy: { name: "working" } }));
  expect(turn.state).toBe("running");
  turns.observe(4, screen({ interrupted: { name: "Interrupted" } }));
  expect(turn.state).toBe("interrupted");
});

test("no turn opens without a prompt, on an approval, or for a slash command; a blank region is absent", () => {
  const turns = new TurnTracker("ai", "ai");
  expect(turns.promptOf(screen({ input: { name: ">", value: "" } }), "")).toBeNull();
  expect(turns.promptOf(screen({ input: { name: ">", value: "" } }), "typed")).toBe("typed");
  expect(turns.promptOf(screen({ input: { name: "> x", value: "x" }, approval: { name: "Allow?" } }), "")).toBeNull();
  expect(turns.promptOf(screen({ input: { name: "> /clear", value: "/clear" } }), "")).toBeNull();
  expect(turns.promptOf(screen({ response: { name: "a" } }), "text")).toBeNull();
  const turn = turns.open("go", 1, screen({ response: { name: "  " }, input: { name: "> go", value: "go" } }), "80x24");
  turns.observe(2, screen({ response: { name: "" }, busy: { name: "working" } }));
  expect(turn.state).toBe("running");
  expect(refs(turns.annotate(screen({ response: { name: "" } }), 2))).not.toContain("@ai.response");
});

test("the prompt is what this session typed when the CLI has not echoed it yet; keys are applied as a line takes them", () => {
  const turns = new TurnTracker("ai", "ai");
  expect(typedText("", "count twx\x7fo again")).toBe("count two again");
  expect(typedText("old", "\x15new\x1b[200~pasted\nline\x1b[201~\x1b[A")).toBe("newpasted\nline");
  const empty = screen({ input: { name: ">", value: "" } });
  expect(turns.promptOf(empty, "count two again")).toBe("count two again");
  // A partial echo is part of what was typed: the typed text is the prompt.
  expect(turns.promptOf(screen({ input: { name: "> count tw", value: "count tw" } }), "count two again")).toBe("count two again");
  // Text in the input someone else typed: the input's own text.
  expect(turns.promptOf(screen({ input: { name: "> by hand", value: "by hand" } }), "")).toBe("by hand");
  expect(inputTakesKeys(screen({ input: { name: ">" }, question: { name: "Which?" } }), "ai")).toBe(false);
});

test("a prompt never echoed has not left the input: an unrelated redraw does not take the turn", () => {
  const turns = new TurnTracker("ai", "ai");
  const turn = turns.open("typed ahead", 3, screen({ input: { name: ">", value: "" }, footer: { name: "? for shortcuts" } }), "80x24");
  turns.observe(4, screen({ input: { name: ">", value: "" }, footer: { name: "← for agents" } }));
  expect(turn.state).toBe("submitted");
  turns.observe(5, screen({ input: { name: "> typed ahead", value: "typed ahead" } }));
  turns.observe(6, screen({ input: { name: ">", value: "" } }));
  expect(turn).toMatchObject({ state: "running", taken: 6 });
});

/** A region read from a manifest alternative whose start scrolled above the screen. */
const scrolled = (node: Region) => ({ ...node, evidence: [{ source: "manifest" as const, adapter: "ai", rule: `regions.5 ${SCROLLED}`, revision: 1 }] });

function withEvidence(nodes: OutlineNode[], regions: Record<string, ReturnType<typeof scrolled>>): OutlineNode[] {
  for (const child of nodes[0]!.children ?? []) {
    const r = regions[child.ref.slice(4)];
    if (r?.evidence) child.evidence = r.evidence;
  }
  return nodes;
}

test("an end mark whose start scrolled away counts only once seen gone since the submission: the old one moving up is not this turn's", () => {
  const turns = new TurnTracker("ai", "ai");
  const old = { done: scrolled({ name: "…line 100 ▣ 10.8s", row: 0 }), response: scrolled({ name: "…line 100", value: "line 100", row: 0 }) };
  const at = (row: number) => withEvidence(screen({ done: { ...old.done, row }, response: { ...old.response, row }, input: { name: ">", value: "", row: 26 } }), old);
  const turn = turns.open("next", 10, withEvidence(screen({ ...old, input: { name: "> next", value: "next", row: 26 } }), old), "80x24");
  // The next prompt drawn below the old answer pushes it up a row: moved, not drawn anew.
  turns.observe(11, at(0));
  turns.observe(12, withEvidence(screen({ done: { ...old.done, name: "…line 99 ▣ 10.8s" }, response: old.response, input: { name: ">", value: "", row: 26 } }), old));
  expect(turn.state).toBe("submitted");
  // The CLI works (its busy mark hides the end), then a new end mark: that one is the turn's.
  turns.observe(13, screen({ busy: { name: "esc interrupt", row: 29 }, input: { name: ">", value: "", row: 26 } }));
  turns.observe(14, at(0));
  expect(turn).toMatchObject({ state: "done", changed: 14 });
  const response = turns.annotate(at(0), 14)[0]!.children!.find((n) => n.ref === "@ai.response")!;
  expect(response.evidence!.at(-1)).toMatchObject({ source: "turn", complete: false, fact: expect.stringContaining("scrolled above") });
});
