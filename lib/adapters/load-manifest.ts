// Reading a manifest: TOML → schema → cross-checks → compiled form. Every error names the
// file, the line and the key, e.g. `adapters/vim.toml:14: regions.1.rows: rows must be …`.
import type { TranscriptSpec } from "./transcript.ts";
import { parse, TomlError } from "smol-toml";
import * as v from "valibot";
import { TuiwrightError } from "../protocol/errors.ts";
import { parsePattern } from "../terminal/pattern.ts";
import { COLOUR_NAMES, Manifest, type ManifestData, type RegionData } from "./manifest-schema.ts";
import { operationRefProblems } from "./manifest-operations.ts";

export type AttrPredicate = { inverse?: boolean; bold?: boolean; dim?: boolean; strikethrough?: boolean; fg?: number | string; bg?: number | string };

export type RowSpec =
  | { kind: "range"; from: number; to: number }
  | { kind: "last-non-empty" | "cursor" | "above-cursor" };

export type CompiledRegion = {
  name: string;
  role: string;
  rows: RowSpec;
  cols: { from: number; to: number } | null;
  from?: RegExp;
  after?: RegExp;
  to?: RegExp;
  until?: RegExp;
  /** The region ends before the first row mostly in these attributes (e.g. vim's status line). */
  toAttrs: AttrPredicate | null;
  /** The region starts below the last row mostly in these attributes. */
  afterAttrs: AttrPredicate | null;
  /** from/after use their last match. */
  last: boolean;
  /** Absent while this matches a row of its rows. */
  unless?: RegExp;
  /** Absent unless this matches a row of the located region. */
  requires?: RegExp;
  /** Absent while this matches a row of the located region. */
  unlessWithin?: RegExp;
  /** Absent while a row of its rows is mostly in these attributes. */
  unlessAttrs: AttrPredicate | null;
  /** Its start is above the screen: the text is partial (the node's evidence says "scrolled"). */
  scrolled: boolean;
  /** The region exists only while the cursor is in it (e.g. vim's command line). */
  needsCursor: boolean;
  /** The region exists only while the alternate screen is (true) or is not (false) in use. */
  altScreen: boolean | null;
  predicate: AttrPredicate | null;
  items: "row" | "runs" | RegExp | null;
  itemRole: string;
  itemRoles: { role: string; when: AttrPredicate }[];
  selected: AttrPredicate | null;
  /** The item with the keys: the one the cursor is in, or the one mostly in these attributes. */
  focusItem: "cursor" | AttrPredicate | null;
  /** Cells in these attributes are a placeholder: not part of the region's text. */
  placeholder: AttrPredicate | null;
  /** The region exists only while this process fact holds. */
  when: "shell-foreground" | "turn" | null;
  /** The region is absent while the whole screen's text matches. */
  unlessScreen?: RegExp;
  /** The region exists only while the whole screen's text matches. */
  whenScreen?: RegExp;
  /** Items carry a key from this regex (a PID, a commit hash). */
  key?: RegExp;
  /** Rows and columns count inside this window (the manifest's [windows]). */
  window: "current" | "current-status" | "single" | null;
};

export type CompiledWindows = { status: AttrPredicate[]; current: AttrPredicate; separator: AttrPredicate | null; others: string | null };

export type CompiledValue = {
  region: string;
  regex: RegExp;
  map?: Record<string, string>;
  default?: string;
  defaultOnceSeen?: { value: string; seen: string[]; forgetOnInput?: RegExp };
  /** Applies only while this region's text matches. */
  whenRegion?: { region: string; regex: RegExp };
  cursorIn: boolean;
  /** Applies only when the region's first visible cell has these attributes. */
  whenAttrs: AttrPredicate | null;
};

export type CompiledManifest = {
  name: string;
  root: string;
  file: string;
  description: string;
  /** The program version the manifest was tested against ("" when not recorded). */
  tested: string;
  generic: boolean;
  /** A chat program whose regions follow the turn vocabulary (turns.ts). */
  turns: boolean;
  /** Where a turns program writes its conversation (transcript.ts), or null. */
  transcript: TranscriptSpec | null;
  /** Colour-only glyphs, blanked before the manifest reads the screen ("" for none). */
  pixels: string;
  detect: {
    argv0: string[];
    argv: string[];
    exclude: string[];
    screen?: RegExp;
    title?: RegExp;
    altScreen?: boolean;
    confidence: number;
  };
  /** Split panes' durable name (@root.NAME.N), or null. */
  panes: string | null;
  /** The root node (@root) is focused: the program reads every key (focus_root). */
  focusRoot: boolean;
  windows: CompiledWindows | null;
  regions: CompiledRegion[];
  values: CompiledValue[];
  focus: { region: string; when: "cursor" | "always" | "never" | "attrs" | RegExp; attrs: AttrPredicate | null }[];
};

function failure(file: string, problems: string[]): TuiwrightError {
  return new TuiwrightError("bad-manifest", `invalid manifest ${file}:\n${problems.map((p) => `  ${p}`).join("\n")}`, {
    details: { file, problems },
  });
}

/** Maps dotted key paths (`regions.1.rows`, `operations.2.steps.0.keys`) to the line that sets them. */
function keyLines(source: string): Map<string, number> {
  const lines = new Map<string, number>();
  const counts = new Map<string, number>();
  let table = "";
  source.split("\n").forEach((text, index) => {
    const line = index + 1;
    const arrayHeader = /^\s*\[\[\s*([A-Za-z0-9_.-]+)\s*\]\]/.exec(text);
    const header = /^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]/.exec(text);
    if (arrayHeader) {
      // A nested array of tables ([[operations.steps]]) belongs to the last [[operations]].
      const parts = arrayHeader[1]!.split(".");
      let path = "";
      parts.forEach((part, i) => {
        const name = path ? `${path}.${part}` : part;
        if (i < parts.length - 1) {
          path = `${name}.${Math.max(0, (counts.get(name) ?? 1) - 1)}`;
          return;
        }
        const n = counts.get(name) ?? 0;
        counts.set(name, n + 1);
        path = `${name}.${n}`;
      });
      table = path;
      lines.set(table, line);
    } else if (header) {
      table = header[1]!;
      lines.set(table, line);
    } else {
      const key = /^\s*([A-Za-z0-9_-]+|"[^"]+")\s*=/.exec(text);
      if (key) lines.set(table ? `${table}.${key[1]!.replace(/"/g, "")}` : key[1]!.replace(/"/g, ""), line);
    }
  });
  return lines;
}

function lineOf(lines: Map<string, number>, path: string): number | undefined {
  for (let p = path; p; p = p.includes(".") ? p.slice(0, p.lastIndexOf(".")) : "") {
    const line = lines.get(p);
    if (line !== undefined) return line;
  }
  return undefined;
}

function rowSpec(spec: RegionData["rows"]): RowSpec {
  if (typeof spec === "number") return { kind: "range", from: spec, to: spec };
  if (Array.isArray(spec)) return { kind: "range", from: spec[0], to: spec[1] };
  if (spec === "last-non-empty" || spec === "cursor" || spec === "above-cursor") return { kind: spec };
  const [from, to] = spec.split("..").map(Number);
  return { kind: "range", from: from!, to: to ?? from! };
}

function colSpec(spec: RegionData["cols"]): { from: number; to: number } | null {
  if (spec === undefined) return null;
  if (typeof spec === "number") return { from: spec, to: spec };
  if (Array.isArray(spec)) return { from: spec[0], to: spec[1] };
  const [from, to] = spec.split("..").map(Number);
  return { from: from!, to: to ?? from! };
}

function colour(value: number | string | undefined): number | string | undefined {
  if (typeof value !== "string" || value.startsWith("#")) return value;
  const bright = value.startsWith("bright-");
  return COLOUR_NAMES.indexOf(bright ? value.slice(7) : value) + (bright ? 8 : 0);
}

function predicate(attrs: { inverse?: boolean | undefined; bold?: boolean | undefined; dim?: boolean | undefined; strikethrough?: boolean | undefined; fg?: number | string | undefined; bg?: number | string | undefined } | undefined): AttrPredicate | null {
  if (!attrs) return null;
  const result: AttrPredicate = {};
  if (attrs.inverse !== undefined) result.inverse = attrs.inverse;
  if (attrs.bold !== undefined) result.bold = attrs.bold;
  if (attrs.dim !== undefined) result.dim = attrs.dim;
  if (attrs.strikethrough !== undefined) result.strikethrough = attrs.strikethrough;
  if (attrs.fg !== undefined) result.fg = colour(attrs.fg);
  if (attrs.bg !== undefined) result.bg = colour(attrs.bg);
  return Object.keys(result).length > 0 ? result : null;
}

const regex = (text: string | undefined) => (text === undefined ? undefined : parsePattern(text));

function compile(data: ManifestData, file: string): CompiledManifest {
  return {
    name: data.name,
    root: data.root ?? data.name,
    file,
    description: data.description ?? "",
    tested: data.tested ?? "",
    generic: data.generic,
    turns: data.turns,
    transcript: data.transcript ?? null,
    pixels: data.pixels,
    detect: {
      argv0: data.detect.argv0 ?? [],
      argv: data.detect.argv ?? [],
      exclude: data.detect.exclude ?? [],
      screen: regex(data.detect.screen),
      title: regex(data.detect.title),
      altScreen: data.detect.alt_screen,
      confidence: data.detect.confidence,
    },
    panes: data.panes ?? null,
    focusRoot: data.focus_root,
    windows: data.windows ? {
      status: data.windows.status.map((attrs) => predicate(attrs) ?? {}),
      current: predicate(data.windows.current) ?? {},
      separator: predicate(data.windows.separator),
      others: data.windows.others ?? null,
    } : null,
    regions: data.regions.map((r) => ({
      name: r.name,
      role: r.role,
      rows: rowSpec(r.rows),
      cols: colSpec(r.cols),
      from: regex(r.from),
      after: regex(r.after),
      to: regex(r.to),
      until: regex(r.until),
      toAttrs: predicate(r.to_attrs),
      afterAttrs: predicate(r.after_attrs),
      last: r.last ?? false,
      unless: regex(r.unless),
      requires: regex(r.requires),
      unlessWithin: regex(r.unless_within),
      unlessAttrs: predicate(r.unless_attrs),
      scrolled: r.scrolled ?? false,
      needsCursor: r.needs_cursor ?? false,
      altScreen: r.alt_screen ?? null,
      predicate: predicate({ inverse: r.inverse, bold: r.bold, dim: r.dim, strikethrough: r.strikethrough, fg: r.fg, bg: r.bg }),
      items: r.items === undefined ? null : r.items === "row" || r.items === "runs" ? r.items : parsePattern(r.items),
      itemRole: r.item_role ?? "item",
      itemRoles: (r.item_roles ?? []).map(({ role, ...attrs }) => ({ role, when: predicate(attrs) ?? {} })),
      selected: predicate(r.selected),
      focusItem: r.focus_item === "cursor" ? "cursor" : predicate(r.focus_item),
      placeholder: predicate(r.placeholder),
      when: r.when ?? null,
      unlessScreen: regex(r.unless_screen),
      whenScreen: regex(r.when_screen),
      key: regex(r.key),
      window: r.window ?? null,
    })),
    values: data.values.map((entry) => ({
      region: entry.region, regex: parsePattern(entry.regex), map: entry.map, default: entry.default,
      ...(entry.default_once_seen ? { defaultOnceSeen: { value: entry.default_once_seen.value, seen: entry.default_once_seen.seen, forgetOnInput: regex(entry.default_once_seen.forget_on_input) } } : {}),
      ...(entry.when_region ? { whenRegion: { region: entry.when_region.region, regex: parsePattern(entry.when_region.regex) } } : {}),
      cursorIn: entry.cursor_in ?? false, whenAttrs: predicate(entry.when_attrs),
    })),
    focus: data.focus.map((rule) => ({
      region: rule.region,
      when: rule.when === "cursor" || rule.when === "always" || rule.when === "never" || rule.when === "attrs" ? rule.when : parsePattern(rule.when),
      attrs: predicate(rule.attrs),
    })),
  };
}

export function loadManifest(source: string, file: string): CompiledManifest {
  let raw: unknown;
  try {
    raw = parse(source);
  } catch (error) {
    if (error instanceof TomlError) throw failure(file, [`${file}:${error.line}: TOML: ${error.message.split("\n")[0]}`]);
    throw failure(file, [`${file}: TOML: ${(error as Error).message}`]);
  }
  const lines = keyLines(source);
  const at = (path: string) => `${file}:${lineOf(lines, path) ?? 1}: ${path || "(top level)"}`;
  const result = v.safeParse(Manifest, raw);
  if (!result.success) {
    throw failure(file, result.issues.map((issue) => {
      const path = v.getDotPath(issue) ?? "";
      const key = JSON.stringify(path.split(".").at(-1));
      const message = issue.type === "strict_object" && issue.expected === "never" ? `unknown key ${key}`
        : issue.received === "undefined" ? `missing required key ${key}`
        : issue.message;
      return `${at(path)}: ${message}`;
    }));
  }
  const data = result.output;
  const names = new Set(data.regions.map((r) => r.name));
  const problems = [
    ...data.values.flatMap((entry, i) => (names.has(entry.region) ? [] : [`${at(`values.${i}.region`)}: no region named ${JSON.stringify(entry.region)}`])),
    ...data.values.flatMap((entry, i) => (!entry.when_region || names.has(entry.when_region.region) ? [] : [`${at(`values.${i}.when_region`)}: no region named ${JSON.stringify(entry.when_region.region)}`])),
    ...data.regions.flatMap((region, i) => (region.window && !data.windows ? [`${at(`regions.${i}.window`)}: window = ${JSON.stringify(region.window)} needs a [windows] table`] : [])),
    ...(data.transcript && !data.turns ? [`${at("transcript")}: a transcript is read for turns: it needs turns = true`] : []),
    ...(data.turns ? ["input", "done"].flatMap((name) => (names.has(name) ? [] : [`${at("turns")}: turns = true needs a region named ${JSON.stringify(name)}`])) : []),
    ...data.focus.flatMap((rule, i) => (names.has(rule.region) ? [] : [`${at(`focus.${i}.region`)}: no region named ${JSON.stringify(rule.region)}`])),
    ...data.focus.flatMap((rule, i) => ((rule.when === "attrs") === (predicate(rule.attrs) !== null) ? [] : [`${at(`focus.${i}.when`)}: when = "attrs" goes with attrs = { … } (and attrs only with it)`])),
    ...operationRefProblems(data.operations, data.root ?? data.name, names).map(({ path, problem }) => `${at(path)}: ${problem}`),
  ];
  if (problems.length > 0) throw failure(file, problems);
  return compile(data, file);
}
