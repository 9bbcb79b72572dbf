// A manifest's `[[operations]]` table: what an agent can do to the program, as AOTUI
// operations when its session is opened on a desktop. Kept apart from manifest-schema.ts (which
// only gains the one optional key) so the region/item schema can change without touching this.
//
//   [[operations]]
//   id = "save_as"
//   description = "write the buffer to a file"
//   args = { path = "string" }
//   keys = "<Esc>:w {path}<CR>"          # text, {arg} or {arg.field} substitutions, <Key> names
//   wait = { text = "written" }           # optional: text, regex, gone, settled_ms, timeout_ms
//
// `exec = "{command}"` instead of keys runs a command block (shell sessions with integration).
import * as v from "valibot";
import { TuiwrightError } from "../protocol/errors.ts";
import { encodeKey } from "../terminal/keys.ts";

const OperationId = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]*$/, "an operation id is lower-case letters, digits and '_', starting with a letter"));
const ArgType = v.pipe(v.string(), v.regex(/^[A-Za-z_][\w-]*\??$/, "an argument type is a word such as \"string\", \"integer\", \"boolean\" or an item role such as \"row\" (trailing ? for optional)"));

export const OperationEntry = v.pipe(
  v.strictObject({
    id: OperationId,
    description: v.optional(v.string(), ""),
    args: v.optional(v.record(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]*$/, "an argument name is lower-case letters, digits and '_'")), ArgType), {}),
    keys: v.optional(v.pipe(v.string(), v.minLength(1))),
    exec: v.optional(v.pipe(v.string(), v.minLength(1))),
    wait: v.optional(v.strictObject({
      text: v.optional(v.string()),
      regex: v.optional(v.string()),
      gone: v.optional(v.boolean()),
      settled_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    })),
  }),
  v.check((op) => (op.keys === undefined) !== (op.exec === undefined), "an operation has either keys or exec"),
  v.check((op) => templateProblem(op) === null, (issue) => templateProblem(issue.input as any) ?? ""),
);

/** The optional key of the manifest schema. */
export const OperationsTable = v.optional(v.array(OperationEntry), []);

export type TerminalOperation = v.InferOutput<typeof OperationEntry>;

export type Step = { kind: "type"; text: string } | { kind: "press"; key: string };

/** Vim-style key names people write in templates, as tuiwright key names. */
const TEMPLATE_KEYS: Record<string, string> = { cr: "Enter", enter: "Enter", return: "Enter", esc: "Escape", escape: "Escape", bs: "Backspace", tab: "Tab", space: "Space", lt: "<" };

const TOKEN = /<([A-Za-z0-9-]+)>|\{([a-z][a-z0-9_]*)(?:\.([a-z][a-z0-9_]*))?\}/g;

function keyName(raw: string): string {
  return TEMPLATE_KEYS[raw.toLowerCase()] ?? raw;
}

function templateProblem(op: { keys?: string; exec?: string; args?: Record<string, string> }): string | null {
  const template = op.keys ?? op.exec ?? "";
  for (const match of template.matchAll(TOKEN)) {
    if (match[1] !== undefined) {
      if (op.exec !== undefined) return `exec templates take {arg} substitutions, not keys such as <${match[1]}>`;
      const key = keyName(match[1]);
      if (key === "<") continue;
      try {
        encodeKey(key, { applicationCursorKeys: false });
      } catch (error) {
        return `keys: <${match[1]}>: ${(error as Error).message}`;
      }
    } else if (!(match[2]! in (op.args ?? {}))) {
      return `{${match[2]}} is not one of the operation's args (${Object.keys(op.args ?? {}).join(", ") || "none"})`;
    }
  }
  return null;
}

function substitute(name: string, field: string | undefined, args: Record<string, unknown>): string {
  let value = args[name];
  if (field !== undefined) value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[field] : undefined;
  if (value === undefined) return "";
  return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The keys template with these args as typing and key presses (substituted text is typed,
 * never read as key names). */
export function keySteps(template: string, args: Record<string, unknown>): Step[] {
  const steps: Step[] = [];
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
    } else typeText(substitute(match[2]!, match[3], args));
    index = match.index! + match[0].length;
  }
  typeText(template.slice(index));
  return steps;
}

/** An exec template with its substitutions. */
export function execCommand(template: string, args: Record<string, unknown>): string {
  return template.replace(TOKEN, (_all, _key, name: string, field: string | undefined) => substitute(name, field, args));
}

/** The operations of a manifest's TOML source (already validated by loadManifest). */
export function operationsOf(raw: unknown): TerminalOperation[] {
  const parsed = v.safeParse(OperationsTable, (raw as { operations?: unknown } | null)?.operations);
  if (!parsed.success) throw new TuiwrightError("bad-manifest", `operations: ${v.summarize(parsed.issues)}`);
  return parsed.output;
}
