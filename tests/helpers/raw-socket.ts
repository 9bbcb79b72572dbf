// A raw NDJSON connection for protocol tests: send exact bytes, read answers line by line.
import { LineReader } from "../../lib/transport/ndjson.ts";
import { connectUnix, type Connection } from "../../lib/runtime/unix-socket.ts";

export class RawSocket {
  readonly #lines: string[] = [];
  readonly #waiters: ((line: string) => void)[] = [];
  #connection!: Connection;
  closed = false;

  static async open(path: string): Promise<RawSocket> {
    const raw = new RawSocket();
    const reader = new LineReader(Number.MAX_SAFE_INTEGER);
    raw.#connection = await connectUnix(path, {
      data: (bytes) => reader.push(bytes, { line: (line) => raw.#deliver(line), oversized: () => {} }),
      close: () => { raw.closed = true; },
    });
    return raw;
  }

  send(data: string | Uint8Array): void {
    this.#connection.send(data);
  }

  /** The next line the daemon sends, parsed. */
  next(): Promise<any> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line));
    return new Promise((resolve) => this.#waiters.push((l) => resolve(JSON.parse(l))));
  }

  async call(message: unknown): Promise<any> {
    this.send(JSON.stringify(message) + "\n");
    return this.next();
  }

  close(): void {
    this.#connection.end();
  }

  #deliver(line: string): void {
    const waiter = this.#waiters.shift();
    if (waiter) waiter(line);
    else this.#lines.push(line);
  }
}
