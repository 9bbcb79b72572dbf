// The files a shell session writes (blocks/<seq>.out, blocks.jsonl, events.jsonl). A write
// error — disk full, EFBIG, EACCES, a directory in the way — stops the transcript, never the
// session: the first error is kept and reported (like a cast's `recording.error`), and
// nothing more is written, so a half-written transcript is never silently continued.
import { appendFileSync, mkdirSync } from "node:fs";

export class TranscriptFiles {
  readonly dir: string;
  #error: string | null = null;

  constructor(dir: string) {
    this.dir = dir;
    this.#guard("blocks", () => mkdirSync(`${dir}/blocks`, { recursive: true, mode: 0o700 }));
  }

  /** Why the transcript stopped, or null while it is being written. */
  get error(): string | null {
    return this.#error;
  }

  /** Appends to a file under the transcript directory (created 0600 if missing). */
  append(name: string, text: string): void {
    this.#guard(name, () => appendFileSync(`${this.dir}/${name}`, text, { mode: 0o600 }));
  }

  #guard(name: string, write: () => void): void {
    if (this.#error !== null) return;
    try {
      write();
    } catch (error) {
      const code = (error as { code?: string }).code;
      const why = code ?? (error instanceof Error ? error.message.split("\n")[0]!.slice(0, 200) : "unknown error");
      this.#error = `transcript stopped: cannot write ${this.dir}/${name}: ${why}`;
    }
  }
}
