// The files a shell session writes (blocks/<seq>.out, blocks.jsonl, events.jsonl). A write
// error — disk full, EFBIG, EACCES, a directory in the way — stops the transcript, never the
// session: the first error is kept and reported (like a cast's `recording.error`), and
// nothing more is written, so a half-written transcript is never silently continued.
// Files stay open between appends (a block's own file until the block ends): an exec writes
// six or seven lines, and opening and closing a file for each cost ~0.15 ms between the block's
// end mark and exec's answer. Writes stay synchronous: the files are complete when exec answers.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";

export class TranscriptFiles {
  readonly dir: string;
  #error: string | null = null;
  readonly #open = new Map<string, number>();

  constructor(dir: string) {
    this.dir = dir;
    this.#guard("blocks", () => mkdirSync(`${dir}/blocks`, { recursive: true, mode: 0o700 }));
  }

  /** Why the transcript stopped, or null while it is being written. */
  get error(): string | null {
    return this.#error;
  }

  /** Appends to a file under the transcript directory (created 0600 if missing); the file
   * stays open until `release` or `close`. */
  append(name: string, text: string): void {
    this.#guard(name, () => {
      let fd = this.#open.get(name);
      if (fd === undefined) {
        fd = openSync(`${this.dir}/${name}`, "a", 0o600);
        this.#open.set(name, fd);
      }
      const bytes = Buffer.from(text);
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
    });
  }

  /** Closes one file (a block's output once the block has ended); a later append reopens it. */
  release(name: string): void {
    const fd = this.#open.get(name);
    if (fd === undefined) return;
    this.#open.delete(name);
    try { closeSync(fd); } catch { /* already closed */ }
  }

  close(): void {
    for (const name of [...this.#open.keys()]) this.release(name);
  }

  #guard(name: string, write: () => void): void {
    if (this.#error !== null) return;
    try {
      write();
    } catch (error) {
      const code = (error as { code?: string }).code;
      const why = code ?? (error instanceof Error ? error.message.split("\n")[0]!.slice(0, 200) : "unknown error");
      this.#error = `transcript stopped: cannot write ${this.dir}/${name}: ${why}`;
      this.close();
    }
  }
}
