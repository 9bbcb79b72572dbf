// Recording a session as asciicast v3, one line per event, each written with one write(2) as
// it happens, so a killed daemon leaves a valid prefix. The file is created exclusively (a new
// daemon never appends to an old file). Times are intervals rounded to milliseconds from a
// rounded clock, so they never drift. Output is decoded as one UTF-8 stream: a character
// split across PTY reads is held back until it is whole. A write error (disk full) stops the
// recording, not the session; the error is kept for the session's meta. Secrets typed with
// --secret are redacted from the output too (a program may echo them), star for character.
// A recording has a size cap (`maxBytes`, 0: none): the output or input event that would pass
// it is not written, nor any after it; in its place go a marker and a visible line saying so,
// and markers, resizes and the exit status still follow, so the file stays a valid cast (a
// flooding program wrote 1.9 GB in a minute before the cap).
import { closeSync, openSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { TuiwrightError } from "../protocol/errors.ts";
import { MaskedFeed, SecretMask } from "./secret-mask.ts";
import { factsLabel, sameFacts, type RecordedFacts } from "./fact-marker.ts";

export type CastHeader = {
  cols: number;
  rows: number;
  command: string;
  title: string;
  env: { TERM?: string; SHELL?: string };
  /** The screen's cell-width rules (lib/terminal/widths.ts): a replay uses the same. */
  widths?: string;
};

export class CastRecorder {
  readonly path: string;
  #fd: number | null;
  #error: string | null = null;
  readonly #start = performance.now();
  #lastMs = 0;
  readonly #decoder = new TextDecoder("utf-8", { fatal: false });
  /** The session's secrets (shared with its transcript: one rule for both). */
  readonly #mask: SecretMask;
  /** Output through the mask; what could be the start of a secret split across reads waits. */
  readonly #feed: MaskedFeed;
  readonly maxBytes: number;
  #bytes = 0;
  #full = false;

  private constructor(path: string, fd: number, mask: SecretMask, maxBytes: number) {
    this.path = path;
    this.#fd = fd;
    this.#mask = mask;
    this.#feed = new MaskedFeed(mask);
    this.maxBytes = maxBytes;
  }

  static create(path: string, header: CastHeader, mask = new SecretMask(), maxBytes = 0): CastRecorder {
    let fd: number;
    try {
      fd = openSync(path, "wx", 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") throw new TuiwrightError("io", `cast file ${path} already exists: tuiwright never appends to an old recording`, { hint: "choose another --cast path or remove the file" });
      if (code === "ENOENT") throw new TuiwrightError("no-such-file", `cannot create ${path}: its directory does not exist`);
      throw new TuiwrightError("io", `cannot create ${path}: ${(error as Error).message}`);
    }
    const recorder = new CastRecorder(path, fd, mask, maxBytes);
    const env: Record<string, string> = {};
    if (header.env.TERM) env.TERM = header.env.TERM;
    if (header.env.SHELL) env.SHELL = header.env.SHELL;
    recorder.#line(`${JSON.stringify({
      version: 3,
      term: { cols: header.cols, rows: header.rows, type: header.env.TERM ?? "xterm-256color" },
      timestamp: Math.floor(Date.now() / 1000),
      command: header.command,
      title: header.title,
      env,
      ...(header.widths ? { widths: header.widths } : {}),
    })}\n`);
    return recorder;
  }

  get error(): string | null {
    return this.#error;
  }

  /** Bytes written to the file so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The size cap was reached: output and input are no longer recorded. */
  get full(): boolean {
    return this.#full;
  }

  output(bytes: Uint8Array): void {
    if (this.#full) return;
    const now = this.#feed.push(this.#decoder.decode(bytes, { stream: true }));
    if (now) this.#event("o", now);
  }

  /** From now on this text never appears in the recording's output. */
  addSecret(secret: string): void {
    this.#mask.add(secret);
  }

  /** Input is masked too: an exec'd command line may carry a secret's value. */
  input(text: string): void {
    this.#event("i", this.#mask.redact(text));
  }

  resize(cols: number, rows: number): void {
    this.#event("r", `${cols}x${rows}`);
  }

  /** Labels are redacted too: a wait on the screen may name the secret (`--wait-text`). */
  marker(label: string): void {
    this.beforeMarker?.();
    this.#event("m", this.#mask.redact(label));
  }

  /** Called before each marker is written: the session records its process facts there. */
  beforeMarker: (() => void) | null = null;
  #facts: RecordedFacts | null = null;

  /** The process facts the outline rests on, written when they changed (fact-marker.ts). */
  facts(facts: RecordedFacts): void {
    if (sameFacts(this.#facts, facts)) return;
    this.#facts = facts;
    this.#event("m", this.#mask.redact(factsLabel(facts)));
  }

  exit(code: number | null, signal: string | null): void {
    const tail = this.#full ? "" : this.#feed.push(this.#decoder.decode()) + this.#feed.flush(); // an unfinished character shows as U+FFFD
    if (tail) this.#event("o", tail);
    const signals = constants.signals as Record<string, number>;
    const status = signal ? 128 + (signals[signal] ?? 0) : (code ?? 0);
    this.#event("x", String(status));
  }

  close(): void {
    if (this.#fd === null) return;
    try { closeSync(this.#fd); } catch { /* already gone */ }
    this.#fd = null;
  }

  #event(code: string, data: string): void {
    if (this.#full && (code === "o" || code === "i")) return;
    const now = Math.round(performance.now() - this.#start);
    const interval = (now - this.#lastMs) / 1000;
    const line = `[${interval.toFixed(3)}, ${JSON.stringify(code)}, ${JSON.stringify(data)}]\n`;
    const size = Buffer.byteLength(line);
    if (this.maxBytes > 0 && (code === "o" || code === "i") && this.#bytes + size > this.maxBytes) {
      this.#full = true;
      this.#event("m", `recording full: output and input past ${this.maxBytes} bytes are not recorded`);
      this.#line(`[0.000, "o", ${JSON.stringify(`\r\n\x1b[7m[tuiwright: the recording is full (${this.maxBytes} bytes); the rest of the session is not recorded]\x1b[0m\r\n`)}]\n`);
      return;
    }
    this.#lastMs = now;
    this.#line(line);
  }

  #line(line: string): void {
    if (this.#fd === null) return;
    try {
      const size = Buffer.byteLength(line);
      const written = writeSync(this.#fd, line);
      this.#bytes += written;
      // A short write means the disk filled mid-line: stop here, the reader drops the torn line.
      if (written !== size) throw new Error(`short write (${written} of ${size} bytes): the disk is full`);
    } catch (error) {
      this.#error = `recording stopped: ${(error as Error).message}`;
      this.close();
    }
  }
}
