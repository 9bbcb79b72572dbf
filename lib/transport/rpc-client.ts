// A JSON-RPC client over the daemon's socket: many calls in flight, matched by id.
import { TuiwrightError } from "../protocol/errors.ts";
import type { JsonRpcNotification, JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { connectUnix, type Connection } from "../runtime/unix-socket.ts";
import { LineReader, MAX_FRAME_BYTES } from "./ndjson.ts";
import { typeRequests } from "./typing-chunks.ts";

type Pending = { resolve(value: unknown): void; reject(error: TuiwrightError): void };

export class RpcClient {
  readonly #connection: Connection;
  readonly #pending: Map<number, Pending>;
  readonly #clientVersion: string | undefined;
  /** Resolves when the connection closes (the daemon closes it as it exits). */
  readonly closed: Promise<void>;
  #nextId = 1;
  onNotification: ((message: JsonRpcNotification) => void) | null = null;

  private constructor(connection: Connection, pending: Map<number, Pending>, closed: Promise<void>, clientVersion: string | undefined) {
    this.#clientVersion = clientVersion;
    this.#connection = connection;
    this.#pending = pending;
    this.closed = closed;
  }

  /** With clientVersion, every request carries it and a daemon of another build refuses it. */
  static async connect(path: string, options: { clientVersion?: string } = {}): Promise<RpcClient> {
    const pending = new Map<number, Pending>();
    const reader = new LineReader(Number.MAX_SAFE_INTEGER); // the daemon is trusted to frame its answers
    let client: RpcClient | undefined;
    let markClosed!: () => void;
    const closed = new Promise<void>((resolve) => { markClosed = resolve; });
    const connection = await connectUnix(path, {
      data(bytes) {
        reader.push(bytes, { line: (text) => { if (client) client.#receive(text); }, oversized: () => {} });
      },
      close() {
        const error = new TuiwrightError("daemon-unavailable", "the daemon closed the connection", {
          hint: "run the command again; `tuiwright daemon status` shows whether the daemon is up",
        });
        for (const call of pending.values()) call.reject(error);
        pending.clear();
        markClosed();
      },
    });
    client = new RpcClient(connection, pending, closed, options.clientVersion);
    return client;
  }

  /** `type` with long text goes out as several requests (see typing-chunks.ts). */
  async call(method: string, params: unknown = {}): Promise<unknown> {
    const text = (params as { text?: unknown } | null)?.text;
    if ((method === "type" || method === "paste") && typeof text === "string") {
      const requests = typeRequests(params as { text: string });
      let result: unknown;
      for (const request of requests) result = await this.#callOne(method, request);
      return result;
    }
    return this.#callOne(method, params);
  }

  #callOne(method: string, params: unknown): Promise<unknown> {
    const id = this.#nextId++;
    const envelope = this.#clientVersion ? { jsonrpc: "2.0", id, method, params, clientVersion: this.#clientVersion } : { jsonrpc: "2.0", id, method, params };
    const frame = JSON.stringify(envelope) + "\n";
    // The daemon discards an oversized frame without knowing its id, so the call would
    // never be answered: refuse it here, before anything is sent.
    const bytes = Buffer.byteLength(frame);
    if (bytes > MAX_FRAME_BYTES) {
      return Promise.reject(new TuiwrightError("bad-data", `request of ${bytes} bytes exceeds the 1 MiB frame limit (${method})`, {
        hint: "send less in one request: split the text, manifest or batch",
      }));
    }
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#connection.send(frame);
    });
  }

  close(): void {
    this.#connection.end();
  }

  #receive(text: string): void {
    const message = JSON.parse(text) as JsonRpcResponse | JsonRpcNotification;
    if (!("id" in message)) {
      this.onNotification?.(message);
      return;
    }
    if (message.id === null && "error" in message) {
      // The daemon could not read one of our frames and cannot say which: fail every call
      // in flight rather than leave one waiting forever.
      const error = TuiwrightError.fromJsonRpc(message.error);
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      return;
    }
    const call = typeof message.id === "number" ? this.#pending.get(message.id) : undefined;
    if (!call) return;
    this.#pending.delete(message.id as number);
    if ("error" in message) call.reject(TuiwrightError.fromJsonRpc(message.error));
    else call.resolve(message.result);
  }
}
