// A chat program's own transcript as evidence for an answer whose start scrolled off a screen
// that keeps no scrollback (an alternate screen). A turns manifest's `transcript` names where
// the program writes its conversation (JSON lines) and where in an entry the assistant's text
// is; the latest answer there is used only when it agrees with the screen: the answer's text
// on screen, normalised (whitespace, list bullets, markdown marks the CLI renders away), is
// the end of the transcript's last answer, normalised the same way. Otherwise the answer
// stays what is on screen (complete: false) and the reason is said.
import { findFiles, readTail } from "./transcript-files.ts";
import { firstSqliteRow } from "./transcript-sqlite.ts";

export type TranscriptSpec = {
  /** Path patterns (~/…, $VAR/…, `*` for one component), the first that yields files wins. */
  files: string[];
  /** JSON paths (dotted) and the values an answer's entry has there. */
  entry: Record<string, string>;
  /** The JSON path of the answer's text in the entry; `[]` takes each array element,
   * `[key=value]` those whose key has that value; several texts are joined with blank lines. */
  text: string;
  /** The files are SQLite databases: this SELECT yields the entries as JSON text (its first
   * column), newest first; `$since` is the session's start (ms since the epoch). */
  sqlite?: string;
};

/** The latest answer read from a transcript file, or why there is none that may be used. */
export type TranscriptAnswer = { text: string; path: string } | { why: string; path?: string };

/** How much of the screen's text must agree (normalised characters): a short tail agrees
 * with too many texts to be evidence. */
const AGREE_MIN = 40;

type Json = unknown;

function step(values: Json[], segment: string): Json[] {
  const out: Json[] = [];
  const array = /^(\w*)\[(?:(\w+)=([^\]]*))?\]$/.exec(segment);
  for (const value of values) {
    if (value === null || typeof value !== "object") continue;
    if (!array) { out.push((value as Record<string, Json>)[segment]); continue; }
    const list = array[1] ? (value as Record<string, Json>)[array[1]] : value;
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (array[2] === undefined || (item !== null && typeof item === "object" && String((item as Record<string, Json>)[array[2]]) === array[3])) out.push(item);
    }
  }
  return out.filter((v) => v !== undefined);
}

/** The values at a dotted JSON path ("message.content[type=text].text"). */
export function jsonPath(value: Json, path: string): Json[] {
  return path.split(".").reduce<Json[]>((values, segment) => step(values, segment), [value]);
}

/** The answer in one entry (a JSON document), or null: not an answer entry, or no text. */
export function answerOf(json: string, spec: TranscriptSpec): string | null {
  let entry: Json;
  try {
    entry = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Object.entries(spec.entry).every(([path, want]) => jsonPath(entry, path).some((v) => String(v) === want))) return null;
  const texts = jsonPath(entry, spec.text).filter((v): v is string => typeof v === "string" && v.trim() !== "");
  return texts.length > 0 ? texts.join("\n\n") : null;
}

/** The last answer in a transcript's text (JSON lines; a partial first line of a tail read is skipped). */
export function lastAnswer(text: string, spec: TranscriptSpec): string | null {
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    const answer = answerOf(line, spec);
    if (answer !== null) return answer;
  }
  return null;
}

/** Text as a CLI's screen and its markdown source both read: list bullets, heading and quote
 * marks, emphasis and code marks dropped, whitespace (and line wraps) as single spaces. */
export function normalised(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/^\s*(?:[-*+•◦▪‣]\s+|\d+[.)]\s+|#{1,6}\s+|>\s*)+/, ""))
    .join(" ")
    .replace(/[*_`]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether the screen's text of an answer is the end of the transcript's answer, and why not. */
export function agrees(screen: string, transcript: string): true | string {
  const shown = normalised(screen);
  const whole = normalised(transcript);
  if (shown.length < AGREE_MIN) return `only ${shown.length} characters of the answer are on screen (at least ${AGREE_MIN} must agree)`;
  if (!whole.endsWith(shown)) return "its last answer does not end with the text on screen";
  return true;
}

/** The latest answer of the program's transcript, agreeing with `screen`: the newest file the
 * patterns find, modified since the session started (`sinceMs`), read safely. */
export function transcriptAnswer(spec: TranscriptSpec, env: Record<string, string>, sinceMs: number, screen: string): TranscriptAnswer {
  const reasons: string[] = [];
  for (const pattern of spec.files) {
    const files = findFiles(pattern, env, sinceMs, spec.sqlite !== undefined);
    if (typeof files === "string") { reasons.push(files); continue; }
    if (files.length === 0) { reasons.push(`no file ${pattern} written since the session started`); continue; }
    const newest = files.reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a));
    let answer: string | null;
    try {
      answer = spec.sqlite !== undefined
        ? firstSqliteRow(newest.path, spec.sqlite, sinceMs, (json) => answerOf(json, spec))
        : lastAnswer(readTail(newest.path), spec);
    } catch (error) {
      return { why: `the CLI's transcript ${newest.path} could not be read: ${(error as Error).message}`, path: newest.path };
    }
    if (answer === null) return { why: `the CLI's transcript ${newest.path} has no answer entry`, path: newest.path };
    const agreement = agrees(screen, answer);
    if (agreement !== true) return { why: `the CLI's transcript ${newest.path} does not agree with the screen: ${agreement}`, path: newest.path };
    return { text: answer, path: newest.path };
  }
  return { why: `no transcript of the CLI found (${reasons.join("; ")})` };
}

/** What identifies the state of the program's transcript files: the newest one's path, size
 * and time ("" when there is none). A changed signature is worth reading again. */
export function transcriptSignature(spec: TranscriptSpec, env: Record<string, string>, sinceMs: number): string {
  for (const pattern of spec.files) {
    const files = findFiles(pattern, env, sinceMs, spec.sqlite !== undefined);
    if (typeof files === "string" || files.length === 0) continue;
    const newest = files.reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a));
    return `${newest.path}:${newest.size}:${newest.mtimeMs}`;
  }
  return "";
}
