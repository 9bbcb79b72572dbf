// Which session a piece of code runs for, inside a worker thread that hosts several sessions
// (issue 30). The worker runs each session's start and each of its calls inside that session's
// scope; timers, promises and native callbacks created there carry it along (AsyncLocalStorage),
// so a fault can be pinned on the one session whose code threw, and that session alone is ended.
//
// Bun hands an uncaught error to the thread's handler with the scope of the timer that threw,
// but not with that of a native callback (a PTY's data) that threw: such callbacks are wrapped
// with `contained`, which catches inside the callback, where the scope is still known.
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<number>();
let onFault: ((session: number, error: unknown) => void) | null = null;

/** Runs `body` as session `session`'s code. */
export function inSessionScope<T>(session: number, body: () => T): T {
  return scope.run(session, body);
}

/** The session whose code is running now, if the thread hosts sessions and one is. */
export function currentSession(): number | undefined {
  return scope.getStore();
}

/** Who ends a session whose code threw (the worker thread's host sets it once). */
export function handleSessionFaults(handler: (session: number, error: unknown) => void): void {
  onFault = handler;
}

/** `callback`, such that an error it throws ends the session it runs for instead of the thread.
 * Outside a hosting thread (or any session's scope) the error is thrown on as before. */
export function contained<A extends unknown[]>(callback: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      callback(...args);
    } catch (error) {
      const session = scope.getStore();
      if (session === undefined || !onFault) throw error;
      onFault(session, error);
    }
  };
}
