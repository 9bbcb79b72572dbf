// A manifest's `[[operations]]` table: what an agent can do to the program, as AOTUI
// operations when its session is opened on a desktop. Kept apart from manifest-schema.ts (which
// only gains the one optional key) so the region/item schema can change without touching this.
//
// An operation types keys and then waits for its outcome: it answers ok only when one of its
// `ok` outcomes is on the settled screen (the evidence goes with the answer), and fails with the
// program's own message when one of its `fail` outcomes is. Arguments are typed through an
// encoder (argument-encoders.ts) so a value can never become keys of its own.
//
//   [[operations]]
//   id = "save_as"
//   description = "write the buffer to a file"
//   args = { path = "string" }
//   encode = { path = "vim-path" }                    # default "text": printable, typed as is
//   keys = '<C-\><C-n>:try|silent w {path}|echo "{nonce}:ok"|catch|echo "{nonce}:" v:exception|endtry<CR>'
//   ok = [{ rule = "written", regex = '/^{nonce}:ok/m' }]
//   fail = [{ rule = "vim-error", regex = '/^{nonce}: Vim\(\w+\):(?<message>E\d+:.*)$/m' }]
//
// Several steps (each its keys and outcomes, run in order, each waiting for its own ok) go in
// `steps = [{ keys = …, ok = […], fail = […] }, …]` or `[[operations.steps]]` tables.
// `exec = "{command}"` instead of keys runs a command block (shell sessions with integration).
import * as v from "valibot";
import { TuiwrightError } from "../protocol/errors.ts";
import { encodeKey } from "../terminal/keys.ts";
import { linearPattern } from "../terminal/linear-pattern.ts";
import { parsePattern } from "../terminal/pattern.ts";
import { encodeArgument, ENCODERS, type EncoderName } from "./argument-encoders.ts";

const Name = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]*$/, "an argument name is lower-case letters, digits and '_'"));
const OperationId = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]*$/, "an operation id is lower-case letters, digits and '_', starting with a letter"));
const ArgType = v.pipe(v.string(), v.regex(/^[A-Za-z_][\w-]*\??$/, "an argument type is a word such as \"string\", \"integer\", \"boolean\" or an item role such as \"row\" (trailing ? for optional)"));
const RuleName = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_-]*$/, "a rule name is lower-case letters, digits, '_' and '-'"));
const Ref = v.pipe(v.string(), v.regex(/^@[a-z][a-z0-9_-]*\.[a-z][a-z0-9_-]*$/, "ref names one of this manifest's regions: @root.region"));
const Millis = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000));

/** One thing that must hold on the screen (or of the process). All given fields must hold. */
const ConditionFields = {
  /** A regex over the screen's text (rows joined by \n), or over `row`, or up to the cursor's row. */
  regex: v.optional(v.string()),
  row: v.optional(v.pipe(v.number(), v.integer())),
  to_cursor: v.optional(v.boolean()),
  /** A region of this manifest: present (or, with gone, absent), its value, an item's key. */
  ref: v.optional(Ref),
  value: v.optional(v.string()),
  key: v.optional(v.string()),
  gone: v.optional(v.boolean()),
  /** The program has exited (a process fact). */
  exit: v.optional(v.boolean()),
  /** The alternate screen is on (true) or off (false): a full-screen program left it. */
  alt_screen: v.optional(v.boolean()),
};

export const Condition = v.strictObject(ConditionFields);

export const Outcome = v.strictObject({
  rule: RuleName,
  ...ConditionFields,
  /** More conditions that must hold at the same time. */
  and: v.optional(v.array(Condition)),
  /** fail outcomes: the error (refused: E_REFUSED, not-found: E_NOT_FOUND). */
  code: v.optional(v.picklist(["refused", "not-found"], 'code is "refused" or "not-found"')),
  /** fail outcomes: the message when the regex has no `message` group (else the matched text). */
  message: v.optional(v.string()),
  /** fail outcomes: keys that put the program back (Escape out of a menu the step opened). */
  undo: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** fail outcomes: a message the program shows only briefly (top's "Failed signal pid …"): its
   * regex (over the whole screen, linear-time) is watched on every screen, not only settled ones. */
  flash: v.optional(v.boolean()),
});

const StepFields = {
  keys: v.pipe(v.string(), v.minLength(1)),
  ok: v.pipe(v.array(Outcome), v.minLength(1, "ok needs at least one outcome: what success looks like")),
  fail: v.optional(v.array(Outcome), []),
  /** The outcome is read once the screen has been still this long (default 100 ms). */
  settle_ms: v.optional(Millis),
  /** The keys may leave the screen as it was (go to the top when already there). */
  may_not_change: v.optional(v.boolean()),
};

export const Step = v.strictObject(StepFields);

export const OperationEntry = v.pipe(
  v.strictObject({
    id: OperationId,
    description: v.optional(v.string(), ""),
    args: v.optional(v.record(Name, ArgType), {}),
    encode: v.optional(v.record(Name, v.picklist(ENCODERS, `an encoder is one of ${ENCODERS.join(", ")}`)), {}),
    /** The longest value the program takes for an argument (htop's prompts keep 40 characters). */
    max_chars: v.optional(v.record(Name, v.pipe(v.number(), v.integer(), v.minValue(1))), {}),
    keys: v.optional(v.pipe(v.string(), v.minLength(1))),
    ok: v.optional(v.pipe(v.array(Outcome), v.minLength(1, "ok needs at least one outcome: what success looks like"))),
    fail: v.optional(v.array(Outcome)),
    settle_ms: v.optional(Millis),
    may_not_change: v.optional(v.boolean()),
    steps: v.optional(v.pipe(v.array(Step), v.minLength(1))),
    exec: v.optional(v.pipe(v.string(), v.minLength(1))),
    /** How long the whole operation may take (default: the desktop's operation timeout). */
    timeout_ms: v.optional(Millis),
  }),
  v.check((op) => [op.keys, op.exec, op.steps].filter((x) => x !== undefined).length === 1, "an operation has one of keys, steps or exec"),
  v.check((op) => op.keys === undefined || op.ok !== undefined, "an operation that types keys says what success looks like: ok = [{ rule = …, … }]"),
  v.check((op) => op.keys !== undefined || (op.ok === undefined && op.fail === undefined && op.settle_ms === undefined && op.may_not_change === undefined), "ok, fail, settle_ms and may_not_change go with keys (in steps, each step has its own)"),
  v.check((op) => templateProblem(op) === null, (issue) => templateProblem(issue.input as any) ?? ""),
);

/** The optional key of the manifest schema. */
export const OperationsTable = v.optional(v.array(OperationEntry), []);

export type TerminalOperation = v.InferOutput<typeof OperationEntry>;
export type OperationStep = v.InferOutput<typeof Step>;
export type OperationOutcome = v.InferOutput<typeof Outcome>;
export type OutcomeCondition = v.InferOutput<typeof Condition>;

/** The operation's steps (a single keys/ok/fail operation is one step). */
export function stepsOf(op: TerminalOperation): OperationStep[] {
  if (op.steps) return op.steps;
  if (op.keys === undefined) return [];
  return [{ keys: op.keys, ok: op.ok ?? [], fail: op.fail ?? [], settle_ms: op.settle_ms, may_not_change: op.may_not_change }];
}

export type KeyStep = { kind: "type"; text: string } | { kind: "press"; key: string };

/** Vim-style key names people write in templates, as tuiwright key names. */
const TEMPLATE_KEYS: Record<string, string> = { cr: "Enter", enter: "Enter", return: "Enter", esc: "Escape", escape: "Escape", bs: "Backspace", tab: "Tab", space: "Space", lt: "<" };

const TOKEN = /<([A-Za-z0-9\\-]+)>|\{([a-z][a-z0-9_]*)(?:\.([a-z][a-z0-9_]*))?\}/g;
const PLACEHOLDER = /\{([a-z][a-z0-9_]*)(?:\.([a-z][a-z0-9_]*))?\}/g;

function keyName(raw: string): string {
  return TEMPLATE_KEYS[raw.toLowerCase()] ?? raw;
}

type TemplateSource = { keys?: string; exec?: string; steps?: { keys: string; ok?: OperationOutcome[]; fail?: OperationOutcome[] }[]; args?: Record<string, string>; ok?: OperationOutcome[]; fail?: OperationOutcome[] };

function placeholderProblem(text: string, args: Record<string, string>): string | null {
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match[1] === "nonce" && match[2] === undefined) continue;
    if (!(match[1]! in args)) return `{${match[1]}} is not one of the operation's args (${Object.keys(args).join(", ") || "none"}) or {nonce}`;
  }
  return null;
}

function keysProblem(template: string, args: Record<string, string>): string | null {
  for (const match of template.matchAll(TOKEN)) {
    if (match[1] === undefined) continue;
    const key = keyName(match[1]);
    if (key === "<") continue;
    try {
      encodeKey(key, { applicationCursorKeys: false });
    } catch (error) {
      return `keys: <${match[1]}>: ${(error as Error).message}`;
    }
  }
  return placeholderProblem(template, args);
}

function outcomeProblem(outcome: OperationOutcome, args: Record<string, string>, where: string): string | null {
  for (const condition of [outcome, ...(outcome.and ?? [])]) {
    const tests = [condition.regex, condition.ref, condition.exit, condition.alt_screen].filter((x) => x !== undefined);
    if (tests.length === 0) return `${where} ${outcome.rule}: a condition needs regex, ref, exit or alt_screen`;
    if ((condition.row !== undefined || condition.to_cursor !== undefined) && condition.regex === undefined) return `${where} ${outcome.rule}: row and to_cursor go with regex`;
    if (condition.row !== undefined && condition.to_cursor) return `${where} ${outcome.rule}: row or to_cursor, not both`;
    if ((condition.value !== undefined || condition.key !== undefined || condition.gone !== undefined) && condition.ref === undefined) return `${where} ${outcome.rule}: value, key and gone go with ref`;
    if (condition.gone && condition.value !== undefined) return `${where} ${outcome.rule}: gone with value means nothing; use value = '/…/' to say what it must not be`;
    for (const text of [condition.regex, condition.value, condition.key, outcome.message]) {
      const problem = text === undefined ? null : placeholderProblem(text, args);
      if (problem) return `${where} ${outcome.rule}: ${problem}`;
    }
    if (condition.regex !== undefined) {
      try {
        parsePattern(condition.regex.replace(PLACEHOLDER, "x"));
      } catch (error) {
        return `${where} ${outcome.rule}: ${(error as Error).message}`;
      }
    }
  }
  if (outcome.flash) {
    if (outcome.regex === undefined || outcome.row !== undefined || outcome.to_cursor || outcome.ref !== undefined || outcome.and !== undefined) return `${where} ${outcome.rule}: flash goes with a whole-screen regex alone (no row, to_cursor, ref or and)`;
    try {
      linearPattern(outcome.regex.replace(PLACEHOLDER, "x"));
    } catch (error) {
      return `${where} ${outcome.rule}: ${(error as Error).message}`;
    }
  }
  if (outcome.undo !== undefined) return keysProblem(outcome.undo, args);
  return null;
}

function templateProblem(op: TemplateSource & { encode?: Record<string, string>; max_chars?: Record<string, number> }): string | null {
  const args = op.args ?? {};
  for (const table of ["encode", "max_chars"] as const) {
    for (const name of Object.keys(op[table] ?? {})) if (!(name in args)) return `${table}.${name}: ${name} is not one of the operation's args (${Object.keys(args).join(", ") || "none"})`;
  }
  if (op.exec !== undefined) {
    for (const match of op.exec.matchAll(TOKEN)) if (match[1] !== undefined) return `exec templates take {arg} substitutions, not keys such as <${match[1]}>`;
    return placeholderProblem(op.exec, args);
  }
  const steps = op.steps ?? (op.keys !== undefined ? [{ keys: op.keys, ok: op.ok, fail: op.fail }] : []);
  for (const [i, step] of steps.entries()) {
    const where = op.steps ? `steps[${i}]` : "";
    const problem = keysProblem(step.keys, args);
    if (problem) return where ? `${where}: ${problem}` : problem;
    for (const [kind, list] of [["ok", step.ok ?? []], ["fail", step.fail ?? []]] as const) {
      for (const outcome of list) {
        const found = outcomeProblem(outcome, args, `${where ? `${where}.` : ""}${kind}`);
        if (found) return found;
      }
    }
  }
  return null;
}

/** Fills placeholders: the args' values (encoded by `fill`) and the operation's nonce. */
export type Filler = (name: string, field: string | undefined) => string;

function rawValue(args: Record<string, unknown>, name: string, field: string | undefined): string | undefined {
  let value = args[name];
  if (field !== undefined) value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[field] : undefined;
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The value an {arg} or {arg.field} placeholder stands for, as given (for outcome checks). */
export function argumentText(args: Record<string, unknown>, name: string, field: string | undefined, nonce: string): string {
  if (name === "nonce" && field === undefined) return nonce;
  const value = rawValue(args, name, field);
  if (value === undefined) {
    throw new TuiwrightError("invalid-argument", field === undefined ? `argument ${name} is missing` : `${name} has no ${field} (the item referenced does not carry one)`, { hint: "pick an item that shows one, or another operation" });
  }
  return value;
}

/** The keys template with these args as typing and key presses. Substituted values are typed
 * (never read as key names), each through its encoder. */
export function keySteps(template: string, op: Pick<TerminalOperation, "id" | "encode"> & { max_chars?: Record<string, number> }, args: Record<string, unknown>, nonce: string): KeyStep[] {
  const steps: KeyStep[] = [];
  const typeText = (text: string) => {
    if (text === "") return;
    const last = steps.at(-1);
    if (last?.kind === "type") last.text += text;
    else steps.push({ kind: "type", text });
  };
  let index = 0;
  for (const match of template.matchAll(TOKEN)) {
    typeText(template.slice(index, match.index));
    if (match[1] !== undefined) {
      const key = keyName(match[1]);
      if (key === "<") typeText("<");
      else steps.push({ kind: "press", key });
    } else {
      const [name, field] = [match[2]!, match[3]];
      const value = argumentText(args, name, field, nonce);
      const max = op.max_chars?.[name];
      if (max !== undefined && [...value].length > max) {
        throw new TuiwrightError("invalid-argument", `${op.id} --${name} takes at most ${max} characters (the program keeps no more), got ${[...value].length}`, { hint: "shorten the value" });
      }
      const encoder: EncoderName = name === "nonce" ? "text" : (op.encode?.[name] ?? "text");
      typeText(encodeArgument(encoder, `${op.id} --${name}${field ? ` (${field})` : ""}`, value));
    }
    index = match.index! + match[0].length;
  }
  typeText(template.slice(index));
  return steps;
}

/** Text with placeholders filled: regexes get their values escaped, other text the values as is. */
export function fillTemplate(text: string, args: Record<string, unknown>, nonce: string, forRegex: boolean): string {
  return text.replace(PLACEHOLDER, (_all, name: string, field: string | undefined) => {
    const value = argumentText(args, name, field, nonce);
    return forRegex ? value.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&") : value;
  });
}

/** An exec template with its substitutions (the command block is the operation's meaning). */
export function execCommand(template: string, args: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (_all, name: string, field: string | undefined) => rawValue(args, name, field) ?? "");
}

/** The operations of a manifest's TOML source (already validated by loadManifest). */
export function operationsOf(raw: unknown): TerminalOperation[] {
  const parsed = v.safeParse(OperationsTable, (raw as { operations?: unknown } | null)?.operations);
  if (!parsed.success) throw new TuiwrightError("bad-manifest", `operations: ${v.summarize(parsed.issues)}`);
  return parsed.output;
}

/** Cross-checks needing the whole manifest: every ref names a region of it. */
export function operationRefProblems(operations: TerminalOperation[], root: string, regions: Set<string>): { path: string; problem: string }[] {
  const problems: { path: string; problem: string }[] = [];
  operations.forEach((op, i) => {
    stepsOf(op).forEach((step, s) => {
      for (const kind of ["ok", "fail"] as const) {
        (step[kind] ?? []).forEach((outcome, o) => {
          for (const condition of [outcome, ...(outcome.and ?? [])]) {
            if (condition.ref === undefined) continue;
            const [refRoot, region] = condition.ref.slice(1).split(".");
            const path = op.steps ? `operations.${i}.steps.${s}.${kind}.${o}` : `operations.${i}.${kind}.${o}`;
            if (refRoot !== root) problems.push({ path, problem: `ref ${condition.ref}: this manifest's refs start with @${root}.` });
            else if (!regions.has(region!)) problems.push({ path, problem: `ref ${condition.ref}: no region named ${JSON.stringify(region)}` });
          }
        });
      }
    });
  });
  return problems;
}
