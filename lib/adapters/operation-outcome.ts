// Reading an operation's outcome off one screen: the first `fail` outcome that holds, else the
// first `ok` one, with the cells that showed it (its evidence) and, for a failure, the program's
// own message. Pure: the caller decides when the screen is settled enough to ask.
import { shownText } from "../outline/container-name.ts";
import type { BBox, OutlineNode } from "../outline/types.ts";
import { walk } from "../outline/types.ts";
import { isSlashedPattern, parsePattern } from "../terminal/pattern.ts";
import { fillTemplate, type OperationOutcome, type OperationStep, type OutcomeCondition } from "./manifest-operations.ts";

/** What the outcome rules look at. */
export type OutcomeScreen = {
  /** Rows right-trimmed, the cursor's row kept up to the cursor (a prompt's trailing space). */
  lines: string[];
  cursor: { row: number; col: number };
  altScreen: boolean;
  exited: boolean;
  revision: number;
  /** The manifest's outline (null when no rule needs it, or no manifest shaped it). */
  nodes: OutlineNode[] | null;
};

export type OutcomeMatch = {
  kind: "ok" | "fail";
  rule: string;
  outcome: OperationOutcome;
  /** The program's own words: a regex's `message` group, the matched text, or the rule's message. */
  message: string;
  cells?: BBox;
  revision: number;
};

type Fill = { args: Record<string, unknown>; nonce: string };

function regexCondition(condition: OutcomeCondition, screen: OutcomeScreen, fill: Fill): { text: string; cells: BBox } | null {
  const re = parsePattern(fillTemplate(condition.regex!, fill.args, fill.nonce, true));
  let firstRow = 0;
  let lines: string[];
  if (condition.row !== undefined) {
    firstRow = condition.row < 0 ? screen.lines.length + condition.row : condition.row;
    lines = firstRow >= 0 && firstRow < screen.lines.length ? [screen.lines[firstRow]!] : [];
    if (lines.length === 0) return null;
  } else if (condition.to_cursor) {
    lines = screen.lines.slice(0, screen.cursor.row + 1);
  } else lines = screen.lines;
  const text = lines.join("\n");
  const match = re.exec(text);
  if (!match) return null;
  const before = text.slice(0, match.index);
  const row = firstRow + (before.match(/\n/g)?.length ?? 0);
  const col = match.index - (before.lastIndexOf("\n") + 1);
  const matched = match.groups?.message ?? match[0];
  const rows = Math.max(1, match[0].split("\n").length);
  return { text: matched, cells: { row, col, rows, cols: Math.max(1, Math.min(match[0].split("\n")[0]!.length, 1000)) } };
}

function node(nodes: OutlineNode[] | null, ref: string): OutlineNode | undefined {
  if (!nodes) return undefined;
  for (const n of walk(nodes)) if (n.ref === ref) return n;
  return undefined;
}

function refCondition(condition: OutcomeCondition, screen: OutcomeScreen, fill: Fill): { text: string; cells?: BBox } | null {
  const found = node(screen.nodes, condition.ref!);
  if (condition.key !== undefined) {
    if (!found) return null;
    const key = fillTemplate(condition.key, fill.args, fill.nonce, false);
    const item = (found.children ?? []).find((child) => child.key === key);
    if (condition.gone) return item ? null : { text: `${condition.ref} has no item ${key}`, cells: found.bbox };
    return item ? { text: item.name, cells: item.bbox } : null;
  }
  if (condition.gone) return found ? null : { text: `${condition.ref} is not on screen` };
  if (!found) return null;
  if (condition.value !== undefined) {
    const wanted = fillTemplate(condition.value, fill.args, fill.nonce, isSlashedPattern(condition.value));
    const value = found.value ?? "";
    const holds = isSlashedPattern(condition.value) ? parsePattern(wanted).test(value) : value === wanted;
    if (!holds) return null;
  }
  return { text: found.value ?? shownText(found), cells: found.bbox };
}

function holds(condition: OutcomeCondition, screen: OutcomeScreen, fill: Fill): { text: string; cells?: BBox } | null {
  let result: { text: string; cells?: BBox } | null = { text: "" };
  if (condition.exit !== undefined && screen.exited !== condition.exit) return null;
  if (condition.exit) result = { text: "the program exited" };
  if (condition.alt_screen !== undefined && screen.altScreen !== condition.alt_screen) return null;
  if (condition.alt_screen === false && !condition.exit) result = { text: "the program left the alternate screen" };
  if (condition.regex !== undefined) {
    result = regexCondition(condition, screen, fill);
    if (!result) return null;
  }
  if (condition.ref !== undefined) {
    const byRef = refCondition(condition, screen, fill);
    if (!byRef) return null;
    if (condition.regex === undefined) result = byRef;
  }
  return result;
}

function check(outcome: OperationOutcome, kind: "ok" | "fail", screen: OutcomeScreen, fill: Fill): OutcomeMatch | null {
  const first = holds(outcome, screen, fill);
  if (!first) return null;
  for (const extra of outcome.and ?? []) if (!holds(extra, screen, fill)) return null;
  const message = outcome.message !== undefined && !(outcome.regex !== undefined && /\(\?<message>/.test(outcome.regex))
    ? fillTemplate(outcome.message, fill.args, fill.nonce, false)
    : first.text;
  return { kind, rule: outcome.rule, outcome, message: message.trim(), ...(first.cells ? { cells: first.cells } : {}), revision: screen.revision };
}

/** The outcome this screen shows for the step, failures first; null while it shows neither. */
export function readOutcome(step: OperationStep, screen: OutcomeScreen, args: Record<string, unknown>, nonce: string): OutcomeMatch | null {
  const fill = { args, nonce };
  for (const outcome of step.fail ?? []) {
    const match = check(outcome, "fail", screen, fill);
    if (match) return match;
  }
  for (const outcome of step.ok) {
    const match = check(outcome, "ok", screen, fill);
    if (match) return match;
  }
  return null;
}

/** Whether any rule of the step looks at the outline (so the caller reads one). */
export function needsOutline(step: OperationStep): boolean {
  return [...step.ok, ...(step.fail ?? [])].some((o) => o.ref !== undefined || (o.and ?? []).some((c) => c.ref !== undefined));
}
