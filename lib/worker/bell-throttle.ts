// A program can ring the bell a hundred thousand times a second (`while :; do printf '\a';
// done`); one message to the daemon per BEL outran the daemon and grew it by ~70 MB/s.
// Bells are a signal, not data: the first in a window goes out at once, the rest fold into
// one at the window's end (with the screen state of that moment).
export const BELL_WINDOW_MS = 50;

export class BellThrottle {
  readonly #send: () => void;
  #last = -Infinity;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(send: () => void) {
    this.#send = send;
  }

  ring(): void {
    if (this.#timer !== null) return;
    const now = performance.now();
    if (now - this.#last >= BELL_WINDOW_MS) {
      this.#last = now;
      this.#send();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#last = performance.now();
      this.#send();
    }, this.#last + BELL_WINDOW_MS - now);
  }

  dispose(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
