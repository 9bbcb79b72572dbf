// The snapshot file: a human-readable golden screen for CI.
//
//   # tuiwright snapshot
//   # size: 80x24
//   # mask: /\d\d:\d\d:\d\d/        (repeatable: matches are blanked on both sides; matched in
//                                  linear time, as waits are: a snapshot file is data from anywhere)
//   --- screen
//   <the screen's rows, trailing spaces and trailing blank rows trimmed>
//   --- outline                      (optional: the compact outline, compared when present)
//   @e1 paragraph "…"
import { TuiwrightError } from "../protocol/errors.ts";
import { linearPattern } from "../terminal/linear-pattern.ts";

/** The most a snapshot file may hold (read through the trusted reader: regular files only). */
export const MAX_SNAPSHOT_FILE_BYTES = 16 << 20;

export type SnapshotFile = { cols: number; rows: number; masks: string[]; screen: string[]; outline: string[] | null };

const MASKED = "░";

export function formatSnapshotFile(snapshot: SnapshotFile): string {
  const lines = ["# tuiwright snapshot", `# size: ${snapshot.cols}x${snapshot.rows}`, ...snapshot.masks.map((m) => `# mask: ${m}`), "--- screen", ...snapshot.screen];
  if (snapshot.outline) lines.push("--- outline", ...snapshot.outline);
  return `${lines.join("\n")}\n`;
}

export function parseSnapshotFile(text: string, file: string): SnapshotFile {
  const lines = text.replace(/\n$/, "").split("\n");
  let cols = 0;
  let rows = 0;
  const masks: string[] = [];
  let section: "header" | "screen" | "outline" = "header";
  const screen: string[] = [];
  let outline: string[] | null = null;
  lines.forEach((line, i) => {
    if (line === "--- screen") { section = "screen"; return; }
    if (line === "--- outline") { section = "outline"; outline = []; return; }
    if (section === "screen") { screen.push(line); return; }
    if (section === "outline") { outline!.push(line); return; }
    const size = /^# size: (\d+)x(\d+)$/.exec(line);
    const mask = /^# mask: (.+)$/.exec(line);
    if (size) { cols = Number(size[1]); rows = Number(size[2]); }
    else if (mask) {
      try { linearPattern(mask[1]!); } catch (error) { throw new TuiwrightError("bad-data", `${file}:${i + 1}: ${(error as Error).message}`); }
      masks.push(mask[1]!);
    } else if (line.trim() !== "" && !line.startsWith("#")) {
      throw new TuiwrightError("bad-data", `${file}:${i + 1}: expected "# size: COLSxROWS", "# mask: /re/" or "--- screen" before the rows, got ${JSON.stringify(line)}`);
    }
  });
  if (cols === 0) throw new TuiwrightError("bad-data", `${file}: no "# size: COLSxROWS" line`);
  if (section === "header") throw new TuiwrightError("bad-data", `${file}: no "--- screen" section`);
  return { cols, rows, masks, screen, outline };
}

function masker(masks: string[]): (line: string) => string {
  const patterns = masks.map(linearPattern);
  return (line) => patterns.reduce((text, re) => re.replaceAll(text, (match) => MASKED.repeat([...match].length)), line);
}

function diffLines(label: string, expected: string[], actual: string[], mask: (line: string) => string): string[] {
  const out: string[] = [];
  const count = Math.max(expected.length, actual.length);
  for (let i = 0; i < count; i++) {
    const e = expected[i];
    const a = actual[i];
    if (e !== undefined && a !== undefined && mask(e) === mask(a)) continue;
    out.push(`@@ ${label} row ${i} @@`);
    if (e !== undefined) out.push(`-${e}`);
    if (a !== undefined) out.push(`+${a}`);
  }
  return out;
}

/** An empty string when they match; otherwise a unified-style diff (rows compared in place). */
export function compareSnapshot(expected: SnapshotFile, actual: SnapshotFile, names: { expected: string; actual: string }): string {
  const mask = masker(expected.masks);
  const body: string[] = [];
  if (expected.cols !== actual.cols || expected.rows !== actual.rows) {
    body.push("@@ size @@", `-${expected.cols}x${expected.rows}`, `+${actual.cols}x${actual.rows}`);
  }
  body.push(...diffLines("screen", expected.screen, actual.screen, mask));
  if (expected.outline) body.push(...diffLines("outline", expected.outline, actual.outline ?? [], mask));
  return body.length === 0 ? "" : [`--- ${names.expected}`, `+++ ${names.actual}`, ...body].join("\n");
}
