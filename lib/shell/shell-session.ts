// A shell driven command by command: the output stream with its marks, the blocks they delimit,
// `exec` (type a command at the prompt, return when its block ends), interactive programs fed
// with `send`, and the transcript on disk (events.jsonl, blocks.jsonl, blocks/<seq>.out).
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { dirname } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";
import { BlockTracker, type Block, type BlockEndReason, type ShellMode } from "./block-tracker.ts";
import { oneLine, ParserSpares, runsNothing, syntaxProblem } from "./command-check.ts";
import { OutputSpool, type SpoolPiece } from "./output-spool.ts";
import { OutputStream } from "./output-stream.ts";
import { TranscriptFiles } from "./transcript-files.ts";
import type { ShellKind } from "./shell-rc.ts";

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
  reason?: BlockEndReason;
};

type Waiter = { resolve(): void; reject(error: TuiwrightError): void };

/** Where a reset shell goes on from the one it replaces: the output cursor, the block count
 * (block numbers never restart either) and the earlier shells' stream files, oldest first. */
export type ShellContinuation = { cursor: number; blocks: number; spools: SpoolPiece[] };

export class ShellSession {
  readonly stream: OutputStream;
  readonly tracker: BlockTracker;
  /** `secret`: the cast records *** for it. */
  readonly #type: (text: string, secret?: boolean) => void;
  /** Discards unread input (a reply nobody asked for, input a program left) before we type. */
  readonly #flushInput: () => Promise<unknown>;
  /** Whether the command line is empty as the screen shows it (null: cannot tell), waiting up
   * to a moment for it to become so. */
  readonly #commandLineEmpty: () => Promise<boolean | null>;
  readonly #dir: string | null;
  readonly #files: TranscriptFiles | null;
  /** The whole output stream on disk (with the earlier shells' after a reset). */
  readonly #spool: OutputSpool | null;
  /** Blocks numbered before this shell started (by the shells it replaced). */
  readonly #countBase: number;
  readonly #changed: () => void;
  #cwd: string | null = null;
  #readyWaiters: Waiter[] = [];
  #endWaiters = new Map<number, Waiter[]>();
  #queue: Promise<unknown> = Promise.resolve();
  #ended = false;
  /** Execs accepted and not yet started, oldest first: the mode is theirs from the moment
   * they are accepted, so a call right after an interactive exec sees `interactive`. */
  readonly #pending: { command: string; interactive: boolean }[] = [];
  readonly #kind: ShellKind;
  /** The shell's parser started ahead of the next command that needs it. */
  readonly #parsers = new ParserSpares();
  /** The session's secret mask, for command labels (exec of a line holding a secret). */
  readonly #redact: (text: string) => string;

  /** fish moves to a new line after its preexec event: that newline belongs to the prompt. */
  readonly #newlineAfterStart: boolean;
  /** fish has no ( … ) subshells, so exec --cwd cannot leave the shell's directory alone. */
  readonly #subshells: boolean;

  /** `keepBlocks`: how many blocks stay in memory (default KEEP_BLOCKS; fewer in tests). */
  /** `continues`: the shell this one replaces (reset): cursors and block numbers go on from it. */
  /** `retain`: bytes of output kept in memory (default 8 MiB; less in tests). */
  constructor(options: { nonce: string; transcriptDir: string | null; kind?: ShellKind; fish?: boolean; keepBlocks?: number; continues?: ShellContinuation; retain?: number; type(text: string, secret?: boolean): void; flushInput?(): Promise<unknown>; commandLineEmpty?(): Promise<boolean | null>; redact?(text: string): string; changed(): void }) {
    this.#redact = options.redact ?? ((text) => text);
    this.#kind = options.kind ?? (options.fish ? "fish" : "bash");
    this.#newlineAfterStart = options.fish ?? false;
    this.#subshells = !(options.fish ?? false);
    this.#type = options.type;
    this.#flushInput = options.flushInput ?? (async () => undefined);
    this.#commandLineEmpty = options.commandLineEmpty ?? (async () => null);
    this.#dir = options.transcriptDir;
    this.#changed = options.changed;
    this.#files = this.#dir ? new TranscriptFiles(this.#dir) : null;
    const continues = options.continues;
    this.#countBase = continues?.blocks ?? 0;
    this.#spool = this.#dir ? new OutputSpool(`${this.#dir}/stream.txt`, continues?.cursor ?? 0, continues?.spools ?? []) : null;
    this.tracker = new BlockTracker({
      ready: () => { for (const w of this.#readyWaiters.splice(0)) w.resolve(); },
      started: (block) => {
        this.#event({ event: "block-begin", seq: block.seq, command: block.command, interactive: block.interactive, cursor: block.startOffset });
        this.#event({ event: "mode", mode: this.mode() });
      },
      ended: (block) => this.#blockEnded(block),
      continuation: () => {
        const error = new TuiwrightError("bad-data", "the shell is waiting for the rest of the command (its continuation prompt is showing)", {
          hint: "send --ctrl-c to cancel the half-typed command",
        });
        for (const l of [...this.#startListeners]) l.reject(error);
      },
    }, options.keepBlocks, continues?.blocks ?? 0);
    this.stream = new OutputStream(options.nonce, (mark) => {
      this.tracker.onMark(mark, this.#cwd);
      this.#changed();
    }, { base: continues?.cursor ?? 0, ...(options.retain === undefined ? {} : { retain: options.retain }) });
    this.stream.onCwd = (cwd) => { this.#cwd = cwd; };
    // An open block's output goes to its .out file as it arrives: all of it, however long.
    this.stream.onText = (text) => {
      this.#spool?.append(text);
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

  /** The oldest cursor an output wait can read from: the spool's start, or memory's. */
  get earliest(): number {
    return this.#spool?.start ?? this.stream.start;
  }

  /** The stream between two cursors: from memory, and what memory no longer holds from the spool. */
  slice(from: number, to = this.stream.end): string {
    const memory = this.stream.start;
    if (from >= memory || !this.#spool) return this.stream.slice(from, to);
    const disk = this.#spool.read(from, Math.min(to, memory));
    return to <= memory ? disk : disk + this.stream.slice(memory, to);
  }

  /** The session is going away: the spool's file is closed (the transcript stays on disk). */
  dispose(): void {
    this.#spool?.close();
    this.#files?.close();
    this.#parsers.dispose();
  }

  /** What a reset shell needs to go on from this one. */
  continuation(): ShellContinuation {
    return {
      cursor: this.stream.end,
      blocks: this.tracker.count,
      spools: (this.#spool?.pieces ?? []).map((piece) => ({ ...piece, end: piece.end ?? this.stream.end, blocks: piece.blocks ?? this.#countBase })),
    };
  }

  push(text: string): void {
    this.stream.push(text);
    this.#changed();
  }

  /** The open block is about to end for this reason (end, reset). */
  endingBecause(reason: BlockEndReason): void {
    this.tracker.endingBecause(reason);
  }

  /** The shell's program has exited: nothing will end blocks or prompts any more. The open
   * block ends here with the shell's exit code (`exit 3` is its own last command). */
  ended(exitCode: number | null = null): void {
    this.#ended = true;
    this.#spool?.close();
    this.#parsers.dispose();
    this.tracker.closeOpen(this.stream.end, exitCode, "shell-exited");
    const error = new TuiwrightError("session-exited", "the shell exited");
    for (const l of [...this.#startListeners]) l.reject(error);
    for (const w of this.#readyWaiters.splice(0)) w.reject(error);
    for (const list of this.#endWaiters.values()) for (const w of list) w.reject(error);
    this.#endWaiters.clear();
  }

  mode(): ShellMode {
    if (this.#ended) return "exited";
    const tracked = this.tracker.mode();
    if (tracked === "block_running" || tracked === "interactive") return tracked;
    const next = this.#pending[0];
    if (next) return next.interactive ? "interactive" : "block_running";
    return tracked;
  }

  /** The block (or the accepted exec not started yet) that makes the session busy. */
  #busyWith(): string {
    const open = this.tracker.open;
    if (open) return `block ${open.seq}: ${JSON.stringify(open.command)}`;
    return `starting: ${JSON.stringify(this.#pending[0]?.command ?? "")}`;
  }

  /** The first `max` characters of a block: from memory, or from its .out file when the
   * start has left the in-memory window. */
  #head(block: Block, end: number, max: number): string {
    // Offsets are bytes and `max` characters: a character is at most 4 bytes.
    const dir = this.#dirOf(block.seq);
    if (block.startOffset >= this.stream.start || !dir) return this.stream.slice(block.startOffset, Math.min(end, block.startOffset + max * 4)).slice(0, max);
    const fd = openSync(`${dir}/blocks/${block.seq}.out`, "r");
    try {
      const buffer = Buffer.alloc(Math.min(max * 4, 64 << 20));
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      return buffer.subarray(0, read).toString("utf8").slice(0, max);
    } finally {
      closeSync(fd);
    }
  }

  /** The transcript directory that holds block `seq`: this shell's, or (after a reset) the one
   * of the earlier shell that ran it. */
  #dirOf(seq: number): string | null {
    if (seq > this.#countBase) return this.#dir;
    const earlier = this.#spool?.pieces.slice(0, -1) ?? [];
    const piece = earlier.findLast((p) => p.blocks !== undefined && seq > p.blocks);
    return piece ? dirname(piece.path) : null;
  }

  /** Block `seq`: from memory, or from blocks.jsonl once it has left memory (ended blocks only). */
  block(seq: number): Block | undefined {
    const kept = this.tracker.get(seq);
    const dir = this.#dirOf(seq);
    if (kept || seq > this.tracker.count || !dir) return kept;
    let text: string;
    try {
      text = readFileSync(`${dir}/blocks.jsonl`, "utf8");
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
    const output = this.#head(block, end, maxOutput);
    return {
      block: block.seq,
      seq: block.seq,
      command: block.command,
      exitCode: block.exitCode,
      output,
      outputTruncated: Buffer.byteLength(output) < length,
      outputChars: length,
      startedAt: block.startedAt,
      endedAt: block.endedAt,
      cwd: block.cwd,
      cursor: end,
      ...(block.reason ? { reason: block.reason } : {}),
    };
  }

  async exec(options: ExecOptions): Promise<BlockResult | { cursor: number; mode: ShellMode; block: number; startedAt: string }> {
    // Decided now, in call order: a call after this one sees the mode this exec set.
    const mode = this.mode();
    if (mode === "exited") throw new TuiwrightError("session-exited", "the shell has exited");
    if (mode === "interactive") {
      throw new TuiwrightError("busy", `the session is interactive (${this.#busyWith()})`, {
        hint: "use `send` to talk to it, `end` to stop it, or `reset`",
      });
    }
    if (mode === "continuation") {
      throw new TuiwrightError("busy", "the shell is at its continuation prompt, waiting for the rest of a command", {
        hint: "send --ctrl-c cancels the half-typed command",
      });
    }
    if (mode === "block_running" && !options.queue) {
      throw new TuiwrightError("busy", `a block is running (${this.#busyWith()})`, {
        hint: "wait for it (`wait --output PROMPT`), or pass --queue",
      });
    }
    const claim = { command: options.command, interactive: options.interactive };
    this.#pending.push(claim);
    // One exec at a time types at the prompt; queued ones wait their turn.
    const turn = this.#queue.then(() => this.#execNow(options, claim));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  #release(claim: { command: string; interactive: boolean }): void {
    const at = this.#pending.indexOf(claim);
    if (at >= 0) this.#pending.splice(at, 1);
  }

  async #execNow(options: ExecOptions, claim: { command: string; interactive: boolean }): Promise<BlockResult | { cursor: number; mode: ShellMode; block: number; startedAt: string }> {
    try {
      if (this.tracker.open?.interactive) {
        throw new TuiwrightError("busy", `the session is interactive (${this.#busyWith()})`, { hint: "use `send` to talk to it, `end` to stop it, or `reset`" });
      }
      const deadline = performance.now() + options.timeoutMs;
      if (options.cwd !== undefined && !this.#subshells) {
        throw new TuiwrightError("usage", "exec --cwd is not available in fish sessions (fish has no subshells to run it in)", { hint: "exec `cd DIR` first, or use bash/zsh" });
      }
      const nothing = runsNothing(options.command);
      let typed = options.command;
      if (!nothing) {
        const problem = await syntaxProblem(this.#kind, options.command, this.#parsers);
        if (problem !== null) {
          throw new TuiwrightError("bad-data", `${this.#kind} cannot run this command, nothing was typed: ${problem}`, { hint: "complete or fix the command (quotes, `fi`, `done`, a trailing backslash)" });
        }
        const line = oneLine(this.#kind, options.command);
        if (line === null) throw new TuiwrightError("bad-data", "a command for exec in fish must be one line (join commands with ; or and/or)");
        typed = line;
      }
      await this.#until(() => this.tracker.atPrompt, this.#readyWaiters, options.timeoutMs,
        "the shell to show its prompt; nothing was typed (a prompt the shell draws without its integration mark does not count: if a command removed the shell's prompt hooks, `reset` starts a fresh shell)");
      if (nothing) return this.result(this.tracker.empty(options.command, this.stream.end, this.#cwd), options.maxOutput);
      // Nothing unread may prefix the command: what waits in the input queue is dropped first.
      await this.#flushInput();
      if (!this.tracker.atPrompt) {
        await this.#until(() => this.tracker.atPrompt, this.#readyWaiters, Math.max(1, deadline - performance.now()), "the shell to show its prompt; nothing was typed");
      }
      // Our command must be the whole line: text already on it (typed, pasted, or left by a
      // Ctrl-C the shell has not handled yet) would run with it when we press Enter.
      if ((await this.#commandLineEmpty()) === false) {
        throw new TuiwrightError("busy", "the command line already holds text the shell has not run (typed or pasted); nothing was typed", {
          hint: "press C-c (send --ctrl-c) to drop it, or press Enter to run it, then exec again",
          details: { evidence: "the cursor is not where the prompt ended (OSC 133;B)" },
        });
      }
      this.tracker.expect(this.#redact(options.command), options.interactive);
      // --cwd runs it in a subshell there, so the shell's own directory does not move.
      const line = options.cwd === undefined ? typed : `(cd -- ${shellQuote(options.cwd)} && ${typed})`;
      this.#type(`${line}\r`);
      const started = await this.#nextBlock(Math.max(0, deadline - performance.now()));
      this.#release(claim);
      // The block starts after the command's echo: waits from here see only the program.
      if (options.interactive) return { cursor: started.startOffset, mode: "interactive", block: started.seq, startedAt: started.startedAt };
      await this.#blockEnd(started, Math.max(0, deadline - performance.now()));
      // Answer once the prompt is back too, so a call after this one (status, a cursor taken
      // for a PROMPT wait) sees the shell ready rather than between the block's end and its prompt.
      await this.#until(() => this.tracker.atPrompt || this.#ended, this.#readyWaiters, Math.max(1, deadline - performance.now()), "the prompt").catch(() => undefined);
      if (options.cwd !== undefined) started.cwd = options.cwd;
      return this.result(started, options.maxOutput);
    } finally {
      this.#release(claim);
      this.#parsers.refillSoon();
    }
  }

  send(data: string, secret = false): number {
    if (this.#ended) throw new TuiwrightError("session-exited", "the shell has exited");
    const cursor = this.stream.end;
    this.#type(data, secret);
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
      const listener = { resolve: check, reject: (e: TuiwrightError) => { cleanup(); this.tracker.expect(null); reject(e); } };
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
    this.#files?.release(`blocks/${block.seq}.out`);
    this.#files?.append("blocks.jsonl", `${JSON.stringify({ ...block, outputChars: (block.endOffset ?? this.stream.end) - block.startOffset })}\n`);
    this.#event({ event: "block-end", seq: block.seq, exitCode: block.exitCode, cursor: block.endOffset, ...(block.reason ? { reason: block.reason } : {}) });
    this.#event({ event: "mode", mode: this.mode() });
    for (const w of this.#endWaiters.get(block.seq) ?? []) w.resolve();
    this.#endWaiters.delete(block.seq);
  }

  #event(fields: Record<string, unknown>): void {
    if (fields.event === "block-begin") for (const l of [...this.#startListeners]) l.resolve();
    this.#files?.append("events.jsonl", `${JSON.stringify({ at: new Date().toISOString(), ...fields })}\n`);
  }
}
