// The daemon's side of one session worker thread, which hosts several sessions (issue 30: a
// thread per session cost ~6.5 MB and 1.4 threads each). It starts the thread, checks every
// message from it (a trust boundary: a thread can be broken or crash mid-message) and hands each
// to the session it names. A thread that ends takes its sessions with it: each is told.
import * as v from "valibot";
import { shortMessage } from "../protocol/errors.ts";
import { sessionWorkerUrl } from "../runtime/self.ts";
import { WorkerToDaemonSchema, type DaemonToWorker, type SessionMessage } from "./messages.ts";

/** Bun's Worker can be left out of what keeps the process alive (the DOM typings lack it). */
type BunWorker = Worker & { ref(): void; unref(): void };

/** A session's side of its thread: what the thread sends it, and the thread's end. */
export type HostedSession = {
  receive(message: SessionMessage): void;
  /** The thread ended (or broke its protocol) while the session was on it. */
  threadEnded(reason: string): void;
};

export class WorkerHost {
  /** For logs and debug.memory: which thread a session is on. */
  readonly id: number;
  /** A browser's thread hosts that browser alone (its engine pipe and restarts are its own). */
  readonly dedicated: boolean;
  readonly #worker: BunWorker;
  readonly #sessions = new Map<number, HostedSession>();
  #nextSlot = 1;
  /** The pid of this thread's warm start (lib/pty/warm-start.ts) as it last reported, or null. */
  warmPid: number | null = null;
  #ended: string | null = null;
  readonly #onEnd: (host: WorkerHost) => void;

  /** Throws when the thread cannot be made (the task limit is reached). */
  constructor(id: number, dedicated: boolean, onEnd: (host: WorkerHost) => void) {
    this.id = id;
    this.dedicated = dedicated;
    this.#onEnd = onEnd;
    this.#worker = new Worker(sessionWorkerUrl()) as BunWorker;
    // Empty, it must not keep a daemon alive that has nothing else to do.
    this.#worker.unref();
    // Without an error listener a failed import inside the binary hangs silently.
    this.#worker.addEventListener("error", (event) => {
      const thrown = (event as ErrorEvent).error as { message?: unknown } | undefined;
      this.#end(shortMessage(typeof thrown?.message === "string" ? thrown.message : (event as ErrorEvent).message || "unknown error"));
    });
    this.#worker.addEventListener("close", () => this.#end("its thread ended"));
    this.#worker.addEventListener("message", (event: MessageEvent) => {
      const parsed = v.safeParse(WorkerToDaemonSchema, event.data);
      if (!parsed.success) {
        this.#end(`malformed message from worker: ${v.summarize(parsed.issues)}`);
        return;
      }
      const message = parsed.output;
      if (message.kind === "thread-failed") this.#end(message.reason);
      else if (message.kind === "warmed") this.warmPid = message.pid;
      else this.#sessions.get(message.slot)?.receive(message);
    });
  }

  /** Sessions on this thread now. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** Why the thread ended, or null while it runs. */
  get ended(): string | null {
    return this.#ended;
  }

  /** Takes a slot for a new session and sends its start; null when the thread has ended. */
  open(session: HostedSession, start: (slot: number) => DaemonToWorker): number | null {
    if (this.#ended) return null;
    const slot = this.#nextSlot++;
    this.#sessions.set(slot, session);
    if (this.#sessions.size === 1) this.#worker.ref();
    this.#worker.postMessage(start(slot));
    return slot;
  }

  post(message: DaemonToWorker): void {
    if (!this.#ended) this.#worker.postMessage(message);
  }

  /** The session left the thread (disposed, or never started). */
  close(slot: number): void {
    if (!this.#sessions.delete(slot)) return;
    if (this.#sessions.size === 0 && !this.#ended) {
      this.#worker.unref();
      if (this.dedicated) this.terminate();
    }
  }

  /** Ends the thread as a crash would: the daemon learns of it only from the thread's close
   * event, later (fault tests). */
  crash(): void {
    this.#worker.terminate();
  }

  /** Ends the thread now (daemon shutdown, an empty thread no longer wanted). */
  terminate(): void {
    this.#worker.terminate();
    this.#end("its thread was terminated");
  }

  #end(reason: string): void {
    if (this.#ended) return;
    this.#ended = reason;
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    for (const session of sessions) session.threadEnded(reason);
    this.#worker.terminate();
    this.#onEnd(this);
  }
}
