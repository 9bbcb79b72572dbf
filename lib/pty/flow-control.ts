// Bounded parse backlog. Output the terminal has received but not yet parsed is counted; past
// the high-water mark we send XOFF so the kernel blocks the writer (only when the program's
// termios has IXON — in raw mode 0x13 would be a keystroke), and XON below the low-water mark.
// We never SIGSTOP: bash would report the job as Stopped. Without IXON we buffer up to a hard
// cap (below xterm's own 50 MB discard mark) and then drop, counting what was dropped.

export type FlowControlOptions = { highWater: number; lowWater: number; hardCap: number };

export const DEFAULT_FLOW: FlowControlOptions = { highWater: 1 << 20, lowWater: 256 << 10, hardCap: 32 << 20 };

const XOFF = "\x13";
const XON = "\x11";

export class FlowControl {
  #backlog = 0;
  #paused = false;
  #dropped = 0;
  #pauses = 0;
  readonly #options: FlowControlOptions;
  readonly #pty: { write(data: string): void; readonly ixon: boolean };

  constructor(pty: { write(data: string): void; readonly ixon: boolean }, options: FlowControlOptions = DEFAULT_FLOW) {
    this.#pty = pty;
    this.#options = options;
  }

  /** Call when bytes arrive. Returns false when they must be dropped (hard cap, no IXON). */
  received(bytes: number): boolean {
    if (this.#backlog + bytes > this.#options.hardCap) {
      this.#dropped += bytes;
      return false;
    }
    this.#backlog += bytes;
    if (!this.#paused && this.#backlog > this.#options.highWater && this.#pty.ixon) {
      this.#pty.write(XOFF);
      this.#paused = true;
      this.#pauses++;
    }
    return true;
  }

  /** Call when bytes have been parsed. */
  parsed(bytes: number): void {
    this.#backlog -= bytes;
    if (this.#paused && this.#backlog < this.#options.lowWater) {
      this.#paused = false;
      // If the program turned IXON off meanwhile, the kernel already restarted output and
      // 0x11 would reach it as input.
      if (this.#pty.ixon) this.#pty.write(XON);
    }
  }

  get backlog(): number { return this.#backlog; }
  get dropped(): number { return this.#dropped; }
  get paused(): boolean { return this.#paused; }
  get pauses(): number { return this.#pauses; }
}
