// The wait engine. A wait is a set of conditions, each a small predicate over the session's
// current state; all pending waits are re-evaluated after every revision bump and on exit —
// never on a polling tick. `settled` schedules one timer at (last change + N ms), moved
// whenever the screen changes again, so a screen quiet for minutes satisfies it at once.
import { TuiwrightError } from "../protocol/errors.ts";
import type { ExitStatusValue, TurnInfoValue, TurnStateValue, WaitResultValue, WaitSpec } from "../protocol/methods.ts";
import type { OutlineNode } from "../outline/types.ts";
import { select } from "../selector/match.ts";
import { parseSelector } from "../selector/parse.ts";
import { linearPattern, linearTextOrPattern } from "../terminal/linear-pattern.ts";
import { isSlashedPattern } from "../terminal/pattern.ts";
import type { Screen } from "../terminal/screen.ts";

export type WaitState = {
  screen: Screen;
  exit: ExitStatusValue | null;
  /** The program exited and all its output has been parsed. */
  ended: boolean;
  /** The current outline; only computed when a ref condition asks. */
  outline(): OutlineNode[];
  /** Shell sessions with integration: the output stream, and where blocks ended. */
  output: { end: number; start: number; slice(from: number, to?: number): string; promptAfter(cursor: number): number | null; interactiveEndAfter?(cursor: number): number | null } | null;
  /** When the session last sent input (performance.now()): the screen is not settled while
   * the program may still be answering it (its echo). */
  lastInputAt: number;
  /** A chat program's turns (lib/adapters/turns.ts): one by id, the latest one's id (0: none),
   * the chat's root (null: no turn yet), and the latest turn when the CLI has not taken it and
   * its prompt is still the input's value (with that value). */
  turns: { get(id: number): TurnInfoValue | null; latestId(): number; root(): string | null; notTaken(): { turn: TurnInfoValue; input: string } | null };
};

/** How long the screen must stay still (no output, no input) with a submitted prompt still in
 * the chat's input before a wait for that turn fails: the CLI did not take the Enter. Long
 * enough that a loaded machine's slow redraw is not a lost Enter (a CLI that takes a prompt
 * clears its input or shows its busy mark within a frame). */
export const ENTER_NOT_TAKEN_STILL_MS = 5000;

/** The states a turn wait ends on by default: the turn needs the caller. */
const TURN_NEEDS_YOU: TurnStateValue[] = ["done", "error", "interrupted", "denied", "approval", "question"];

type OutputMatch = { matched: boolean; matchText: string; cursor: number };

type Condition = {
  label: string;
  /** screen: reads screen content; the others read time, the revision counter or the exit. */
  kind: "screen" | "settled" | "revision" | "exit" | "output" | "turn";
  /** `text`: the screen's rows, right-trimmed; `toCursor`: the same with the cursor's row kept
   * up to the cursor (a prompt's trailing space). Text conditions hold if either matches. */
  holds(state: WaitState, text: () => string, toCursor: () => string): boolean;
  /** For time-based conditions: when the condition will hold if nothing changes. */
  readyAt?(state: WaitState): number;
  /** For output conditions: what matched, and the cursor just past it. */
  match?(state: WaitState): OutputMatch | null;
  /** For turn conditions: the turn as it stands. */
  turn?(state: WaitState): TurnInfoValue | null;
};

type Pending = {
  conditions: Condition[];
  mode: "any" | "all";
  startedAt: number;
  /** When the wait gives up (performance.now() time); Infinity without a timeout. */
  deadline: number;
  /** The conditions that did not hold at the last evaluation: what a timeout reports, so
   * timing out never costs another round of (possibly expensive) regex evaluation. */
  lastUnmet: string[] | null;
  includeText: boolean;
  inScrollback: boolean;
  resolve(result: WaitResultValue): void;
  reject(error: TuiwrightError): void;
  timeout?: ReturnType<typeof setTimeout>;
  settleTimer?: ReturnType<typeof setTimeout>;
  /** The wait is for a chat's turn (a turn condition, or a ref under the chat's root, e.g.
   * `@gemini.done`): it fails once the prompt it waits on was plainly not taken. The ref
   * selector, or true for a turn condition; false for other waits. */
  forTurn: string | boolean;
};

const SCROLLBACK_FOR_WAITS = 100_000;

/** For waits attached to an action: only screens after the action count, and "settled" is
 * measured from the action too — otherwise the prompt before Enter satisfies `--text '$ '`. */
export type WaitAnchor = { revision: number; at: number };

/** A turn reaches one of `states`. "last" is the latest turn; a wait attached to an action
 * (anchored) waits for a turn the action opens, never one from before it. */
function turnCondition(which: number | "last", states: TurnStateValue[] | undefined, anchor: WaitAnchor | undefined, now: WaitState): Condition {
  const wanted = states ?? TURN_NEEDS_YOU;
  const before = now.turns.latestId();
  if (which !== "last" && now.turns.get(which) === null) {
    throw new TuiwrightError("usage", before === 0 ? `there is no turn ${which}: no prompt has been submitted in this session` : `there is no turn ${which} (the latest is ${before})`, {
      hint: "turns open when a prompt is submitted into an AI coding CLI's input (turn TEXT, or Enter with @X.input holding the prompt)",
    });
  }
  if (which === "last" && !anchor && before === 0) {
    throw new TuiwrightError("usage", "no turn: no prompt has been submitted in this session", { hint: "submit one with `turn TEXT` (or press Enter with the prompt in @X.input), then wait --turn last" });
  }
  const find = (state: WaitState): TurnInfoValue | null => {
    if (which !== "last") return state.turns.get(which);
    const latest = state.turns.latestId();
    return anchor && latest <= before ? null : state.turns.get(latest);
  };
  return {
    kind: "turn",
    label: `turn ${which} ${wanted.join("|")}`,
    holds: (state) => { const turn = find(state); return turn !== null && wanted.includes(turn.state); },
    turn: find,
  };
}

function compile(spec: WaitSpec, anchor?: WaitAnchor, now?: WaitState): Condition[] {
  const conditions: Condition[] = [];
  const negate = spec.gone === true;
  const verb = negate ? " gone" : "";
  for (const text of spec.text ?? []) {
    conditions.push({ kind: "screen", label: `text ${JSON.stringify(text)}${verb}`, holds: (_s, screenText, toCursor) => (screenText().includes(text) || (toCursor() !== screenText() && toCursor().includes(text))) !== negate });
  }
  for (const source of spec.regex ?? []) {
    const re = linearPattern(source);
    conditions.push({ kind: "screen", label: `regex ${re.label}${verb}`, holds: (_s, screenText, toCursor) => (re.test(screenText()) || (toCursor() !== screenText() && re.test(toCursor()))) !== negate });
  }
  if (spec.settledMs !== undefined) {
    const ms = spec.settledMs;
    const since = (state: WaitState) => Math.max(state.screen.lastChangeAt, anchor?.at ?? 0, state.lastInputAt);
    conditions.push({
      kind: "settled",
      label: `settled ${ms}ms`,
      holds: (state) => performance.now() - since(state) >= ms,
      readyAt: (state) => since(state) + ms,
    });
  }
  if (spec.changedSince !== undefined) {
    const since = spec.changedSince;
    conditions.push({ kind: "revision", label: `changed-since ${since}`, holds: (state) => state.screen.revision > since });
  }
  if (spec.title !== undefined) {
    const matches = linearTextOrPattern(spec.title);
    conditions.push({ kind: "screen", label: `title ${JSON.stringify(spec.title)}`, holds: (state) => matches(state.screen.title) });
  }
  if (spec.cursor !== undefined) {
    const { row, col } = spec.cursor;
    conditions.push({ kind: "screen", label: `cursor ${row},${col}`, holds: (state) => state.screen.cursor.row === row && state.screen.cursor.col === col });
  }
  if (spec.altScreen !== undefined) {
    const want = spec.altScreen;
    conditions.push({ kind: "screen", label: `alt-screen ${want ? "on" : "off"}`, holds: (state) => state.screen.altScreen === want });
  }
  if (spec.ref !== undefined) {
    const selector = parseSelector(spec.ref);
    const wanted = spec.refValue === undefined ? null : linearTextOrPattern(spec.refValue);
    const label = `ref ${spec.ref}${spec.refValue === undefined ? "" : ` = ${JSON.stringify(spec.refValue)}`}${verb}`;
    const present = (state: WaitState) => select(state.outline(), selector).some((n) => wanted === null || (n.value !== undefined && wanted(n.value)));
    conditions.push({ kind: "screen", label, holds: (state) => present(state) !== negate });
  } else if (spec.refValue !== undefined) {
    throw new TuiwrightError("usage", "refValue needs ref: the selector whose value to check");
  }
  if (spec.output !== undefined) conditions.push(outputCondition(spec.output, spec.fromCursor ?? 0, spec.maxBytes));
  else if (spec.fromCursor !== undefined || spec.maxBytes !== undefined) {
    throw new TuiwrightError("usage", "fromCursor and maxBytes go with an output condition");
  }
  if (spec.turn !== undefined) conditions.push(turnCondition(spec.turn, spec.turnState, anchor, now!));
  else if (spec.turnState !== undefined) throw new TuiwrightError("usage", "turnState needs turn: the turn whose state to wait for (an id, or last)");
  if (anchor) anchorScreenConditions(conditions, anchor);
  if (spec.exit) conditions.push({ kind: "exit", label: "exit", holds: (state) => state.ended });
  if (conditions.length === 0) {
    throw new TuiwrightError("usage", "wait needs at least one condition", {
      hint: "give --text, --regex, --ref, --settled, --changed-since, --title, --cursor, --alt-screen, --turn or --exit",
    });
  }
  return conditions;
}

/** Matches the output stream from a cursor: STR, /RE/, PROMPT (a block ended) or EOF. */
function outputCondition(wanted: string, from: number, maxBytes: number | undefined): Condition {
  const label = `output ${wanted === "PROMPT" || wanted === "EOF" ? wanted : JSON.stringify(wanted)} from ${from}`;
  const slashed = isSlashedPattern(wanted);
  const re = slashed ? linearPattern(wanted) : null;
  const find = (state: WaitState): OutputMatch | null => {
    const output = state.output;
    if (!output) throw new TuiwrightError("usage", "output waits need a shell session with integration: start one with `spawn --shell`");
    if (wanted === "EOF") {
      // The interactive session ended (back at the prompt, or ended) or the shell exited.
      const at = output.interactiveEndAfter?.(from) ?? null;
      if (at !== null) return { matched: true, matchText: "", cursor: at };
      return state.ended ? { matched: true, matchText: "", cursor: output.end } : null;
    }
    if (wanted === "PROMPT") {
      const at = output.promptAfter(from);
      return at === null ? null : { matched: true, matchText: "", cursor: at };
    }
    if (from < output.start) {
      throw new TuiwrightError("bad-data", `cursor ${from} is older than the output kept in memory (from ${output.start})`, { hint: "the transcript on disk has all of it" });
    }
    const window = output.slice(from, maxBytes === undefined ? undefined : from + maxBytes);
    if (re) {
      const m = re.exec(window);
      return m ? { matched: true, matchText: m.text, cursor: from + Buffer.byteLength(window.slice(0, m.index + m.text.length)) } : null;
    }
    const index = window.indexOf(wanted);
    // Cursors are UTF-8 byte offsets.
    return index < 0 ? null : { matched: true, matchText: wanted, cursor: from + Buffer.byteLength(window.slice(0, index + wanted.length)) };
  };
  return { kind: "output", label, holds: (state) => find(state) !== null, match: find };
}

function anchorScreenConditions(conditions: Condition[], anchor: WaitAnchor): void {
  for (const condition of conditions) {
    if (condition.kind !== "screen") continue;
    const holds = condition.holds;
    condition.holds = (state, text, toCursor) => state.screen.revision > anchor.revision && holds(state, text, toCursor);
  }
}

function excerpt(screen: Screen): string {
  return screen.text().split("\n").slice(-20).join("\n");
}

export class WaitEngine {
  readonly #state: () => WaitState;
  readonly #pending = new Set<Pending>();

  constructor(state: () => WaitState) {
    this.#state = state;
  }

  /** Throws bad-regex / usage synchronously (before any waiting) for bad conditions. */
  /** `signal` aborts the wait (its caller hung up), freeing it at once rather than at its timeout. */
  wait(spec: WaitSpec & { includeText?: boolean }, anchor?: WaitAnchor, signal?: AbortSignal): Promise<WaitResultValue> {
    const conditions = compile(spec, anchor, this.#state());
    return new Promise((resolve, reject) => {
      const startedAt = performance.now();
      const timeoutMs = spec.timeoutMs ?? 10_000;
      const pending: Pending = {
        conditions,
        mode: spec.mode ?? "any",
        startedAt,
        deadline: timeoutMs === 0 ? Infinity : startedAt + timeoutMs, // 0 checks once, fully
        lastUnmet: null,
        includeText: spec.includeText ?? false,
        inScrollback: spec.inScrollback ?? false,
        // A wait that watches stillness itself (`turn` sends Enter again after a still screen) decides on its own.
        forTurn: spec.settledMs !== undefined ? false : spec.turn !== undefined ? true : spec.ref !== undefined && !spec.gone ? spec.ref : false,
        resolve,
        reject,
      };
      if (this.#settle(pending, timeoutMs === 0)) return;
      if (this.#hopeless(pending)) return this.#fail(pending, "ended");
      if (timeoutMs === 0) return this.#fail(pending, "timeout");
      this.#pending.add(pending);
      // Counted from the start: the first evaluation's time is part of the timeout.
      pending.timeout = setTimeout(() => this.#fail(pending, "timeout"), Math.max(0, pending.deadline - performance.now()));
      signal?.addEventListener("abort", () => {
        if (!this.#pending.has(pending)) return;
        this.#clear(pending);
        reject(new TuiwrightError("timeout", "wait cancelled: the caller disconnected"));
      }, { once: true });
    });
  }

  /** Re-evaluates every pending wait; call after each revision bump and when the program ends. */
  notify(): void {
    for (const pending of this.#pending) {
      if (this.#settle(pending)) continue;
      if (this.#hopeless(pending)) this.#fail(pending, "ended");
    }
  }

  cancelAll(error: TuiwrightError): void {
    for (const pending of this.#pending) { this.#clear(pending); pending.reject(error); }
  }

  get size(): number {
    return this.#pending.size;
  }

  /** The program has ended, so the screen can no longer change: only time can still help. */
  #hopeless(pending: Pending): boolean {
    return this.#state().ended && !pending.conditions.some((c) => c.kind === "settled");
  }


  /** Resolves the wait if it is satisfied; otherwise (re)arms its settle timer. Mid-frame
   * (synchronized output) it does not look — the screen shows no state the program drew — unless
   * `now` (a check-once wait); the frame's end notifies. */
  #settle(pending: Pending, now = false): boolean {
    const state = this.#state();
    if (!now && !state.ended && state.screen.midFrame) return false;
    let texts: { text: string; toCursor: string } | undefined;
    const read = () => (texts ??= state.screen.texts(pending.inScrollback ? SCROLLBACK_FOR_WAITS : 0));
    const screenText = () => read().text;
    const toCursor = () => read().toCursor;
    const fired: string[] = [];
    const unmet: string[] = [];
    for (const condition of pending.conditions) {
      // Past the deadline, stop: the timeout fires as soon as this returns.
      if (performance.now() > pending.deadline) return false;
      (condition.holds(state, screenText, toCursor) ? fired : unmet).push(condition.label);
    }
    pending.lastUnmet = unmet;
    const done = pending.mode === "any" ? fired.length > 0 : fired.length === pending.conditions.length;
    if (done) {
      this.#clear(pending);
      const output = pending.conditions.find((c) => c.match && fired.includes(c.label))?.match?.(state) ?? undefined;
      const turn = pending.conditions.find((c) => c.turn)?.turn?.(state) ?? undefined;
      pending.resolve({
        fired,
        ...(output ? { output } : {}),
        revision: state.screen.revision,
        hash: state.screen.hash,
        elapsedMs: Math.round((performance.now() - pending.startedAt) * 1000) / 1000,
        exit: state.exit,
        ...(pending.includeText ? { text: screenText() } : {}),
        ...(turn ? { turn } : {}),
      });
      return true;
    }
    const stuckAt = this.#notTakenAt(pending, state);
    if (stuckAt !== null && performance.now() >= stuckAt) {
      this.#failNotTaken(pending, state);
      return true;
    }
    this.#armSettleTimer(pending, state, stuckAt);
    return false;
  }

  /** For a turn's wait whose prompt the CLI has not taken and which is still in its input:
   * when the screen will have been still ENTER_NOT_TAKEN_STILL_MS (null: not that case). */
  #notTakenAt(pending: Pending, state: WaitState): number | null {
    if (pending.forTurn === false) return null;
    const root = state.turns.root();
    if (root === null || (typeof pending.forTurn === "string" && !pending.forTurn.includes(`@${root}.`))) return null;
    if (state.turns.notTaken() === null) return null;
    return Math.max(state.screen.lastChangeAt, state.lastInputAt) + ENTER_NOT_TAKEN_STILL_MS;
  }

  #failNotTaken(pending: Pending, state: WaitState): void {
    const stuck = state.turns.notTaken()!;
    const root = state.turns.root()!;
    this.#clear(pending);
    const shown = stuck.input.length > 60 ? `${stuck.input.slice(0, 59)}…` : stuck.input;
    pending.reject(new TuiwrightError("expectation-failed", `turn ${stuck.turn.id} was not taken: its prompt stays in @${root}.input (${JSON.stringify(shown)}) with the screen still ${ENTER_NOT_TAKEN_STILL_MS} ms since the last output or input, so Enter did not reach the CLI as a submission (counted into a paste, or lost); waiting on for ${pending.conditions.map((c) => c.label).join(", ")} would only time out`, {
      hint: `press Enter again (it sends the same turn ${stuck.turn.id}) and wait again; \`turn TEXT\` does this itself`,
      details: { turn: stuck.turn, input: stuck.input, stillMs: ENTER_NOT_TAKEN_STILL_MS, revision: state.screen.revision, elapsedMs: Math.round(performance.now() - pending.startedAt), excerpt: excerpt(state.screen) },
    }));
  }

  #armSettleTimer(pending: Pending, state: WaitState, stuckAt: number | null = null): void {
    const readyTimes = pending.conditions.flatMap((c) => (c.readyAt ? [c.readyAt(state)] : []));
    if (stuckAt !== null) readyTimes.push(stuckAt);
    if (readyTimes.length === 0) return;
    if (pending.settleTimer) clearTimeout(pending.settleTimer);
    const delay = Math.max(0, Math.min(...readyTimes) - performance.now());
    pending.settleTimer = setTimeout(() => { if (this.#pending.has(pending)) this.#settle(pending); }, delay + 0.5);
  }

  #fail(pending: Pending, why: "timeout" | "ended"): void {
    this.#clear(pending);
    const state = this.#state();
    let texts: { text: string; toCursor: string } | undefined;
    const read = () => (texts ??= state.screen.texts(pending.inScrollback ? SCROLLBACK_FOR_WAITS : 0));
    const screenText = () => read().text;
    const toCursor = () => read().toCursor;
    const elapsedMs = Math.round(performance.now() - pending.startedAt);
    const unmet = pending.lastUnmet ?? pending.conditions.filter((c) => !c.holds(state, screenText, toCursor)).map((c) => c.label);
    const turn = pending.conditions.find((c) => c.turn)?.turn?.(state) ?? undefined;
    const details = { unmet, revision: state.screen.revision, hash: state.screen.hash, elapsedMs, excerpt: excerpt(state.screen), exit: state.exit, ...(turn ? { turn } : {}) };
    if (why === "timeout") {
      pending.reject(new TuiwrightError("timeout", `wait timed out after ${elapsedMs} ms; not met: ${unmet.join(", ")}`, { details }));
    } else {
      const status = state.exit?.signal ? `signal ${state.exit.signal}` : `code ${state.exit?.code}`;
      pending.reject(new TuiwrightError("session-exited", `the program exited (${status}) before: ${unmet.join(", ")}`, {
        hint: "add --exit to wait for the exit itself; `snapshot` shows the final screen",
        details,
      }));
    }
  }

  #clear(pending: Pending): void {
    this.#pending.delete(pending);
    if (pending.timeout) clearTimeout(pending.timeout);
    if (pending.settleTimer) clearTimeout(pending.settleTimer);
  }
}
