// Calls that start, restart or end a session's programs are barriers on their connection: a
// call the same connection sends after one runs once it has finished. JSON-RPC answers out of
// order, and a pipelined `reset` then `exec` must reach the new shell, never the old one (nor
// find no session between the two); calls sent before a barrier are not held by it (`end` is
// how a client stops the program a pending `wait` watches).
const BARRIERS: ReadonlySet<string> = new Set(["spawn", "reset", "end", "kill"]);

export class CallOrder {
  /** Each connection's latest barrier, settled or not. */
  readonly #barriers = new WeakMap<object, Promise<unknown>>();

  run<T>(connection: object | undefined, method: string, call: () => Promise<T>): Promise<T> {
    if (connection === undefined) return call();
    const before = this.#barriers.get(connection);
    const running = before === undefined ? call() : before.then(call);
    if (BARRIERS.has(method)) this.#barriers.set(connection, running.catch(() => undefined));
    return running;
  }
}
