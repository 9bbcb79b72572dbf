// A shell driven command by command: the output stream with its marks, the blocks they delimit,
// `exec` (type a command at the prompt, return when its block ends), interactive programs fed
// with `send`, and the transcript on disk (events.jsonl, blocks.jsonl, blocks/<seq>.out).
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { TuiwrightError } from "../protocol/errors.ts";
import { BlockTracker, type Block, type ShellMode } from "./block-tracker.ts";
import { OutputStream } from "./output-stream.ts";
import { TranscriptFiles } from "./transcript-files.ts";

export type ExecOptions = { command: string; cwd?: string; timeoutMs: number; maxOutput: number; queue: boolean; interactive: boolean };

/** A word the shell reads back as exactly this text. */
const shellQuote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

export type BlockResult = {
  block: number;
  seq: number;
  command: string;
  exitCode: number | null;
  output: string;
  outputTruncated: boolean;
  outputChars: number;
  startedAt: string;
  endedAt: string | null;
  cwd: string | null;
  cursor: number;
};

type Waiter = { resolve(): void; reject(error: TuiwrightError): void };

export class ShellSession {
  readonly stream: OutputStream;
  readonly tracker: BlockTracker;
  readonly #type: (text: string) => void;
  readonly #dir: string | null;
  readonly #files: TranscriptFiles | null;
  readonly #changed: () => void;
  #cwd: string | null = null;
  #readyWaiters: Waiter[] = [];
  #endWaiters = new Map<number, Waiter[]>();
  #queue: Promise<unknown> = Promise.resolve();
  #ended = false;

  /** fish moves to a new line after its preexec event: that newline belongs to the prompt. */
  readonly #newlineAfterStart: boolean;
  /** fish has no ( … ) subshells, so exec --cwd cannot leave the shell's directory alone. */
  readonly #subshells: boolean;

  /** `keepBlocks`: how many blocks stay in memory (default KEEP_BLOCKS; fewer in tests). */
  constructor(options: { nonce: string; transcriptDir: string | null; fish?: boolean; keepBlocks?: number; type(text: string): void; changed(): void }) {
    this.#newlineAfterStart = options.fish ?? false;
    this.#subshells = !(options.fish ?? false);
    this.#type = options.type;
    this.#dir = options.transcriptDir;
    this.#changed = options.changed;
    this.#files = this.#dir ? new TranscriptFiles(this.#dir) : null;
    this.tracker = new BlockTracker({
      ready: () => { for (const w of this.#readyWaiters.splice(0)) w.resolve(); },
      started: (block) => {
        this.#event({ event: "block-begin", seq: block.seq, command: block.command, interactive: block.interactive, cursor: block.startOffset });
        this.#event({ event: "mode", mode: this.tracker.mode() });
      },
      ended: (block) => this.#blockEnded(block),
    }, options.keepBlocks);
    this.stream = new OutputStream(options.nonce, (mark) => {
      this.tracker.onMark(mark, this.#cwd);
      this.#changed();
    });
    this.stream.onCwd = (cwd) => { this.#cwd = cwd; };
    // An open block's output goes to its .out file as it arrives: all of it, however long.
    this.stream.onText = (text) => {
      const open = this.tracker.open;
      if (!open) return;
      let body = text;
      if (this.#newlineAfterStart && this.stream.end === open.startOffset && body.startsWith("\n")) {
        open.startOffset += 1;
        body = body.slice(1);
      }
      if (body) this.#files?.append(`blocks/${open.seq}.out`, body);
    };
  }

  /** Why the transcript on disk stopped being written (the session carries on), or null. */
  get transcript(): { path: string; error: string | null } | null {
    return this.#files ? { path: this.#files.dir, error: this.#files.error } : null;
  }

  get cwd(): string | null {
    return this.#cwd;
  }

  push(text: string): void {
    this.stream.push(text);
    this.#changed();
  }

  /** The shell's program has exited: nothing will end blocks or prompts any more. */
  ended(): void {
    this.#ended = true;
    const error = new TuiwrightError("session-exited", "the shell exited");
    for (const w of this.#readyWaiters.splice(0)) w.reject(error);
    for (const list of this.#endWaiters.values()) for (const w of list) w.reject(error);
    this.#endWaiters.clear();
  }

  mode(): ShellMode {
    return this.tracker.mode();
  }

  /** The first `max` characters of a block: from memory, or from its .out file when the
   * start has left the in-memory window. */
  #head(block: Block, end: number, max: number): string {
    if (block.startOffset >= this.stream.start || !this.#dir) return this.stream.slice(block.startOffset, Math.min(end, block.startOffset + max));
    const fd = openSync(`${this.#dir}/blocks/${block.seq}.out`, "r");
    try {
      const buffer = Buffer.alloc(Math.min(max * 4, 64 << 20));
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      return buffer.subarray(0, read).toString("utf8").slice(0, max);
    } finally {
      closeSync(fd);
    }
  }

  /** Block `seq`: from memory, or from blocks.jsonl once it has left memory (ended blocks only). */
  block(seq: number): Block | undefined {
    const kept = this.tracker.get(seq);
    if (kept || seq > this.tracker.count || !this.#dir) return kept;
    let text: string;
    try {
      text = readFileSync(`${this.#dir}/blocks.jsonl`, "utf8");
    } catch {
      return undefined;
    }
    for (const line of text.split("\n")) {
      if (!line.includes(`"seq":${seq},`)) continue; // cheap filter; the parse decides
      const { outputChars: _, ...block } = JSON.parse(line) as Block & { outputChars: number };
      if (block.seq === seq) return block;
    }
    return undefined;
  }

  result(block: Block, maxOutput: number): BlockResult {
    const end = block.endOffset ?? this.stream.end;
    const length = end - block.startOffset;
    return {
      block: block.seq,
      seq: block.seq,
      command: block.command,
      exitCode: block.exitCode,
      output: this.#head(block, end, maxOutput),
      outputTruncated: length > maxOutput,
      outputChars: length,
      startedAt: block.startedAt,
      endedAt: block.endedAt,
      cwd: block.cwd,
      cursor: end,
    };
  }

  async exec(options: ExecOptions): Promise<BlockResult | { cursor: number; mode: ShellMode }> {
    const mode = this.tracker.mode();
    if (mode === "interactive") {
      throw new TuiwrightError("busy", `the session is interactive (block ${this.tracker.open!.seq}: ${JSON.stringify(this.tracker.open!.command)})`, {
        hint: "use `send` to talk to it, `end` to stop it, or `reset`",
      });
    }
    if (mode === "block_running" && !options.queue) {
      throw new TuiwrightError("busy", `a block is running (block ${this.tracker.open!.seq}: ${JSON.stringify(this.tracker.open!.command)})`, {
        hint: "wait for it (`wait --output PROMPT`), or pass --queue",
      });
    }
    // One exec at a time types at the prompt; queued ones wait their turn.
    const turn = this.#queue.then(() => this.#execNow(options));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  async #execNow(options: ExecOptions): Promise<BlockResult | { cursor: number; mode: ShellMode }> {
    const deadline = performance.now() + options.timeoutMs;
    await this.#until(() => this.tracker.atPrompt, this.#readyWaiters, options.timeoutMs, "the shell to show its prompt");
    if (/[\r\n]/.test(options.command)) throw new TuiwrightError("bad-data", "a command for exec must be one line (join commands with ; or &&)");
    if (options.cwd !== undefined && !this.#subshells) {
      throw new TuiwrightError("usage", "exec --cwd is not available in fish sessions (fish has no subshells to run it in)", { hint: "exec `cd DIR` first, or use bash/zsh" });
    }
    this.tracker.expect(options.command, options.interactive);
    const cursor = this.stream.end;
    // --cwd runs it in a subshell there, so the shell's own directory does not move.
    const line = options.cwd === undefined ? options.command : `(cd -- ${shellQuote(options.cwd)} && ${options.command})`;
    this.#type(`${line}\r`);
    if (options.interactive) return { cursor, mode: "interactive" };
    const started = await this.#nextBlock(Math.max(0, deadline - performance.now()));
    await this.#blockEnd(started, Math.max(0, deadline - performance.now()));
    if (options.cwd !== undefined) started.cwd = options.cwd;
    return this.result(started, options.maxOutput);
  }

  send(data: string): number {
    if (this.#ended) throw new TuiwrightError("session-exited", "the shell has exited");
    const cursor = this.stream.end;
    this.#type(data);
    this.#event({ event: "send", bytes: Buffer.byteLength(data), cursor });
    return cursor;
  }


  #nextBlock(timeoutMs: number): Promise<Block> {
    const before = this.tracker.count;
    return new Promise((resolve, reject) => {
      const check = () => {
        const block = this.tracker.count > before ? this.tracker.get(before + 1) : undefined;
        if (block) { cleanup(); resolve(block); }
      };
      const timer = setTimeout(() => { cleanup(); reject(new TuiwrightError("timeout", `the command did not start within ${Math.round(timeoutMs)} ms`)); }, timeoutMs);
      const listener = { resolve: check, reject: (e: TuiwrightError) => { cleanup(); reject(e); } };
      const cleanup = () => { clearTimeout(timer); this.#startListeners.delete(listener); };
      this.#startListeners.add(listener);
      check();
    });
  }

  #startListeners = new Set<{ resolve(): void; reject(e: TuiwrightError): void }>();

  #blockEnd(block: Block, timeoutMs: number): Promise<void> {
    if (block.endOffset !== null) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const list = this.#endWaiters.get(block.seq) ?? [];
      const timer = setTimeout(() => {
        this.#endWaiters.set(block.seq, (this.#endWaiters.get(block.seq) ?? []).filter((w) => w !== waiter));
        reject(new TuiwrightError("timeout", `block ${block.seq} (${JSON.stringify(block.command)}) did not finish within the timeout`, {
          hint: "it is still running: `tuiwright status`, `wait --output PROMPT`, or `end`",
          details: { block: block.seq, cursor: this.stream.end },
        }));
      }, timeoutMs);
      const waiter = { resolve: () => { clearTimeout(timer); resolve(); }, reject: (e: TuiwrightError) => { clearTimeout(timer); reject(e); } };
      list.push(waiter);
      this.#endWaiters.set(block.seq, list);
    });
  }

  #until(ready: () => boolean, waiters: Waiter[], timeoutMs: number, what: string): Promise<void> {
    if (ready()) return Promise.resolve();
    if (this.#ended) return Promise.reject(new TuiwrightError("session-exited", "the shell has exited"));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new TuiwrightError("timeout", `timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
      waiters.push({ resolve: () => { clearTimeout(timer); resolve(); }, reject: (e) => { clearTimeout(timer); reject(e); } });
    });
  }

  #blockEnded(block: Block): void {
    // An empty block still gets its (empty) file.
    this.#files?.append(`blocks/${block.seq}.out`, "");
    this.#files?.append("blocks.jsonl", `${JSON.stringify({ ...block, outputChars: (block.endOffset ?? this.stream.end) - block.startOffset })}\n`);
    this.#event({ event: "block-end", seq: block.seq, exitCode: block.exitCode, cursor: block.endOffset });
    this.#event({ event: "mode", mode: this.tracker.mode() });
    for (const w of this.#endWaiters.get(block.seq) ?? []) w.resolve();
    this.#endWaiters.delete(block.seq);
  }

  #event(fields: Record<string, unknown>): void {
    if (fields.event === "block-begin") for (const l of [...this.#startListeners]) l.resolve();
    this.#files?.append("events.jsonl", `${JSON.stringify({ at: new Date().toISOString(), ...fields })}\n`);
  }
}
