// A JSON-RPC client over the daemon's socket: many calls in flight, matched by id.
import { TuiwrightError } from "../protocol/errors.ts";
import type { JsonRpcNotification, JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { connectUnix, type Connection } from "../runtime/unix-socket.ts";
import { LineReader } from "./ndjson.ts";
import { combineTypeResults, requestFrame, requestsFor, settleReply, type Pending } from "./rpc-calls.ts";

export class RpcClient {
  readonly #connection: Connection;
  readonly #pending: Map<number, Pending>;
  /** Set once the connection has closed: a later call fails with it (a write would go nowhere
   * and the call would wait forever). */
  readonly #hungUp: { error: TuiwrightError | null };
  readonly #clientVersion: string | undefined;
  /** Resolves when the connection closes (the daemon closes it as it exits). */
  readonly closed: Promise<void>;
  #nextId = 1;
  readonly #answerTimeoutMs: number | undefined;
  readonly #path: string;
  #watchdog: ReturnType<typeof setInterval> | null = null;
  #pingInFlight: number | null = null;
  onNotification: ((message: JsonRpcNotification) => void) | null = null;

  private constructor(connection: Connection, pending: Map<number, Pending>, hungUp: { error: TuiwrightError | null }, closed: Promise<void>, clientVersion: string | undefined, path: string, answerTimeoutMs: number | undefined) {
    this.#hungUp = hungUp;
    this.#path = path;
    this.#answerTimeoutMs = answerTimeoutMs;
    this.#clientVersion = clientVersion;
    this.#connection = connection;
    this.#pending = pending;
    this.closed = closed;
  }

  /** With clientVersion, every request carries it and a daemon of another build refuses it.
   * With answerTimeoutMs, a daemon that does not accept the connection, or does not answer
   * a ping while calls are in flight, within that time fails them (a stopped or wedged
   * daemon must not hang a cron job); the calls themselves may take as long as they need. */
  static async connect(path: string, options: { clientVersion?: string; answerTimeoutMs?: number } = {}): Promise<RpcClient> {
    const pending = new Map<number, Pending>();
    const hungUp: { error: TuiwrightError | null } = { error: null };
    const reader = new LineReader(Number.MAX_SAFE_INTEGER); // the daemon is trusted to frame its answers
    let client: RpcClient | undefined;
    let markClosed!: () => void;
    const closed = new Promise<void>((resolve) => { markClosed = resolve; });
    const connecting = connectUnix(path, {
      data(bytes) {
        reader.push(bytes, { line: (text) => { if (client) client.#receive(text); }, oversized: () => {} });
      },
      close() {
        const error = new TuiwrightError("daemon-unavailable", "the daemon closed the connection", {
          hint: "run the command again; `tuiwright daemon status` shows whether the daemon is up",
        });
        hungUp.error = error;
        for (const call of pending.values()) call.reject(error);
        pending.clear();
        if (client) client.#stopWatchdog();
        markClosed();
      },
    });
    const connection = options.answerTimeoutMs === undefined ? await connecting : await withTimeout(connecting, options.answerTimeoutMs, () => unanswered(path, options.answerTimeoutMs!, "accept the connection"));
    client = new RpcClient(connection, pending, hungUp, closed, options.clientVersion, path, options.answerTimeoutMs);
    return client;
  }

  /** `type` with long text goes out as several requests (see typing-chunks.ts). */
  async call(method: string, params: unknown = {}): Promise<unknown> {
    const results: unknown[] = [];
    for (const request of requestsFor(method, params)) results.push(await this.#callOne(method, request));
    return combineTypeResults(results);
  }

  #callOne(method: string, params: unknown): Promise<unknown> {
    const id = this.#nextId++;
    const envelope = this.#clientVersion ? { jsonrpc: "2.0", id, method, params, clientVersion: this.#clientVersion } : { jsonrpc: "2.0", id, method, params };
    let frame: string;
    try {
      frame = requestFrame(method, envelope);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#hungUp.error) return Promise.reject(this.#hungUp.error);
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#connection.send(frame);
      this.#armWatchdog();
    });
  }

  /** While calls are in flight: a ping every interval; one left unanswered a whole interval
   * means the daemon is not running its loop (stopped, wedged). */
  #armWatchdog(): void {
    const ms = this.#answerTimeoutMs;
    if (ms === undefined || this.#watchdog !== null) return;
    this.#watchdog = setInterval(() => {
      if (this.#pending.size === 0) { this.#stopWatchdog(); return; }
      if (this.#pingInFlight !== null) {
        const error = unanswered(this.#path, ms, "answer a ping");
        for (const call of this.#pending.values()) call.reject(error);
        this.#pending.clear();
        this.#stopWatchdog();
        this.#connection.end();
        return;
      }
      const id = this.#nextId++;
      this.#pingInFlight = id;
      this.#connection.send(JSON.stringify({ jsonrpc: "2.0", id, method: "ping", params: {} }) + "\n");
    }, ms);
  }

  #stopWatchdog(): void {
    if (this.#watchdog !== null) clearInterval(this.#watchdog);
    this.#watchdog = null;
    this.#pingInFlight = null;
  }

  close(): void {
    this.#stopWatchdog();
    this.#connection.end();
  }

  #receive(text: string): void {
    const message = JSON.parse(text) as JsonRpcResponse | JsonRpcNotification;
    if (!("id" in message)) {
      this.onNotification?.(message);
      return;
    }
    if (message.id !== null && message.id === this.#pingInFlight) {
      this.#pingInFlight = null; // any answer, even an error, shows the daemon is alive
      return;
    }
    settleReply(message, this.#pending);
  }
}

function unanswered(path: string, ms: number, what: string): TuiwrightError {
  return new TuiwrightError("daemon-unavailable", `the daemon at ${path} did not ${what} within ${ms} ms (stopped or wedged?)`, {
    hint: "see `tuiwright daemon status`; a stopped daemon resumes with `kill -CONT PID`, a wedged one ends with `kill PID` (the next command starts a new one)",
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, error: () => TuiwrightError): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(error()), ms);
    promise.then((value) => { clearTimeout(timer); resolve(value); }, (failure) => { clearTimeout(timer); reject(failure); });
  });
}
