// The daemon's handle on one session worker: starts it, correlates calls with replies, and
// turns a worker crash into that session's failure (pending calls fail, others carry on).
import * as v from "valibot";
import { shortMessage, TuiwrightError } from "../protocol/errors.ts";
import { sessionWorkerUrl } from "../runtime/self.ts";
import type { SpareWorker } from "./spare-worker.ts";
import { WorkerToDaemonSchema, type DaemonToWorker, type SessionEvent, type StartSpec, type WorkerOp, type WorkerOps, type WorkerToDaemon } from "./messages.ts";

const START_TIMEOUT_MS = 10_000;

export type WorkerHooks = {
  /** What the session reported (screen changed, bell, resized, program ended). */
  event(event: SessionEvent): void;
  crashed(reason: string): void;
};

type PendingCall = { resolve(value: unknown): void; reject(error: TuiwrightError): void };

export class SessionWorker {
  readonly pid: number;
  /** The session runs in the daemon's spare worker, started before the spawn asked. */
  readonly fromSpare: boolean;
  readonly #worker: Worker;
  readonly #name: string;
  readonly #pending = new Map<number, PendingCall>();
  #nextId = 1;
  #crashed: string | null = null;
  #terminated = false;

  private constructor(worker: Worker, name: string, pid: number, fromSpare: boolean) {
    this.#worker = worker;
    this.#name = name;
    this.pid = pid;
    this.fromSpare = fromSpare;
  }

  /** Starts the session in the spare worker when there is one (`from`), else in a new one. A
   * spare that turns out dead before the session started is replaced by a new worker. Making
   * the next spare is the caller's: once the program's first screen is in, so that loading it
   * does not compete with this start for the cores. */
  static async start(spec: StartSpec, hooks: WorkerHooks, from?: SpareWorker): Promise<SessionWorker> {
    const spare = from?.take() ?? null;
    if (spare) {
      const started = await SessionWorker.#startIn(spare, spec, hooks, true);
      if (started) return started;
    }
    let worker: Worker;
    try {
      worker = new Worker(sessionWorkerUrl());
    } catch (error) {
      // Bun cannot create the thread: the user's or the machine's task limit is reached.
      throw new TuiwrightError("busy", `session ${JSON.stringify(spec.name)}: cannot start its worker thread (${shortMessage((error as Error).message)})`, {
        hint: "the process limit is reached: find a session forking without end with `tuiwright list`, end it with `tuiwright kill`, then retry",
      });
    }
    return (await SessionWorker.#startIn(worker, spec, hooks, false))!;
  }

  /** The session started in `worker`; null when `worker` was a spare that had died. */
  static #startIn(worker: Worker, spec: StartSpec, hooks: WorkerHooks, spare: boolean): Promise<SessionWorker | null> {
    return new Promise((resolve, reject) => {
      let handle: SessionWorker | undefined;
      const timer = setTimeout(() => {
        worker.terminate();
        reject(new TuiwrightError("internal", `session ${JSON.stringify(spec.name)}: the worker did not start within ${START_TIMEOUT_MS} ms`));
      }, START_TIMEOUT_MS);
      // A spare whose thread ended before it could start the session: the caller uses a new one.
      if (spare) {
        worker.addEventListener("close", () => {
          if (handle) return;
          clearTimeout(timer);
          resolve(null);
        });
      }
      // Without an error listener a failed import inside the binary hangs silently.
      worker.addEventListener("error", (event) => {
        const thrown = (event as ErrorEvent).error as { message?: unknown } | undefined;
        const reason = shortMessage(typeof thrown?.message === "string" ? thrown.message : (event as ErrorEvent).message || "unknown error");
        clearTimeout(timer);
        if (handle) handle.#crash(reason, hooks);
        else reject(new TuiwrightError("internal", `session ${JSON.stringify(spec.name)}: the worker failed to start: ${reason}`));
      });
      worker.addEventListener("message", (event: MessageEvent) => {
        const parsed = v.safeParse(WorkerToDaemonSchema, event.data);
        if (!parsed.success) {
          const reason = `malformed message from worker: ${v.summarize(parsed.issues)}`;
          if (handle) handle.#crash(reason, hooks);
          return;
        }
        const message = parsed.output as WorkerToDaemon;
        switch (message.kind) {
          case "started":
            clearTimeout(timer);
            handle = new SessionWorker(worker, spec.name, message.pid, spare);
            resolve(handle);
            return;
          case "start-failed":
            clearTimeout(timer);
            worker.terminate();
            reject(TuiwrightError.fromJsonRpc(message.error));
            return;
          case "reply":
            if (handle) handle.#settle(message);
            return;
          default:
            hooks.event(message);
            return;
        }
      });
      worker.postMessage({ kind: "start", spec } satisfies DaemonToWorker);
    });
  }

  get crashed(): string | null {
    return this.#crashed;
  }

  /** Calls in flight to the worker (a wait whose caller hung up is no longer one). */
  get pendingCalls(): number {
    return this.#pending.size;
  }

  /** `signal`: the caller is gone; the call is dropped here and cancelled in the worker. */
  call<Op extends WorkerOp>(op: Op, params: WorkerOps[Op][0], signal?: AbortSignal): Promise<WorkerOps[Op][1]> {
    if (this.#crashed) {
      return Promise.reject(new TuiwrightError("snapshot-unavailable", `session ${JSON.stringify(this.#name)} crashed: ${this.#crashed}`, {
        hint: `remove it with \`tuiwright kill --session ${this.#name}\``,
      }));
    }
    if (this.#terminated) return Promise.reject(new TuiwrightError("no-such-session", `session ${JSON.stringify(this.#name)} was removed`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.#pending.delete(id)) return;
        if (!this.#terminated && !this.#crashed) this.#worker.postMessage({ kind: "cancel", id } satisfies DaemonToWorker);
        reject(new TuiwrightError("timeout", "cancelled: the caller disconnected"));
      };
      // The signal lives as long as the connection: drop the listener once the call settles.
      const settle = () => signal?.removeEventListener("abort", onAbort);
      this.#pending.set(id, {
        resolve: (value) => { settle(); resolve(value as WorkerOps[Op][1]); },
        reject: (error) => { settle(); reject(error); },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#worker.postMessage({ kind: "call", id, op, params } satisfies DaemonToWorker);
    });
  }

  /** Closes the PTY and screen inside the worker, then ends the worker. */
  async terminate(): Promise<void> {
    if (this.#terminated) return;
    if (!this.#crashed) {
      const disposed = this.call("dispose", {}).catch(() => undefined);
      await Promise.race([disposed, new Promise((r) => setTimeout(r, 1000))]);
    }
    this.#terminated = true;
    this.#worker.terminate();
    for (const pending of this.#pending.values()) pending.reject(new TuiwrightError("no-such-session", `session ${JSON.stringify(this.#name)} was removed`));
    this.#pending.clear();
  }

  #settle(message: Extract<WorkerToDaemon, { kind: "reply" }>): void {
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.error) pending.reject(TuiwrightError.fromJsonRpc(message.error));
    else pending.resolve(message.result);
  }

  #crash(reason: string, hooks: WorkerHooks): void {
    if (this.#crashed || this.#terminated) return;
    this.#crashed = reason;
    const error = new TuiwrightError("internal", `session ${JSON.stringify(this.#name)}: its worker crashed: ${reason}`, {
      hint: "other sessions are unaffected; remove this one with `tuiwright kill`",
    });
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    this.#worker.terminate();
    hooks.crashed(reason);
  }
}
