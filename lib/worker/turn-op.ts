// The `turn` op: an AI coding CLI's turn in one call. Each step waits on the screen, never on a
// clock: the input is there and empty; the prompt is typed and its echo seen in the input; the
// screen stays still `settleMs` from the echo (Codex and Gemini CLI take keys arriving in a
// burst for a paste, where Enter is a newline); Enter opens the turn; the CLI takes it (its busy
// mark, or the prompt leaves the input) — Enter again while the prompt stays in the input, and
// after the last try the turn fails saying so; the turn ends or needs the caller.
import { TuiwrightError } from "../protocol/errors.ts";
import type { TurnInfoValue } from "../protocol/methods.ts";
import { walk, type OutlineNode } from "../outline/types.ts";
import type { WorkerOps } from "../link/messages.ts";
import type { SessionCore } from "./session-core.ts";
import { responseWhole, statedWhole } from "../adapters/turns.ts";
import { fileChange } from "../adapters/transcript-files.ts";
import { ENTER_NOT_TAKEN_STILL_MS } from "../waits/wait-engine.ts";

type TurnParams = WorkerOps["turn"][0];
type TurnReply = WorkerOps["turn"][1];

/** After Enter, how long the screen must stay still with the prompt still in the input before
 * Enter counts as not taken (a CLI that took it as part of a paste) and is sent once more. */
const NOT_TAKEN_STILL_MS = 1000;
const ENTER_TRIES = 3;
/** After the last Enter: how long the screen must stay still with the prompt in the input before
 * the turn fails as not taken (longer than between tries: a loaded machine's slow redraw is not
 * a lost Enter); the same a raw `wait --ref @X.done` allows. */
const LAST_ENTER_STILL_MS = ENTER_NOT_TAKEN_STILL_MS;
/** A turn done with no answer on screen: how long the screen must then stay still before "no
 * answer" is believed. opencode draws its end line a frame before the answer's text (seen
 * under load: 160 ms apart); an empty answer stays empty. */
const ANSWER_DRAWN_STILL_MS = 500;
/** A done answer whose start scrolled off, whose CLI's transcript does not agree yet: how long
 * to wait for the CLI to write it (Claude Code draws its end line, then writes the answer). */
const TRANSCRIPT_WRITTEN_MS = 3000;

function node(nodes: OutlineNode[], ref: string): OutlineNode | undefined {
  return [...walk(nodes)].find((n) => n.ref === ref);
}

export async function runTurn(core: SessionCore, params: TurnParams, signal?: AbortSignal): Promise<TurnReply> {
  const started = performance.now();
  const deadline = started + params.timeoutMs;
  const left = () => Math.max(1, Math.round(deadline - performance.now()));
  core.requireRunning("submit a prompt");
  core.screen.sync();
  const chat = core.outline.chat();
  if (!chat) {
    const adapter = core.outline.current().adapter;
    throw new TuiwrightError("usage", `turn needs an AI coding CLI (a manifest with turns: claude, codex, pi, opencode, gemini); this session's screen is ${adapter ? `adapter ${adapter}'s` : "not one a manifest knows"}`, {
      hint: "spawn the CLI (tuiwright spawn -- claude), or type and press Enter yourself",
    });
  }
  const root = `@${chat.root}`;
  const previous = core.outline.turns?.latest;
  if (previous && (previous.state === "submitted" || previous.state === "running" || previous.state === "approval" || previous.state === "question")) {
    const why = previous.state === "approval" || previous.state === "question" ? `waits for your ${previous.state === "approval" ? "approval" : "answer"} (${root}.${previous.state})` : `is still ${previous.state}`;
    throw new TuiwrightError("busy", `turn ${previous.id} ${why}`, {
      hint: `wait --turn ${previous.id} until it ends${previous.state === "approval" || previous.state === "question" ? ", after choosing an option" : ", or press Escape to interrupt it"}`,
      details: { turn: core.outline.turns!.info(previous) },
    });
  }
  const wait = async (spec: Parameters<SessionCore["waitFor"]>[0], label: string) => {
    try {
      return await core.markFailure(core.waitFor(spec, undefined, signal), label);
    } catch (error) {
      if (error instanceof TuiwrightError && error.errorName === "timeout") {
        throw new TuiwrightError("timeout", `turn: ${label} timed out after ${Math.round(performance.now() - started)} ms`, { details: error.details });
      }
      throw error;
    }
  };
  await wait({ ref: `${root}.input`, mode: "any", timeoutMs: left() }, `waiting for ${root}.input`);
  const held = node(core.outline.current().nodes, `${root}.input`)?.value?.trim();
  if (held) {
    throw new TuiwrightError("busy", `${root}.input already holds ${JSON.stringify(held.length > 60 ? `${held.slice(0, 59)}…` : held)}; a turn starts from an empty input`, {
      hint: "clear the input yourself (its own keys), or submit it with press Enter",
    });
  }
  // The echo: the input holds text after the typing (a long paste may show as "[Pasted text …]").
  const multiline = /[\r\n]/.test(params.text);
  await core.type({ text: params.text.replace(/\r\n?/g, "\n"), paste: multiline, raw: false, secret: false,
    wait: { ref: `${root}.input`, refValue: "/\\S/", mode: "any", timeoutMs: Math.min(left(), 30_000) } });
  if (params.settleMs > 0) await wait({ settledMs: params.settleMs, mode: "any", timeoutMs: left() }, `the screen still ${params.settleMs} ms after the echo`);
  // Enter opens the turn; a CLI that took Enter into a paste leaves the prompt in its input and
  // the screen still: Enter again (the same turn: the tracker keeps an untaken prompt's turn).
  const taken = ["running", "approval", "question", "done", "error", "interrupted", "denied"] as const;
  let turnId = 0;
  // An Enter the CLI never takes (lost while it was busy, or every one taken into a paste) fails
  // the turn with what the screen shows, rather than waiting out the timeout for an answer.
  for (let attempt = 1; ; attempt++) {
    const stillMs = attempt === ENTER_TRIES ? LAST_ENTER_STILL_MS : NOT_TAKEN_STILL_MS;
    const pressed = await core.press({ keys: ["Enter"], wait: { turn: turnId || "last", turnState: [...taken], settledMs: stillMs, mode: "any", timeoutMs: left() } });
    const turn = pressed.wait?.turn ?? core.outline.turns?.latest ?? null;
    if (!turn) throw new TuiwrightError("session-exited", "Enter was sent but no turn opened");
    turnId = turn.id;
    if (turn.state !== "submitted") break;
    const input = node(core.outline.current().nodes, `${root}.input`)?.value?.trim() ?? "";
    if (input === "") {
      // Not taken yet but not waiting in the input either: the CLI is slow to show it; wait on.
      await wait({ turn: turnId, turnState: [...taken], mode: "any", timeoutMs: left() }, `turn ${turnId} taken by the CLI`);
      break;
    }
    if (attempt === ENTER_TRIES) {
      const tracked = core.outline.turns?.get(turnId);
      throw new TuiwrightError("expectation-failed", `turn ${turnId}: Enter was sent ${ENTER_TRIES} times and the prompt stays in ${root}.input (${JSON.stringify(input.length > 60 ? `${input.slice(0, 59)}…` : input)}) with the screen still ${LAST_ENTER_STILL_MS} ms after the last: the CLI did not take it`, {
        hint: `snapshot to see why; press Enter yourself to send it again (the same turn ${turnId}), or clear ${root}.input`,
        details: { turn: tracked ? core.outline.turns!.info(tracked) : turn, input },
      });
    }
  }
  const ended = await wait({ turn: turnId, mode: "any", timeoutMs: left() }, `turn ${turnId} to end or need you`);
  if (ended.turn?.state === "done" && !node(core.outline.current().nodes, `${root}.response`)?.value?.trim()) {
    await wait({ ref: `${root}.response`, refValue: "/\\S/", settledMs: ANSWER_DRAWN_STILL_MS, mode: "any", timeoutMs: left() }, `turn ${turnId}'s answer drawn, or the screen still ${ANSWER_DRAWN_STILL_MS} ms`);
  }
  await transcriptWritten(core, turnId, left());
  const turns = core.outline.turns;
  const latest = turns?.get(turnId);
  return { ...describeTurn(core, root, latest ? turns!.info(latest) : ended.turn!), elapsedMs: Math.round(performance.now() - started) };
}

/** The CLI's transcript may be written just after its end mark: waits (at most 3 s, or `leftMs`)
 * for the file to change while the done turn's answer waits on it to agree. */
async function transcriptWritten(core: SessionCore, turnId: number, leftMs: number): Promise<void> {
  const lateBy = performance.now() + Math.min(TRANSCRIPT_WRITTEN_MS, leftMs);
  for (let file = pendingTranscript(core, turnId); file !== null && performance.now() < lateBy; file = pendingTranscript(core, turnId)) {
    await fileChange(file, lateBy - performance.now());
    core.screen.sync();
  }
}

/** After a wait on a turn (its state, or a ref such as @X.done) that fired: the latest turn's
 * transcript grace, as `turn` gives it, so the raw steps read the same whole answer. */
export async function afterTurnWait(core: SessionCore, params: { turn?: unknown; turnState?: unknown; ref?: unknown }): Promise<void> {
  const onTurnRef = typeof params.ref === "string" && /\.(done|response)\b/.test(params.ref);
  if (params.turn === undefined && params.turnState === undefined && !onTurnRef) return;
  const latest = core.outline.turns?.latest;
  if (latest?.state === "done") await transcriptWritten(core, latest.id, TRANSCRIPT_WRITTEN_MS);
}

/** The transcript file the latest done turn's answer waits on to agree, or null. */
function pendingTranscript(core: SessionCore, turnId: number): string | null {
  core.outline.current();
  const turns = core.outline.turns;
  return turns?.latest?.id === turnId ? turns.transcriptPendingFile() : null;
}

/** What the screen says about a turn that ended or needs the caller. */
export function describeTurn(core: SessionCore, root: string, turn: TurnInfoValue): Omit<TurnReply, "elapsedMs"> {
  const nodes = core.outline.current().nodes;
  const result: Omit<TurnReply, "elapsedMs"> = { turn };
  if (turn.state !== "done" && turn.ref) {
    const region = node(nodes, turn.ref);
    if (region) {
      result.message = region.value ?? region.name;
      const choices = (region.children ?? []).map((item) => ({ name: item.name, ref: item.ref, ...(item.selected ? { selected: true } : {}) }));
      if (choices.length > 0) result.choices = choices;
    }
  }
  const response = node(nodes, `${root}.response`);
  // An answer that is only the CLI's error message is no answer.
  const own = response?.value !== undefined && response.value.trim() !== "" && !(result.message && result.message.includes(response.value.trim()));
  if (response?.value !== undefined && own) {
    // The outline's own say (it may have read the CLI's transcript), else the screen's.
    const whole = statedWhole(response) ?? responseWhole(turn, response);
    result.response = { text: response.value, complete: whole.complete, ...(whole.complete ? {} : { why: whole.fact }) };
  }
  return result;
}
