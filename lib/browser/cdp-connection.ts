// The Chrome DevTools Protocol over a private byte channel (Chromium's --remote-debugging-pipe:
// one JSON message per NUL-terminated frame): calls by id, with a deadline each, and events by
// method name. Targets are reached in flat mode (a call or an event carries its sessionId).
// Everything that arrives is data from the browser: parsed, size-bounded, never evaluated.

/** The channel's shape (lib/pty/fd-channel.ts gives it). */
export type CdpTransport = {
  write(bytes: Uint8Array): void;
  read(onData: (bytes: Uint8Array) => void, onClose: (reason: string) => void): void;
};

/** Why a call failed: the engine said no (protocol), it went away (closed), or it did not answer. */
export class CdpError extends Error {
  constructor(readonly kind: "protocol" | "closed" | "timeout" | "dialog" | "crashed", readonly method: string, message: string, readonly code?: number) {
    super(message);
  }
}

export type CdpEvent = { method: string; params: Record<string, any>; sessionId?: string };
type Pending = { method: string; resolve(result: any): void; reject(error: CdpError): void; timer: ReturnType<typeof setTimeout> };

/** A call's default deadline: the engine answers in milliseconds, but under heavy load (a soak beside
 * two `yes` loads on 2 cores) answers were seen to take 15 s. Past this the browser is asked
 * directly whether it is wedged (lib/worker/browser-facet.ts). */
const CALL_TIMEOUT_MS = 30_000;
/** The largest message taken (a big page's accessibility tree or DOM snapshot is a few MB). */
const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

export class CdpConnection {
  readonly #transport: CdpTransport;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<(event: CdpEvent) => void>();
  readonly #closeListeners = new Set<(reason: string) => void>();
  #nextId = 1;
  #parts: Uint8Array[] = [];
  #partBytes = 0;
  #closed: string | null = null;

  constructor(transport: CdpTransport) {
    this.#transport = transport;
    transport.read((bytes) => this.#receive(bytes), (reason) => this.#close(reason));
  }

  /** Why the connection ended (the browser exited, or sent something unreadable), or null. */
  get closed(): string | null {
    return this.#closed;
  }

  call<T = any>(method: string, params: Record<string, unknown> = {}, options: { sessionId?: string; timeoutMs?: number } = {}): Promise<T> {
    if (this.#closed !== null) return Promise.reject(new CdpError("closed", method, `the browser engine is gone (${this.#closed})`));
    const id = this.#nextId++;
    const message = { id, method, params, ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }) };
    return new Promise<T>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new CdpError("timeout", method, `the browser engine did not answer ${method} in ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { method, resolve, reject, timer });
      this.#transport.write(this.#encoder.encode(`${JSON.stringify(message)}\0`));
    });
  }

  /** Every event, in arrival order; returns the unsubscribe. */
  onEvent(listener: (event: CdpEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onClose(listener: (reason: string) => void): void {
    if (this.#closed !== null) listener(this.#closed);
    else this.#closeListeners.add(listener);
  }

  #receive(bytes: Uint8Array): void {
    let start = 0;
    for (let end = bytes.indexOf(0); end !== -1 && this.#closed === null; end = bytes.indexOf(0, start)) {
      const frame = this.#take(bytes.subarray(start, end));
      start = end + 1;
      this.#dispatch(frame);
    }
    if (start < bytes.length && this.#closed === null) {
      this.#partBytes += bytes.length - start;
      if (this.#partBytes > MAX_MESSAGE_BYTES) return this.#close(`the engine sent a message over ${MAX_MESSAGE_BYTES} bytes`);
      this.#parts.push(bytes.slice(start));
    }
  }

  /** The frame ending with `tail`: the parts kept so far and the tail. */
  #take(tail: Uint8Array): string {
    if (this.#parts.length === 0) return this.#decoder.decode(tail);
    const whole = new Uint8Array(this.#partBytes + tail.length);
    let at = 0;
    for (const part of this.#parts) { whole.set(part, at); at += part.length; }
    whole.set(tail, at);
    this.#parts = [];
    this.#partBytes = 0;
    return this.#decoder.decode(whole);
  }

  #dispatch(frame: string): void {
    let message: { id?: unknown; method?: unknown; params?: unknown; sessionId?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
    try {
      message = JSON.parse(frame);
    } catch {
      return this.#close("the engine sent a message that is not JSON");
    }
    if (typeof message !== "object" || message === null) return;
    if (typeof message.id === "number") {
      const pending = this.#pending.get(message.id);
      if (!pending) return; // answered after its deadline
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) {
        const code = typeof message.error.code === "number" ? message.error.code : undefined;
        pending.reject(new CdpError("protocol", pending.method, `${pending.method}: ${String(message.error.message ?? "error")}`, code));
      } else {
        pending.resolve(message.result ?? {});
      }
      return;
    }
    if (typeof message.method !== "string") return;
    const event: CdpEvent = {
      method: message.method,
      params: typeof message.params === "object" && message.params !== null ? message.params as Record<string, any> : {},
      ...(typeof message.sessionId === "string" ? { sessionId: message.sessionId } : {}),
    };
    for (const listener of [...this.#listeners]) listener(event);
  }

  #close(reason: string): void {
    if (this.#closed !== null) return;
    this.#closed = reason;
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new CdpError("closed", pending.method, `the browser engine went away during ${pending.method} (${reason})`));
      this.#pending.delete(id);
    }
    for (const listener of [...this.#closeListeners]) listener(reason);
    this.#closeListeners.clear();
  }
}
