// Hand-made labels of the truth corpus (tests/truth/labels/<cast>.toml): per marker, what a
// person reading the screen (and who watched the session: the keys it sent) would state.
//
//   [[state]]
//   marker = "split-top"                      # the cast's `truth:split-top` marker
//   note = "…"                                # why, where it is not obvious
//   selected = [{ text = "Banana", box = [5, 20, 1, 12] }]   # [] = nothing is selected
//   focus = [{ name = "top window", box = [0, 0, 12, 80] }]  # where keys go: the focus path, outer first
//   input = [{ name = "prompt line", box = [3, 0, 1, 80] }]  # where typed text lands as text; [] = no field
//   values = { "@vim.mode" = "insert", "@vim.file" = "b.txt", "@shell.prompt" = { absent = true },
//              "@vim.mode" = { unknown = true, actual = "insert" } }
//   [[state.clickable]]
//   name = "<Cancel>"; role = "button"; text = "<Cancel>"; box = [10, 44, 1, 8]
//   click = { expect = "regex" }   # optional, for click.test.ts: what clicking it does — the
//                                  # screen shows `expect`, no longer shows `expect_gone`, the
//                                  # cursor lands inside (cursor_in), the box is drawn highlighted
//                                  # (highlighted), or the program exits (exits)
//
// Boxes are [row, col, rows, cols], 0-based. `selected`, `focus` and `input` may be the string
// "unknown" when the screen cannot tell (then no claim about them is judged).
// A value is a string, a list of accepted strings, `{ unknown = true, actual = "…" }` (the
// screen cannot tell; a claim other than "unknown" is false unless it rests on behaviour or
// process evidence and equals `actual`), or `{ absent = true }` (the ref must not be stated).
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import type { BBox } from "../../lib/outline/types.ts";

export type Box = BBox;
export type Thing = { name: string; box: Box; text?: string };
export type ValueLabel = { accept: string[] } | { unknown: true; actual?: string } | { absent: true };
export type ClickEffect = { expect?: string; expect_gone?: string; cursor_in?: boolean; highlighted?: boolean; exits?: boolean };
export type Clickable = Thing & { role: string; click?: ClickEffect };
export type StateLabel = {
  marker: string;
  note?: string;
  selected: Thing[] | "unknown";
  focus: Thing[] | "unknown";
  input: Thing[] | "unknown";
  values: Record<string, ValueLabel>;
  clickables: Clickable[];
};
export type LabelFile = { program: string; states: StateLabel[] };

function fail(file: string, marker: string, what: string): never {
  throw new Error(`${file}: state ${JSON.stringify(marker)}: ${what}`);
}

function box(file: string, marker: string, raw: unknown): Box {
  if (!Array.isArray(raw) || raw.length !== 4 || !raw.every((n) => Number.isInteger(n) && n >= 0)) fail(file, marker, `a box is [row, col, rows, cols], got ${JSON.stringify(raw)}`);
  const [row, col, rows, cols] = raw as number[];
  if (rows! < 1 || cols! < 1) fail(file, marker, `a box has at least one row and column, got ${JSON.stringify(raw)}`);
  return { row: row!, col: col!, rows: rows!, cols: cols! };
}

function things(file: string, marker: string, key: string, raw: unknown): Thing[] | "unknown" {
  if (raw === "unknown") return "unknown";
  if (raw === undefined) fail(file, marker, `${key} is missing (give [] when there is none, or "unknown")`);
  if (!Array.isArray(raw)) fail(file, marker, `${key} must be a list or "unknown"`);
  return raw.map((t: any) => ({ name: String(t.name ?? t.text ?? ""), text: t.text === undefined ? undefined : String(t.text), box: box(file, marker, t.box) }));
}

function value(file: string, marker: string, ref: string, raw: any): ValueLabel {
  if (typeof raw === "string") return { accept: [raw] };
  if (Array.isArray(raw) && raw.every((v) => typeof v === "string")) return { accept: raw };
  if (raw && raw.unknown === true) return { unknown: true, ...(raw.actual !== undefined ? { actual: String(raw.actual) } : {}) };
  if (raw && raw.absent === true) return { absent: true };
  fail(file, marker, `value of ${ref} must be a string, a list, { unknown = true } or { absent = true }`);
}

function clickEffect(file: string, marker: string, raw: any): ClickEffect {
  const known = ["expect", "expect_gone", "cursor_in", "highlighted", "exits"];
  const extra = Object.keys(raw).filter((k) => !known.includes(k));
  if (extra.length || Object.keys(raw).length === 0) fail(file, marker, `click takes ${known.join(", ")}; got ${JSON.stringify(raw)}`);
  return raw as ClickEffect;
}

export function readLabels(file: string, program: string): LabelFile {
  const doc = parse(readFileSync(file, "utf8")) as any;
  const states: StateLabel[] = (doc.state ?? []).map((s: any) => {
    const marker = String(s.marker ?? fail(file, "?", "a state needs a marker"));
    return {
      marker,
      note: s.note,
      selected: things(file, marker, "selected", s.selected),
      focus: things(file, marker, "focus", s.focus),
      input: things(file, marker, "input", s.input),
      values: Object.fromEntries(Object.entries(s.values ?? {}).map(([ref, v]) => [ref, value(file, marker, ref, v)])),
      clickables: (s.clickable ?? []).map((c: any) => ({
        name: String(c.name ?? c.text), role: String(c.role ?? "button"), text: c.text === undefined ? undefined : String(c.text),
        box: box(file, marker, c.box), ...(c.click ? { click: clickEffect(file, marker, c.click) } : {}),
      })),
    };
  });
  return { program: String(doc.program ?? program), states };
}
