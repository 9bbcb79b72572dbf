// The output stream of §5.5: many readers, signals without payload. dom_mutation signals are
// coalesced per desktop (one per turn of the event loop however many apps changed).
export type SignalReason = "dom_mutation" | "app_opened" | "app_closed";

export type UpdateSignal = { desktopId: string; timestamp: number; reason: SignalReason };

export type SignalListener = (signal: UpdateSignal) => void;

export class SignalOutputStream {
  readonly #listeners = new Set<SignalListener>();
  readonly #desktopId: string;
  #mutationPending = false;

  constructor(desktopId: string) {
    this.#desktopId = desktopId;
  }

  subscribe(listener: SignalListener): void {
    this.#listeners.add(listener);
  }

  unsubscribe(listener: Function): void {
    this.#listeners.delete(listener as SignalListener);
  }

  /** @internal */
  emit(reason: SignalReason): void {
    if (reason !== "dom_mutation") return this.#deliver(reason);
    if (this.#mutationPending) return;
    this.#mutationPending = true;
    setImmediate(() => {
      this.#mutationPending = false;
      this.#deliver("dom_mutation");
    });
  }

  #deliver(reason: SignalReason): void {
    const signal: UpdateSignal = { desktopId: this.#desktopId, timestamp: Date.now(), reason };
    for (const listener of [...this.#listeners]) {
      try {
        listener(signal);
      } catch (error) {
        console.error("aotui: a signal listener threw:", error);
      }
    }
  }

  /** @internal */
  clear(): void {
    this.#listeners.clear();
  }
}
