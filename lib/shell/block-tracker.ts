// Command blocks from shell-integration marks. A block opens at C (command started) and closes
// at D (finished, with the exit code). Marks may be lost or repeated: a D with no open block
// (Ctrl-C at an empty prompt, the first prompt) is ignored, so there are no phantom blocks; a
// second C while a block is open is ignored; an A (new prompt) while a block is open closes it
// with an unknown exit code.
import type { ShellMark } from "./output-stream.ts";

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
  readonly blocks: Block[] = [];
  #open: Block | null = null;
  #atPrompt = false;
  #seenPrompt = false;
  #expected: { command: string; interactive: boolean } | null = null;
  #typedCommand: string | null = null;
  readonly #events: TrackerEvents;

  constructor(events: TrackerEvents) {
    this.#events = events;
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
          seq: this.blocks.length + 1,
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
        this.blocks.push(block);
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
