// Reading asciicast v3 (intervals) and v2 (absolute times, what `asciinema rec` 2.x writes).
// Every problem is a bad-cast error naming the line. `parseCast` reads a text held in memory
// (the report embeds it anyway); `streamCast` reads a file line by line, so replaying a cast
// of any length holds one line and one batch of output, never the whole file.
import { closeSync, readSync } from "node:fs";
import { TuiwrightError } from "../protocol/errors.ts";
import { SIZE_RANGE, sizeFits } from "../protocol/size-limits.ts";
import { openTrustedFile } from "../runtime/trusted-file.ts";
import type { WidthRules } from "../terminal/widths.ts";

export type CastEvent = { time: number; code: string; data: string; line: number };
/** `widths`: the cell-width rules the cast was recorded under (its header's "widths"; a cast
 * without one was recorded per code point, Unicode 11, as tuiwright did before graphemes). */
export type CastHeader = { version: 2 | 3; cols: number; rows: number; command: string; title: string; widths: WidthRules };
export type Cast = CastHeader & { events: CastEvent[] };
/** A cast whose events are read as they are used (once). */
export type CastStream = CastHeader & { events: Iterable<CastEvent> };

/** One line may be long (a big paste), but not without bound. */
const MAX_LINE_BYTES = 64 << 20;
const READ_CHUNK = 1 << 20;

function bad(file: string, line: number, message: string): TuiwrightError {
  return new TuiwrightError("bad-cast", `${file}:${line}: ${message}`, { details: { file, line } });
}

function parseHeader(first: string, file: string): CastHeader {
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(first);
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
  return {
    version,
    cols: cols as number,
    rows: rows as number,
    command: typeof header.command === "string" ? header.command : "",
    title: typeof header.title === "string" ? header.title : "",
    widths: header.widths === "graphemes" ? "graphemes" : "unicode11",
  };
}

/** Events from the lines after the header (numbered from 2). A line that is not JSON ends the
 * cast if nothing but blank lines follows it (a recording cut off mid-line by a crash). */
function* parseEvents(lines: Iterable<string>, version: 2 | 3, file: string): Generator<CastEvent> {
  let time = 0;
  let lineNo = 1;
  let torn: number | null = null;
  for (const raw of lines) {
    lineNo++;
    if (raw.trim() === "" || raw.startsWith("#")) continue;
    if (torn !== null) throw bad(file, torn, "an event must be a JSON array [time, code, data]");
    let event: unknown;
    try {
      event = JSON.parse(raw);
    } catch {
      torn = lineNo;
      continue;
    }
    if (!Array.isArray(event) || event.length !== 3 || typeof event[0] !== "number" || typeof event[1] !== "string" || typeof event[2] !== "string") {
      throw bad(file, lineNo, "an event must be [time, code, data] with a number and two strings");
    }
    if (event[0] < 0) throw bad(file, lineNo, `negative time ${event[0]}`);
    time = version === 3 ? time + event[0] : event[0];
    yield { time, code: event[1], data: event[2], line: lineNo };
  }
}

export function parseCast(text: string, file: string): Cast {
  const lines = text.split("\n");
  const header = parseHeader(lines[0] ?? "", file);
  return { ...header, events: [...parseEvents(lines.slice(1), header.version, file)] };
}

/** Lines of a regular file, read a chunk at a time (UTF-8 split across chunks is kept whole). */
function* fileLines(fd: number, file: string): Generator<string> {
  const decoder = new TextDecoder();
  const buffer = Buffer.alloc(READ_CHUNK);
  let pending = "";
  let lineNo = 1;
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, null);
    pending += decoder.decode(buffer.subarray(0, read), { stream: read > 0 });
    let start = 0;
    let newline: number;
    while ((newline = pending.indexOf("\n", start)) !== -1) {
      yield pending.slice(start, newline);
      start = newline + 1;
      lineNo++;
    }
    pending = pending.slice(start);
    if (pending.length > MAX_LINE_BYTES) throw bad(file, lineNo, `a line longer than ${MAX_LINE_BYTES >> 20} MiB`);
    if (read === 0) break;
  }
  if (pending !== "") yield pending;
}

/** Opens a cast file for streaming: only a regular file; the header is checked at once. */
export function streamCast(path: string): CastStream & { close(): void } {
  // Any length (it streams), but only a regular file: a FIFO or device is refused at once.
  const { fd } = openTrustedFile(path, { what: "cast", maxBytes: Number.POSITIVE_INFINITY, badName: "bad-cast" });
  try {
    const lines = fileLines(fd, path);
    const first = lines.next();
    const header = parseHeader(first.done ? "" : first.value, path);
    const rest: Iterable<string> = { [Symbol.iterator]: () => lines };
    return { ...header, events: parseEvents(rest, header.version, path), close: () => closeSync(fd) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
