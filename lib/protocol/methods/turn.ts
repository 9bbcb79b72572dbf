// Turns of an AI coding CLI (a session whose manifest has turns = true): one call types a prompt,
// submits it and waits until the turn it opened ends or needs the caller.
import * as v from "valibot";
import { doc, TurnInfo } from "../schemas.ts";
import { type MethodDef, writer } from "./common.ts";

const Choice = v.object({
  name: v.string(),
  ref: doc(v.string(), "the item's ref (press the key it names, or click it)"),
  selected: v.optional(doc(v.boolean(), "the highlighted choice (the manifest's rule for it)")),
});

export const TurnResult = v.object({
  session: v.string(),
  turn: TurnInfo,
  response: v.optional(doc(v.object({
    text: doc(v.string(), "the answer as the CLI drew it (@X.response's value)"),
    complete: doc(v.boolean(), "the whole answer: its start and its end are on screen (or in the terminal's scrollback), the turn ended with done and the terminal kept its size while it was drawn — or the CLI's transcript agrees with the screen"),
    why: v.optional(doc(v.string(), "complete: false — what is missing")),
  }), "the turn's answer (absent when the turn drew none)")),
  message: v.optional(doc(v.string(), "error, interrupted, denied, question, approval: the CLI's own words (the region's value or text)")),
  choices: v.optional(doc(v.array(Choice), "approval, question: the options on screen")),
  elapsedMs: v.number(),
});

export const TURN_METHODS = {
  turn: {
    tool: "ai",
    title: "AI coding CLIs: type a prompt into the CLI's input, submit it, and wait until the turn it opened ends (done, error, interrupted, denied) or needs you (approval, question); returns the turn, its answer and the CLI's message. Enter is sent again while the prompt stays in the input; a CLI that never takes it fails the turn (expectation-failed, exit 1)",
    cli: { verb: "turn", summary: "AI coding CLIs: type PROMPT, submit it, wait until the turn ends or needs you (approval, question); prints the state and the answer", words: ["text"], flags: { timeoutMs: "--timeout", settleMs: "--settle" } },
    forward: true,
    readOnly: false,
    params: v.strictObject({
      ...writer,
      text: doc(v.pipe(v.string(), v.minLength(1, "the prompt must not be empty"), v.check((text) => text.trim() !== "", "the prompt must not be blank")), "the prompt (several lines are sent as one paste)"),
      timeoutMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(24 * 3600_000)), "give up waiting for the turn after this long (timeout, exit 124; the turn goes on: wait --turn ID)"), 600_000),
      settleMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000)), "after the prompt shows in the input, the screen stays still this long before Enter (some CLIs take keys in a burst for a paste)"), 150),
    }),
    result: TurnResult,
  },
} as const satisfies Record<string, MethodDef>;
