// NDJSON framing: one JSON text per line. Frames over the limit are discarded up to the next
// newline and reported, so one bad frame never costs the connection its other requests.

export const MAX_FRAME_BYTES = 1 << 20;
const NEWLINE = 0x0a;

export type FrameHandlers = { line(text: string): void; oversized(bytes: number): void };

export class LineReader {
  #parts: Uint8Array[] = [];
  #size = 0;
  #discarding = false;
  #discarded = 0;
  readonly #decoder = new TextDecoder();
  readonly #limit: number;

  constructor(limit = MAX_FRAME_BYTES) {
    this.#limit = limit;
  }

  /** A frame has started but its newline has not arrived yet. */
  get partial(): boolean {
    return this.#size > 0 || this.#discarding;
  }

  push(chunk: Uint8Array, handlers: FrameHandlers): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const stop = end === -1 ? chunk.length : end;
      this.#append(chunk.subarray(start, stop));
      if (end === -1) return;
      this.#finishLine(handlers);
      start = end + 1;
    }
  }

  #append(part: Uint8Array): void {
    if (part.length === 0) return;
    if (this.#discarding) { this.#discarded += part.length; return; }
    if (this.#size + part.length > this.#limit) {
      this.#discarding = true;
      this.#discarded = this.#size + part.length;
      this.#parts = [];
      this.#size = 0;
      return;
    }
    this.#parts.push(part.slice()); // the socket reuses its buffer
    this.#size += part.length;
  }

  #finishLine(handlers: FrameHandlers): void {
    if (this.#discarding) {
      const bytes = this.#discarded;
      this.#discarding = false;
      this.#discarded = 0;
      handlers.oversized(bytes);
      return;
    }
    const bytes = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts);
    this.#parts = [];
    this.#size = 0;
    const text = this.#decoder.decode(bytes);
    if (text.trim() !== "") handlers.line(text);
  }
}
