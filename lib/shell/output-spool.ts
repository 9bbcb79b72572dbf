// The whole output stream on disk (stream.txt in the transcript), so a wait from a cursor older
// than the in-memory window is answered from the spool rather than refused: the document's
// own `wait_for(…, from_cursor=0)` works however much was printed. A reset shell's stream goes
// on from the one it replaced (cursors never restart), so its spool lists the earlier pieces.
// A write error stops the spool (the session carries on); cursors it would have held are then
// refused with the reason.
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { TuiwrightError } from "../protocol/errors.ts";

/** One shell's stream file: cursor `base` is its first byte, `end` (if ended) one past its
 * last; `blocks`: how many blocks came before that shell's first (its blocks.jsonl beside it). */
export type SpoolPiece = { path: string; base: number; end: number | null; blocks?: number };

/** How much of the stream one wait reads back from disk (in bytes): a bound on memory. */
export const BACKFILL_MAX = 64 << 20;

export class OutputSpool {
  readonly path: string;
  readonly #earlier: SpoolPiece[];
  readonly #base: number;
  #fd: number | null = null;
  #written = 0;
  #error: string | null = null;
  /** The last range read back (waits re-read the same one on every change). */
  #cache: { from: number; to: number; text: string } | null = null;

  constructor(path: string, base: number, earlier: SpoolPiece[] = []) {
    this.path = path;
    this.#base = base;
    this.#earlier = earlier;
    try {
      this.#fd = openSync(path, "a", 0o600);
    } catch (error) {
      this.#error = `cannot open ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    }
  }

  /** Every piece of this stream on disk, oldest first (this shell's last, still growing). */
  get pieces(): SpoolPiece[] {
    return [...this.#earlier, { path: this.path, base: this.#base, end: this.#error === null ? null : this.#base + this.#written }];
  }

  /** The oldest cursor the spool can answer from (the stream's own start when it cannot). */
  get start(): number {
    return this.#earlier[0]?.base ?? this.#base;
  }

  append(text: string): void {
    if (this.#fd === null || this.#error !== null) return;
    const bytes = Buffer.from(text);
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(this.#fd, bytes, done);
      this.#written += bytes.length;
    } catch (error) {
      this.#error = `cannot write ${this.path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    }
  }

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }

  /** The stream between two cursors, read back from disk (`to` at most where memory starts). */
  read(from: number, to: number): string {
    if (to - from > BACKFILL_MAX) {
      throw new TuiwrightError("bad-data", `cursor ${from} is ${Math.round((to - from) / (1 << 20))} MiB before the output kept in memory; a wait reads at most ${BACKFILL_MAX >> 20} MiB back from the transcript`, {
        hint: "wait from a later cursor, or pass max_bytes / --max-bytes",
      });
    }
    const cached = this.#cache;
    if (cached && cached.from === from && cached.to === to) return cached.text;
    // Only the part not read before comes from disk (memory drops its oldest chunks as output grows).
    const head = cached && cached.from === from && cached.to < to ? cached.text : "";
    const text = head + this.#readRange(head ? cached!.to : from, to);
    this.#cache = { from, to, text };
    return text;
  }

  #readRange(from: number, to: number): string {
    const chunks: Buffer[] = [];
    for (const piece of this.pieces) {
      const end = piece.end ?? Infinity;
      const start = Math.max(from, piece.base);
      const stop = Math.min(to, end);
      if (start >= stop) continue;
      if (piece.path === this.path && this.#error !== null && stop > this.#base + this.#written) {
        throw new TuiwrightError("io", `the output from cursor ${start} is not in the transcript: ${this.#error}`);
      }
      chunks.push(readAt(piece.path, start - piece.base, stop - start));
    }
    if (chunks.length === 0 || from < this.start) {
      throw new TuiwrightError("bad-data", `cursor ${from} is older than this conversation's transcript (from ${this.start})`);
    }
    return Buffer.concat(chunks).toString("utf8");
  }
}

function readAt(path: string, position: number, length: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new TuiwrightError("io", `cannot read the transcript ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    const buffer = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const read = readSync(fd, buffer, done, length - done, position + done);
      if (read === 0) break;
      done += read;
    }
    return buffer.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}
