// Running one manifest operation on a terminal session: every argument is encoded first (a value
// the program cannot take inertly is refused before a key is sent), then each step types its
// keys and waits until the screen has settled on one of its outcomes. `ok` comes back only with
// the evidence that showed it; a `fail` outcome is an E_* error carrying the program's own
// message; neither within the time is an E_TIMEOUT that says the keys were sent (not
// recoverable: retrying blindly could do it twice).
import { randomBytes } from "node:crypto";
import { execCommand, fillTemplate, keySteps, stepsOf, type KeyStep, type OperationStep, type TerminalOperation } from "../adapters/manifest-operations.ts";
import { needsOutline, readOutcome, type OutcomeMatch, type OutcomeScreen } from "../adapters/operation-outcome.ts";
import type { Evidence } from "../outline/types.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import { asDesktopError, desktopError } from "./aotui-codes.ts";

/** The session calls an operation needs (the daemon's session, or a test's). */
export type OperationSession = {
  name: string;
  call(op: "snapshot" | "type" | "press" | "wait" | "exec", params: Record<string, unknown>): Promise<any>;
};

export type OperationResult = { evidence: Evidence[]; message?: string; result?: unknown };

const DEFAULT_SETTLE_MS = 100;
/** Time kept back from the deadline for the last read and the reply. */
const MARGIN_MS = 50;

function screenOf(snapshot: any): Omit<OutcomeScreen, "nodes"> {
  const meta = snapshot.meta;
  const lines: string[] = [...(snapshot.lines ?? String(snapshot.text ?? "").split("\n"))].map((l: string) => l.trimEnd());
  const cursor = meta?.cursor ?? { row: 0, col: 0 };
  // As waits read it: the cursor's row kept up to the cursor, so ">>> " still ends in a space.
  if (lines[cursor.row] !== undefined && lines[cursor.row]!.length < cursor.col) lines[cursor.row] = lines[cursor.row]!.padEnd(cursor.col, " ");
  return { lines, cursor: { row: cursor.row, col: cursor.col }, altScreen: meta?.altScreen ?? false, exited: meta?.exit !== null && meta?.exit !== undefined, revision: snapshot.revision };
}

async function readScreen(session: OperationSession, withOutline: boolean): Promise<OutcomeScreen> {
  for (let attempt = 0; ; attempt++) {
    const text = await session.call("snapshot", { format: "text", includeMeta: true });
    if (!withOutline) return { ...screenOf(text), nodes: null };
    const outline = await session.call("snapshot", { format: "outline" });
    // Both reads must describe one screen; a program that keeps drawing gets a few tries.
    if (outline.revision === text.revision || attempt >= 4) return { ...screenOf(text), nodes: outline.outline?.nodes ?? [] };
  }
}

async function send(session: OperationSession, keys: KeyStep[]): Promise<void> {
  for (const step of keys) {
    if (step.kind === "type") await session.call("type", { text: step.text });
    else await session.call("press", { keys: [step.key] });
  }
}

function lastRows(screen: OutcomeScreen): string {
  return screen.lines.filter((l) => l.trim() !== "").slice(-3).join(" / ").slice(0, 300);
}

/** Neither outcome showed in time; its message is the last rows seen. */
class OperationTimeout extends Error {}

/** Waits until the screen settles on one of the step's outcomes (or the deadline passes). */
async function awaitOutcome(session: OperationSession, step: OperationStep, args: Record<string, unknown>, nonce: string, before: number, deadline: number): Promise<OutcomeMatch> {
  const settleMs = step.settle_ms ?? DEFAULT_SETTLE_MS;
  const withOutline = needsOutline(step);
  const remaining = () => Math.floor(deadline - performance.now());
  let seen = before;
  let first = true;
  let last: OutcomeScreen | null = null;
  // Messages a program shows only briefly are watched on every screen (the wait sees each one).
  const flashes = (step.fail ?? []).filter((o) => o.flash);
  const flashRegexes = flashes.map((o) => fillTemplate(o.regex!, args, nonce, true));
  const waitFor = async (params: Record<string, unknown>): Promise<any> => {
    const timeoutMs = Math.min(remaining(), (params.timeoutMs as number | undefined) ?? Infinity);
    if (timeoutMs <= 0) return null;
    try {
      return await session.call("wait", { ...params, timeoutMs });
    } catch (error) {
      if (error instanceof TuiwrightError && (error.errorName === "timeout" || error.errorName === "session-exited")) return null;
      throw error;
    }
  };
  /** A wait that also wakes on a flashing failure; the failure, when it was that. */
  const watch = async (params: Record<string, unknown>): Promise<{ done: boolean; flashed: OutcomeMatch | null }> => {
    const result = await waitFor({ ...params, mode: "any", ...(flashRegexes.length > 0 ? { regex: flashRegexes, includeText: true } : {}) });
    if (result && flashRegexes.length > 0 && (result.fired as string[]).some((label) => label.startsWith("regex ")) && typeof result.text === "string") {
      const screen: OutcomeScreen = { lines: result.text.split("\n"), cursor: { row: 0, col: 0 }, altScreen: true, exited: false, revision: result.revision, nodes: null };
      return { done: true, flashed: readOutcome({ keys: step.keys, ok: [], fail: flashes }, screen, args, nonce) };
    }
    return { done: result !== null, flashed: null };
  };
  for (;;) {
    if (remaining() <= 0) throw new OperationTimeout(last ? lastRows(last) : "");
    // A change the keys caused (or the exit); keys that may change nothing get settle_ms to show one.
    const changed = await watch({ changedSince: seen, exit: true, ...(first && step.may_not_change ? { timeoutMs: settleMs } : {}) });
    if (changed.flashed) return changed.flashed;
    if (!changed.done && !(first && step.may_not_change)) throw new OperationTimeout(last ? lastRows(last) : "");
    first = false;
    // Never answer from a screen still moving: the outcome is read once it has been still.
    const settled = await watch({ settledMs: settleMs });
    if (settled.flashed) return settled.flashed;
    if (!settled.done) throw new OperationTimeout(last ? lastRows(last) : "");
    const screen = await readScreen(session, withOutline);
    last = screen;
    const outcome = readOutcome(step, screen, args, nonce);
    if (outcome) return outcome;
    if (screen.exited && screen.revision === seen) throw desktopError("session-exited", `the program in ${session.name} has exited`, {}, undefined, true);
    seen = screen.revision;
  }
}

function evidenceOf(adapter: string, match: OutcomeMatch): Evidence {
  return { source: "manifest", adapter, rule: match.rule, ...(match.cells ? { cells: match.cells } : {}), revision: match.revision };
}

/** Runs `op` with its converted args; `timeoutMs` is the desktop's operation timeout. */
export async function runTerminalOperation(session: OperationSession, adapter: string, op: TerminalOperation, args: Record<string, unknown>, timeoutMs: number): Promise<OperationResult> {
  const budget = Math.min(op.timeout_ms ?? timeoutMs, timeoutMs);
  const deadline = performance.now() + budget - MARGIN_MS;
  if (op.exec !== undefined) {
    try {
      const result = await session.call("exec", { command: execCommand(op.exec, args), timeoutMs: Math.max(1, budget - 100), maxOutput: 65_536 });
      return { result, evidence: [{ source: "escape", sequence: "OSC 133;D", revision: result.revision ?? 0 }] };
    } catch (error) {
      const e = asDesktopError(error);
      if (e.errorName !== "timeout") throw e;
      throw desktopError("timeout", `${op.id}: the command was started and had not finished within ${budget} ms; it may still be running (read the desktop before you retry)`, {}, undefined, false);
    }
  }
  const nonce = `tw${randomBytes(4).toString("hex")}`;
  const steps = stepsOf(op);
  // Encode everything before typing anything: a refused argument sends no key at all.
  let planned: { step: OperationStep; keys: KeyStep[] }[];
  try {
    planned = steps.map((step) => ({ step, keys: keySteps(step.keys, op, args, nonce) }));
    for (const step of steps) for (const outcome of step.fail ?? []) if (outcome.undo) keySteps(outcome.undo, op, args, nonce);
  } catch (error) {
    throw asDesktopError(error);
  }
  const evidence: Evidence[] = [];
  let message: string | undefined;
  for (const [index, { step, keys }] of planned.entries()) {
    let match: OutcomeMatch;
    try {
      const before = (await session.call("snapshot", { format: "text" })).revision as number;
      await send(session, keys);
      match = await awaitOutcome(session, step, args, nonce, before, deadline);
    } catch (error) {
      if (!(error instanceof OperationTimeout)) throw asDesktopError(error);
      const where = planned.length > 1 ? ` (step ${index + 1} of ${planned.length})` : "";
      const shown = error.message ? ` The screen's last rows: ${error.message}` : "";
      throw desktopError("timeout", `${op.id}${where}: the keys were sent but neither success nor failure showed within ${budget} ms; the operation may still take effect (read the desktop before you retry).${shown}`, { evidence }, undefined, false);
    }
    evidence.push(evidenceOf(adapter, match));
    if (match.kind === "fail") {
      if (match.outcome.undo) await send(session, keySteps(match.outcome.undo, op, args, nonce)).catch(() => undefined);
      const details = { evidence, rule: match.rule, program_message: match.message };
      if (match.outcome.code === "not-found") throw desktopError("desktop-not-found", `${op.id}: ${match.message}`, details);
      throw desktopError("app-refused", `${adapter} refused ${op.id}: ${match.message}`, details);
    }
    message = match.message;
  }
  return { evidence, ...(message ? { message } : {}) };
}
