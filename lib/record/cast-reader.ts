// Reading asciicast v3 (intervals) and v2 (absolute times, what `asciinema rec` 2.x writes).
// Every problem is a bad-cast error naming the line.
import { TuiwrightError } from "../protocol/errors.ts";
import { SIZE_RANGE, sizeFits } from "../terminal/size-limits.ts";

export type CastEvent = { time: number; code: string; data: string; line: number };
export type Cast = { version: 2 | 3; cols: number; rows: number; command: string; title: string; events: CastEvent[] };

function bad(file: string, line: number, message: string): TuiwrightError {
  return new TuiwrightError("bad-cast", `${file}:${line}: ${message}`, { details: { file, line } });
}

export function parseCast(text: string, file: string): Cast {
  const lines = text.split("\n");
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(lines[0] ?? "");
  } catch {
    throw bad(file, 1, "the first line must be the asciicast header (a JSON object)");
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) throw bad(file, 1, "the header must be a JSON object");
  const version = header.version;
  let cols: unknown;
  let rows: unknown;
  if (version === 3) {
    const term = header.term as { cols?: unknown; rows?: unknown } | undefined;
    cols = term?.cols;
    rows = term?.rows;
  } else if (version === 2) {
    cols = header.width;
    rows = header.height;
  } else {
    throw bad(file, 1, `unsupported asciicast version ${JSON.stringify(version)} (2 and 3 are read)`);
  }
  if (!Number.isInteger(cols) || !Number.isInteger(rows) || (cols as number) < 1 || (rows as number) < 1) {
    throw bad(file, 1, `the header needs the terminal size (${version === 3 ? "term.cols and term.rows" : "width and height"})`);
  }
  if (!sizeFits(cols as number, rows as number)) throw bad(file, 1, `terminal size ${cols}x${rows} is out of range (${SIZE_RANGE})`);
  const events: CastEvent[] = [];
  let time = 0;
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === "" || raw.startsWith("#")) continue;
    let event: unknown;
    try {
      event = JSON.parse(raw);
    } catch {
      // A recording cut off mid-line by a crash: keep what came before.
      if (i === lines.length - 1 || lines.slice(i + 1).every((l) => l.trim() === "")) break;
      throw bad(file, i + 1, "an event must be a JSON array [time, code, data]");
    }
    if (!Array.isArray(event) || event.length !== 3 || typeof event[0] !== "number" || typeof event[1] !== "string" || typeof event[2] !== "string") {
      throw bad(file, i + 1, "an event must be [time, code, data] with a number and two strings");
    }
    if (event[0] < 0) throw bad(file, i + 1, `negative time ${event[0]}`);
    time = version === 3 ? time + event[0] : event[0];
    events.push({ time, code: event[1], data: event[2], line: i + 1 });
  }
  return {
    version,
    cols: cols as number,
    rows: rows as number,
    command: typeof header.command === "string" ? header.command : "",
    title: typeof header.title === "string" ? header.title : "",
    events,
  };
}
