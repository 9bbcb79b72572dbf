// The daemon's handle on one session in a session worker thread (worker-host.ts): starts it,
// correlates calls with replies, and turns a fault — the session's own, or its thread's end —
// into that session's failure (pending calls fail, other sessions carry on).
import { TuiwrightError } from "../protocol/errors.ts";
import type { WorkerHost } from "./worker-host.ts";
import type { Placement, WorkerPool } from "./worker-pool.ts";
import type { DaemonToWorker, SessionEvent, SessionMessage, StartSpec, WorkerOp, WorkerOps } from "./messages.ts";

const START_TIMEOUT_MS = 10_000;
/** How long kill waits to hear how a crashed session's program ended (SIGHUP was sent at the crash). */
const PROGRAM_END_WAIT_MS = 3000;

export type WorkerHooks = {
  /** What the session reported (screen changed, bell, resized, program ended). */
  event(event: SessionEvent): void;
  crashed(reason: string): void;
};

type PendingCall = { resolve(value: unknown): void; reject(error: TuiwrightError): void };

export class SessionWorker {
  readonly pid: number;
  /** Where the session's thread came from (worker-pool.ts). */
  readonly placement: Placement;
  /** The thread hosting the session, and its slot there. */
  readonly host: WorkerHost;
  readonly #slot: number;
  readonly #name: string;
  readonly #hooks: WorkerHooks;
  readonly #pending = new Map<number, PendingCall>();
  #nextId = 1;
  #crashed: string | null = null;
  /** The session crashed on a thread that runs on (not the thread's own end). */
  #crashedAlone = false;
  #terminated = false;
  #programEnded!: () => void;
  readonly #programEndSeen: Promise<void>;

  private constructor(host: WorkerHost, slot: number, name: string, pid: number, placement: Placement, hooks: WorkerHooks) {
    this.host = host;
    this.#slot = slot;
    this.#name = name;
    this.pid = pid;
    this.placement = placement;
    this.#hooks = hooks;
    this.#programEndSeen = new Promise((resolve) => { this.#programEnded = resolve; });
  }

  /** Starts the session on the thread the pool places it on. A thread that turns out to have
   * ended before the session started (a spare that died) is left for a new one, once. Loading
   * the next spare is the caller's: once the program's first screen is in, so that it does not
   * compete with this start for the cores. */
  static async start(spec: StartSpec, hooks: WorkerHooks, pool: WorkerPool): Promise<SessionWorker> {
    for (let attempt = 0; ; attempt++) {
      const { host, placement } = SessionWorker.#place(pool, spec, attempt > 0);
      const started = await SessionWorker.#startOn(host, placement, spec, hooks);
      if (started) return started;
      if (attempt > 0) throw new TuiwrightError("internal", `session ${JSON.stringify(spec.name)}: its worker thread ended before the session started: ${host.ended}`);
    }
  }

  static #place(pool: WorkerPool, spec: StartSpec, fresh: boolean): ReturnType<WorkerPool["place"]> {
    try {
      return pool.place(spec.browser, fresh);
    } catch (error) {
      const failure = error as TuiwrightError;
      throw new TuiwrightError(failure.errorName, `session ${JSON.stringify(spec.name)}: ${failure.message}`, { hint: failure.hint });
    }
  }

  /** The session started on `host`; null when the thread ended before it could. */
  static #startOn(host: WorkerHost, placement: Placement, spec: StartSpec, hooks: WorkerHooks): Promise<SessionWorker | null> {
    return new Promise((resolve, reject) => {
      let handle: SessionWorker | undefined;
      let slot: number | null = null;
      let abandoned = false;
      const timer = setTimeout(() => {
        abandoned = true;
        reject(new TuiwrightError("internal", `session ${JSON.stringify(spec.name)}: the worker did not start it within ${START_TIMEOUT_MS} ms`));
      }, START_TIMEOUT_MS);
      slot = host.open({
        receive(message) {
          if (handle) { handle.#receive(message); return; }
          if (abandoned) {
            // Started after its spawn gave up: nobody holds it, so its thread closes it (its
            // program gets SIGHUP as from a closed terminal) and the slot is let go.
            if (message.kind === "started") host.post({ kind: "call", slot: message.slot, id: 0, op: "dispose", params: {} });
            if (message.kind === "started" || message.kind === "start-failed") host.close(message.slot);
            return;
          }
          if (message.kind === "started") {
            clearTimeout(timer);
            handle = new SessionWorker(host, message.slot, spec.name, message.pid, placement, hooks);
            resolve(handle);
          } else if (message.kind === "start-failed") {
            clearTimeout(timer);
            host.close(message.slot);
            reject(TuiwrightError.fromJsonRpc(message.error));
          }
        },
        threadEnded(reason) {
          if (handle) { handle.#crash(reason, true); return; }
          clearTimeout(timer);
          resolve(null);
        },
      }, (slot) => ({ kind: "start", slot, spec }));
      if (slot === null) {
        clearTimeout(timer);
        resolve(null);
      }
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
        if (!this.#terminated && !this.#crashed) this.host.post({ kind: "cancel", slot: this.#slot, id } satisfies DaemonToWorker);
        reject(new TuiwrightError("timeout", "cancelled: the caller disconnected"));
      };
      // The signal lives as long as the connection: drop the listener once the call settles.
      const settle = () => signal?.removeEventListener("abort", onAbort);
      this.#pending.set(id, {
        resolve: (value) => { settle(); resolve(value as WorkerOps[Op][1]); },
        reject: (error) => { settle(); reject(error); },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.host.post({ kind: "call", slot: this.#slot, id, op, params } satisfies DaemonToWorker);
    });
  }

  /** Closes the session's PTY and screen inside its thread, which then drops it. */
  async terminate(): Promise<void> {
    if (this.#terminated) return;
    if (!this.#crashed) {
      const disposed = this.call("dispose", {}).catch(() => undefined);
      await Promise.race([disposed, new Promise((r) => setTimeout(r, 1000))]);
    }
    // A session that crashed alone: its thread reaps the program and says how it ended.
    if (this.#crashedAlone) await Promise.race([this.#programEndSeen, new Promise((r) => setTimeout(r, PROGRAM_END_WAIT_MS))]);
    this.#terminated = true;
    this.host.close(this.#slot);
    for (const pending of this.#pending.values()) pending.reject(new TuiwrightError("no-such-session", `session ${JSON.stringify(this.#name)} was removed`));
    this.#pending.clear();
  }

  #receive(message: SessionMessage): void {
    // A crashed session still learns how its program ended (its thread reaped it).
    if (this.#crashed) {
      if (message.kind === "ended") { this.#hooks.event(message); this.#programEnded(); }
      return;
    }
    switch (message.kind) {
      case "reply": this.#settle(message); return;
      case "crashed": this.#crash(message.reason); return;
      case "started": case "start-failed": return;
      default: this.#hooks.event(message); return;
    }
  }

  #settle(message: Extract<SessionMessage, { kind: "reply" }>): void {
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.error) pending.reject(TuiwrightError.fromJsonRpc(message.error));
    else pending.resolve(message.result);
  }

  /** `threadWide`: the whole thread ended, with the other sessions it hosted. */
  #crash(reason: string, threadWide = false): void {
    if (this.#crashed || this.#terminated) return;
    this.#crashed = reason;
    const error = new TuiwrightError("internal", `session ${JSON.stringify(this.#name)}: its worker crashed: ${reason}`, {
      hint: threadWide
        ? "its worker thread ended, with the sessions it hosted; sessions on other threads are unaffected; remove this one with `tuiwright kill`"
        : "other sessions are unaffected; remove this one with `tuiwright kill`",
    });
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    this.#crashedAlone = !threadWide;
    this.#hooks.crashed(reason);
  }
}
