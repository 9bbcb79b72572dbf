import { expect, test } from "bun:test";
import { REPLY_GRACE_MS, ReplyGate, type ReplyVerdict } from "../../../lib/terminal/query-replies.ts";

function gate(start: ReplyVerdict, owner = 7) {
  const state = { verdict: start, owner, sent: [] as string[] };
  const g = new ReplyGate({ verdict: () => state.verdict, owner: () => state.owner, send: (data) => state.sent.push(data) });
  return { g, state };
}
/** Resolves once `check` holds (the gate looks again on its own timer), or fails after 2 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = performance.now() + 2000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error("condition never held");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

test("a reply goes at once to a program that reads, never to one that will not", () => {
  const reads = gate("answer");
  reads.g.offer("\x1b[1;1R");
  expect(reads.state.sent).toEqual(["\x1b[1;1R"]);
  const prompt = gate("drop");
  prompt.g.offer("\x1b[1;1R");
  expect(prompt.state.sent).toEqual([]);
});

test("cooked mode: held until the same program switches (then sent, in order), dropped if another takes the terminal", async () => {
  const switching = gate("cooked");
  switching.g.offer("first");
  switching.state.verdict = "answer";
  switching.g.offer("second"); // behind the held one
  expect(switching.state.sent).toEqual([]);
  await until(() => switching.state.sent.length === 2);
  expect(switching.state.sent).toEqual(["first", "second"]);

  const gone = gate("cooked");
  gone.g.offer("reply");
  gone.state.owner = 8; // the asking program exited; the shell (or another) owns the terminal
  gone.state.verdict = "answer";
  await until(() => !gone.g.holding);
  expect(gone.state.sent).toEqual([]);
  gone.g.offer("next"); // nothing is held any more: judged on its own
  expect(gone.state.sent).toEqual(["next"]);
});

test("cooked mode that never ends: dropped after the grace", async () => {
  const stays = gate("cooked");
  stays.g.offer("reply");
  const heldFrom = performance.now();
  await until(() => !stays.g.holding);
  expect(performance.now() - heldFrom).toBeGreaterThanOrEqual(REPLY_GRACE_MS - 1);
  stays.state.verdict = "answer";
  stays.g.offer("later");
  expect(stays.state.sent).toEqual(["later"]);
});
