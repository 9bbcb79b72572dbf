// One session worker started ahead of the next spawn, so a spawn does not wait for a worker's
// JS engine to load the worker code (the largest part of a spawn's time: issue 30). At most one
// spare exists, and none while the tasks left are near the daemon's reserve (a session forking
// without end); it is made when the daemon starts and again after each spawn has taken it, holds
// no session and no PTY until the spawn's start message arrives, and ends with the daemon. A
// spare that dies (its thread failed or was terminated) is dropped and made again at the next
// fill: a spawn never gets a dead one.
import { sessionWorkerUrl } from "../runtime/self.ts";

/** Bun's Worker can be left out of what keeps the process alive (the DOM typings lack it). */
type BunWorker = Worker & { ref(): void; unref(): void };

export class SpareWorker {
  #worker: Worker | null = null;
  #closed = false;
  readonly #room: () => boolean;

  /** `room`: whether a thread may be spent on a spare now (containment.ts: tasks to spare). */
  constructor(room: () => boolean = () => true) {
    this.#room = room;
  }

  /** A spare is ready (its thread is alive and has not been taken). */
  get ready(): boolean {
    return this.#worker !== null;
  }

  /** Starts a spare if there is none and there is room for its thread. Never throws: without a
   * spare a spawn starts its own worker. */
  fill(): void {
    if (this.#closed || this.#worker || !this.#room()) return;
    let worker: Worker;
    try {
      worker = new Worker(sessionWorkerUrl());
    } catch {
      return; // no thread to be had now (the task limit): the next spawn says so itself
    }
    // Idle, it must not keep a process alive that has nothing else to do.
    (worker as BunWorker).unref();
    const dropped = () => {
      if (this.#worker === worker) this.#worker = null;
    };
    worker.addEventListener("error", dropped);
    worker.addEventListener("close", dropped);
    this.#worker = worker;
  }

  /** The spare, now the caller's (listening to it, referenced); null when there is none. */
  take(): Worker | null {
    const worker = this.#worker;
    this.#worker = null;
    (worker as BunWorker | null)?.ref();
    return worker;
  }

  /** Ends the spare as a crash would (fault tests): the thread is gone without a word to us. */
  crash(): boolean {
    if (!this.#worker) return false;
    this.#worker.terminate();
    return true;
  }

  /** Ends the spare and makes no more (daemon shutdown). */
  close(): void {
    this.#closed = true;
    this.#worker?.terminate();
    this.#worker = null;
  }
}
