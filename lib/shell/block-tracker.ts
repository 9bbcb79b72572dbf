// Command blocks from shell-integration marks. A block opens at C (command started) and closes
// at D (finished, with the exit code). Marks may be lost or repeated: a D with no open block
// (Ctrl-C at an empty prompt, the first prompt) is ignored, so there are no phantom blocks; a
// second C while a block is open is ignored; an A (new prompt) while a block is open closes it
// with an unknown exit code.
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
};

export type ShellMode = "starting" | "idle" | "block_running" | "interactive";

export type TrackerEvents = { started(block: Block): void; ended(block: Block): void; ready(): void };

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
  readonly #events: TrackerEvents;

  constructor(events: TrackerEvents, keep = KEEP_BLOCKS) {
    this.#events = events;
    this.#keep = Math.max(1, keep);
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

  /** The end of the first block that ended at or after `cursor` (its prompt), or null. */
  promptAfter(cursor: number): number | null {
    if (this.#droppedEnd !== null && cursor <= this.#droppedEnd) {
      throw new TuiwrightError("bad-data", `cursor ${cursor} is older than the blocks kept in memory (the last ${this.#keep})`, { hint: "the transcript on disk (blocks.jsonl) has all of them" });
    }
    return this.#blocks.find((b) => b.endOffset !== null && b.endOffset >= cursor)?.endOffset ?? null;
  }

  get open(): Block | null {
    return this.#open;
  }

  /** At a prompt, waiting for input (B seen since the last block ended). */
  get atPrompt(): boolean {
    return this.#atPrompt && this.#open === null;
  }

  mode(): ShellMode {
    if (this.#open) return this.#open.interactive ? "interactive" : "block_running";
    return this.#seenPrompt ? "idle" : "starting";
  }

  /** The next block is this command (typed by exec), interactive or not. */
  expect(command: string, interactive: boolean): void {
    this.#expected = { command, interactive };
  }

  onMark(mark: ShellMark, cwd: string | null): void {
    const now = new Date().toISOString();
    switch (mark.kind) {
      case "A":
        if (this.#open) this.#close(mark.offset, null, cwd, now);
        this.#atPrompt = false;
        this.#typedCommand = null; // a command line from before this prompt is not the next one's
        break;
      case "B":
        this.#atPrompt = true;
        this.#seenPrompt = true;
        if (!this.#open) this.#events.ready();
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
    this.#events.ended(block);
  }
}
