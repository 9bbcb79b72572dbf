// Command blocks from shell-integration marks. A block opens at C (command started) and closes
// at D (finished, with the exit code). Marks may be lost or repeated: a D with no open block
// (Ctrl-C at an empty prompt, the first prompt) is ignored, so there are no phantom blocks; a
// second C while a block is open is ignored; an A (new prompt) or a B (the primary prompt is
// drawn: the shell reads a command) while a block is open closes it with an unknown exit code.
// The shell is ready for a command only from its B until the next A or C: a prompt that lost
// its B (a hook the user removed) is never taken for a ready one.
// Only the newest KEEP_BLOCKS blocks stay in memory (a shell can run millions of commands); the
// transcript on disk (blocks.jsonl, blocks/<seq>.out) has them all.
import { TuiwrightError } from "../protocol/errors.ts";
import type { ShellMark } from "./output-stream.ts";

export const KEEP_BLOCKS = 1000;

export type Block = {
  seq: number;
  command: string;
  interactive: boolean;
  startOffset: number;
  endOffset: number | null;
  exitCode: number | null;
  startedAt: string;
  endedAt: string | null;
  cwd: string | null;
  /** Why a block ended without its shell's end mark: the shell exited, the session was reset,
   * or `end` cancelled it. Null when the shell reported its end. */
  reason?: BlockEndReason | null;
};

export type BlockEndReason = "shell-exited" | "reset" | "cancelled";

export type ShellMode = "starting" | "idle" | "block_running" | "interactive" | "continuation" | "exited";

export type TrackerEvents = { started(block: Block): void; ended(block: Block): void; ready(): void; continuation?(): void };

export class BlockTracker {
  /** The newest blocks, oldest first; block `seq` is at `seq - this.#firstSeq`. */
  readonly #blocks: Block[] = [];
  #count = 0;
  /** Where the newest block dropped from memory ended: PROMPT waits from before it cannot be answered. */
  #droppedEnd: number | null = null;
  readonly #keep: number;
  #open: Block | null = null;
  #atPrompt = false;
  #seenPrompt = false;
  #expected: { command: string; interactive: boolean } | null = null;
  #typedCommand: string | null = null;
  /** The shell shows its continuation prompt (PS2): it waits for the rest of a command. */
  #continuation = false;
  /** Where the shell showed its primary prompt (its B mark), newest last, bounded, with the end
   * of the block it followed (null: none since the prompt before). */
  readonly #prompts: { offset: number; afterBlockEnd: number | null }[] = [];
  /** The newest prompt dropped from #prompts: PROMPT waits from before it cannot be answered. */
  #droppedPrompt: number | null = null;
  #lastBlockEnd: number | null = null;
  /** A reason for the open block's end, set by whoever is about to end it (end, reset). */
  #endReason: BlockEndReason | null = null;
  readonly #events: TrackerEvents;

  /** `countBase`: blocks the shell this one replaced had (a reset goes on numbering from them). */
  constructor(events: TrackerEvents, keep = KEEP_BLOCKS, countBase = 0) {
    this.#events = events;
    this.#keep = Math.max(1, keep);
    this.#count = countBase;
  }

  /** The blocks still in memory, oldest first (the newest `keep` of them). */
  get blocks(): readonly Block[] {
    return this.#blocks;
  }

  /** Every block so far, including those no longer in memory: the seq of the newest. */
  get count(): number {
    return this.#count;
  }

  /** Block `seq` if it is still in memory. */
  get(seq: number): Block | undefined {
    const first = this.#count - this.#blocks.length + 1;
    return seq >= first ? this.#blocks[seq - first] : undefined;
  }

  /** Where the first primary prompt after `cursor` was drawn, or null. A prompt counts when it
   * was drawn after the cursor, or follows a block that ended at or after it (an empty prompt
   * right after a silent command sits at the cursor itself); a cursor taken at an idle prompt
   * does not match that same prompt. A shell that died after the cursor shows none. */
  promptAfter(cursor: number): number | null {
    if (this.#droppedPrompt !== null && cursor <= this.#droppedPrompt) {
      throw new TuiwrightError("bad-data", `cursor ${cursor} is older than the prompts kept in memory (the last ${this.#keep})`, { hint: "the transcript on disk (blocks.jsonl) has all of the blocks" });
    }
    return this.#prompts.find((p) => p.offset > cursor || (p.afterBlockEnd !== null && p.afterBlockEnd >= cursor))?.offset ?? null;
  }

  /** Where the prompt was drawn after the first interactive block that ended at or after
   * `cursor` (the program is gone and the shell is back), or null. */
  interactiveEndAfter(cursor: number): number | null {
    if (this.#droppedEnd !== null && cursor <= this.#droppedEnd) {
      throw new TuiwrightError("bad-data", `cursor ${cursor} is older than the blocks kept in memory (the last ${this.#keep})`, { hint: "the transcript on disk (blocks.jsonl) has all of them" });
    }
    const end = this.#blocks.find((b) => b.interactive && b.endOffset !== null && b.endOffset >= cursor)?.endOffset ?? null;
    if (end === null) return null;
    return this.#prompts.find((p) => p.afterBlockEnd !== null && p.afterBlockEnd >= end)?.offset ?? null;
  }

  /** At the continuation prompt (PS2), with no block open. */
  get continuation(): boolean {
    return this.#continuation && this.#open === null;
  }

  /** Say why the open block is about to end (the next close carries it). */
  endingBecause(reason: BlockEndReason): void {
    if (this.#open) this.#endReason = reason;
  }

  /** The shell is gone: the open block ends here, with the shell's exit code. */
  closeOpen(offset: number, exitCode: number | null, reason: BlockEndReason): void {
    if (!this.#open) return;
    // Reset or cancelled: the shell's exit code says nothing about the command.
    const code = this.#endReason ? null : exitCode;
    this.#endReason ??= reason;
    this.#close(offset, code, null, new Date().toISOString());
  }

  /** A command that runs nothing (blank, or only comments): a block that ends where it starts. */
  empty(command: string, offset: number, cwd: string | null): Block {
    const now = new Date().toISOString();
    const block: Block = { seq: ++this.#count, command, interactive: false, startOffset: offset, endOffset: offset, exitCode: 0, startedAt: now, endedAt: now, cwd };
    this.#blocks.push(block);
    while (this.#blocks.length > this.#keep) this.#droppedEnd = this.#blocks.shift()!.endOffset;
    this.#events.started(block);
    this.#events.ended(block);
    return block;
  }

  get open(): Block | null {
    return this.#open;
  }

  /** At a prompt, waiting for input (B seen since the last block ended). */
  get atPrompt(): boolean {
    return this.#atPrompt && this.#open === null;
  }

  /** idle only at a drawn prompt: between a block's end and its prompt (or when a prompt never
   * comes) the shell is `starting` its next prompt, and an exec would wait. */
  mode(): ShellMode {
    if (this.#open) return this.#open.interactive ? "interactive" : "block_running";
    if (this.#continuation) return "continuation";
    return this.#atPrompt ? "idle" : "starting";
  }

  /** The shell has drawn a primary prompt at least once. */
  get seenPrompt(): boolean {
    return this.#seenPrompt;
  }

  /** The next block is this command (typed by exec), interactive or not. */
  expect(command: string | null, interactive = false): void {
    this.#expected = command === null ? null : { command, interactive };
  }

  onMark(mark: ShellMark, cwd: string | null): void {
    const now = new Date().toISOString();
    switch (mark.kind) {
      case "A":
        if (this.#open) this.#close(mark.offset, null, cwd, now);
        this.#atPrompt = false;
        this.#continuation = false;
        this.#expected = null; // a new prompt: what exec typed before it has run or gone
        this.#typedCommand = null; // a command line from before this prompt is not the next one's
        break;
      case "B":
        if (this.#continuation) break; // a continuation prompt is not the shell reading a command
        // The primary prompt while a block is open: the command is over though no D said so
        // (the user removed the hook that sends it).
        if (this.#open) this.#close(mark.offset, null, cwd, now);
        if (this.#atPrompt) break; // the same prompt drawn again
        this.#atPrompt = true;
        this.#seenPrompt = true;
        this.#prompts.push({ offset: mark.offset, afterBlockEnd: this.#lastBlockEnd });
        this.#lastBlockEnd = null;
        if (this.#prompts.length > this.#keep) this.#droppedPrompt = this.#prompts.shift()!.offset;
        this.#events.ready();
        break;
      case "S":
        if (!this.#open) {
          this.#continuation = true;
          this.#atPrompt = false;
          this.#events.continuation?.();
        }
        break;
      case "E":
        // zsh reports the command line before it starts; bash at the next prompt, while the
        // block is still open.
        if (this.#open) { if (this.#open.command === "") this.#open.command = mark.command; }
        else this.#typedCommand = mark.command;
        break;
      case "C": {
        if (this.#open) break;
        const expected = this.#expected;
        this.#expected = null;
        const block: Block = {
          seq: this.#count + 1,
          command: expected?.command ?? this.#typedCommand ?? "",
          interactive: expected?.interactive ?? false,
          startOffset: mark.offset,
          endOffset: null,
          exitCode: null,
          startedAt: now,
          endedAt: null,
          cwd: null,
        };
        this.#typedCommand = null;
        this.#atPrompt = false;
        this.#continuation = false;
        this.#open = block;
        this.#count++;
        this.#blocks.push(block);
        // The open block is the newest, so only ended blocks are dropped.
        while (this.#blocks.length > this.#keep) this.#droppedEnd = this.#blocks.shift()!.endOffset;
        this.#events.started(block);
        break;
      }
      case "D":
        if (this.#open) this.#close(mark.offset, mark.exit, cwd, now);
        break;
    }
  }

  #close(offset: number, exitCode: number | null, cwd: string | null, now: string): void {
    const block = this.#open!;
    this.#open = null;
    block.endOffset = offset;
    block.exitCode = exitCode;
    block.endedAt = now;
    block.cwd = cwd;
    if (this.#endReason) block.reason = this.#endReason;
    // A prompt after a block the shell did not end itself (it exited, or the session was
    // reset) is not that block's prompt.
    this.#lastBlockEnd = this.#endReason === "shell-exited" || this.#endReason === "reset" ? null : offset;
    this.#endReason = null;
    this.#events.ended(block);
  }
}
