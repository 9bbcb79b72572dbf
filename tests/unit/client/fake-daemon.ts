// A daemon stand-in for the client's unit tests: an in-process Unix socket server that collects
// JSON-RPC requests and answers as the test tells it (in pieces, out of order, or not at all).
import { createServer, type Server, type Socket } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";

export type Request = { jsonrpc: string; id: number; method: string; params: any };

const cleanups: (() => void)[] = [];

/** Runs (once) what the tests of this file registered: daemons, connections, directories. */
export function cleanUp(): void {
  for (const cleanup of cleanups.splice(0)) cleanup();
}

/** Something to undo at the end of the test, before the daemons close. */
export function onCleanUp(cleanup: () => void): void {
  cleanups.unshift(cleanup);
}

/** A new private directory, removed at the end of the test. */
export function tempDir(): string {
  const dir = mkdtempSync(`${tmpdir()}/tuiwright-unit-client-`);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const reply = (id: number, result: unknown) => ({ jsonrpc: "2.0", id, result });

/** A socket server that collects requests; the test answers them on `socket`. */
export class FakeDaemon {
  readonly requests: Request[] = [];
  socket: Socket | null = null;
  /** When set, every request is answered at once with its result. */
  answer: ((request: Request) => unknown) | null = null;
  readonly #waiters: { count: number; resolve(requests: Request[]): void }[] = [];
  constructor(readonly server: Server, readonly path: string) {}

  static async start(path = `${tempDir()}/daemon.sock`): Promise<FakeDaemon> {
    const daemon: FakeDaemon = new FakeDaemon(createServer((socket) => daemon.#accept(socket)), path);
    await new Promise<void>((resolve) => daemon.server.listen(path, resolve));
    cleanups.push(() => { daemon.socket?.destroy(); daemon.server.close(); });
    return daemon;
  }

  #accept(socket: Socket): void {
    this.socket = socket;
    let buffer = "";
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let newline = buffer.indexOf("\n"); newline !== -1; newline = buffer.indexOf("\n")) {
        const request = JSON.parse(buffer.slice(0, newline)) as Request;
        buffer = buffer.slice(newline + 1);
        this.requests.push(request);
        if (this.answer) socket.write(JSON.stringify(reply(request.id, this.answer(request))) + "\n");
      }
      for (const waiter of [...this.#waiters]) {
        if (this.requests.length < waiter.count) continue;
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(this.requests.slice(0, waiter.count));
      }
    });
  }

  /** Resolves once `count` requests have come in (no polling: checked as data arrives). */
  received(count: number): Promise<Request[]> {
    if (this.requests.length >= count) return Promise.resolve(this.requests.slice(0, count));
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  send(...messages: object[]): void {
    this.socket!.write(messages.map((m) => JSON.stringify(m) + "\n").join(""));
  }
}
