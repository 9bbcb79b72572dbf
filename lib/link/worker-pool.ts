// The session worker threads of a daemon (issue 30): program and shell sessions share a few
// threads — `size`, about one per core — instead of a thread each, so a session costs its
// screen and state rather than a JS engine; a browser gets a thread of its own (its engine pipe,
// restarts and page work stay apart). One thread is loaded ahead of the next spawn, so a spawn
// does not wait for a JS engine to load the worker code: after the daemon's ready line and again
// after each spawn, while fewer than `size` threads run and none is empty. None is made while the
// tasks left are near the daemon's reserve (a session forking without end).
import { TuiwrightError, shortMessage } from "../protocol/errors.ts";
import { availableParallelism } from "node:os";
import { WorkerHost } from "./worker-host.ts";

/** About one thread per core: sessions on different threads parse in parallel; more threads
 * than cores would only cost memory. At least 2, so that one busy thread leaves another. */
export const defaultWorkerThreads = (): number => Math.min(4, Math.max(2, availableParallelism()));

/** Where a session's thread came from: loaded ahead and empty, already hosting others, or
 * started for this spawn. */
export type Placement = "spare" | "shared" | "new";

export class WorkerPool {
  readonly size: number;
  readonly #hosts = new Set<WorkerHost>();
  readonly #room: () => boolean;
  readonly #aheadCgroup: () => string | null;
  /** The thread whose warm start waits in the cgroup made ahead (lib/pty/warm-start.ts). */
  #warm: { host: WorkerHost; cgroup: string } | null = null;
  #nextId = 1;
  #closed = false;

  /** `room`: whether a thread (or a warm start's process) may be spent ahead of need now
   * (containment.ts: tasks to spare). `aheadCgroup`: the cgroup the next program session will
   * get, made ahead (null without cgroups). */
  constructor(size: number, room: () => boolean = () => true, aheadCgroup: () => string | null = () => null) {
    this.size = Math.max(1, size);
    this.#room = room;
    this.#aheadCgroup = aheadCgroup;
  }

  /** Threads hosting program and shell sessions (browsers' own excluded). */
  get #shared(): WorkerHost[] {
    return [...this.#hosts].filter((host) => !host.dedicated && !host.ended);
  }

  /** A spawn now would find its thread loaded. */
  get ready(): boolean {
    const shared = this.#shared;
    return shared.some((host) => host.sessions === 0) || shared.length >= this.size;
  }

  /** The process waiting in its cgroup for the next program spawn (lib/pty/warm-start.ts), once its
   * thread reported it; null when there is none. */
  get warmStart(): number | null {
    return this.#warm && !this.#warm.host.ended ? this.#warm.host.warmPid : null;
  }

  /** Threads running, browsers' included. */
  get threads(): number {
    return [...this.#hosts].filter((host) => !host.ended).length;
  }

  /** Loads a thread ahead of the next spawn where that helps and there is room. Never throws:
   * without it a spawn starts its own thread. */
  fill(): void {
    if (this.#closed || !this.#room()) return;
    if (!this.ready) {
      try {
        this.#add(false);
      } catch {
        // no thread to be had now (the task limit): the next spawn says so itself
      }
    }
    this.#warmNext();
  }

  /** The next program's process is started ahead, in its cgroup, on the thread it will run on:
   * moving a process into a cgroup costs 10-15 ms the spawn then does not wait for. */
  #warmNext(): void {
    const cgroup = this.#aheadCgroup();
    if (!cgroup) return;
    if (this.#warm && this.#warm.cgroup === cgroup && !this.#warm.host.ended) return;
    const shared = this.#shared;
    const host = shared.find((h) => h.sessions === 0) ?? (shared.length >= this.size ? shared.reduce((a, b) => (b.sessions < a.sessions ? b : a)) : undefined);
    if (this.#warm) {
      this.#warm.host.post({ kind: "unwarm" });
      this.#warm.host.warmPid = null;
    }
    this.#warm = null;
    if (!host) return;
    host.warmPid = null;
    host.post({ kind: "warm", cgroup });
    this.#warm = { host, cgroup };
  }

  /** The thread for a new session. A browser takes an empty loaded thread for its own, or a
   * new one; a program or shell the loaded thread with the fewest sessions, or a new one while
   * there are fewer than `size`. `fresh`: a new thread whatever runs (a loaded one turned out
   * dead, and others may be too before their close events arrive). */
  place(browser: boolean, fresh = false): { host: WorkerHost; placement: Placement } {
    if (fresh) return { host: this.#add(browser), placement: "new" };
    const shared = this.#shared;
    const warm = this.#warm;
    if (!browser && warm) {
      // The session takes the cgroup made ahead (containment.ts): its warm start is on this thread.
      this.#warm = null;
      if (!warm.host.ended && !warm.host.dedicated) return { host: warm.host, placement: warm.host.sessions === 0 ? "spare" : "shared" };
    }
    // A browser keeps off the thread holding the warm start: that process waits for a program.
    const empty = shared.find((host) => host.sessions === 0 && (!browser || host !== warm?.host));
    if (browser) {
      if (empty) {
        this.#hosts.delete(empty);
        empty.terminate();
      }
      return { host: this.#add(true), placement: "new" };
    }
    if (empty) return { host: empty, placement: "spare" };
    if (shared.length < this.size) return { host: this.#add(false), placement: "new" };
    const least = shared.reduce((a, b) => (b.sessions < a.sessions ? b : a));
    return { host: least, placement: "shared" };
  }

  /** Ends every loaded thread that hosts nothing, as a crash would: the pool learns of it
   * later, from the thread's close event (fault tests: a spawn must never land on one). */
  crashSpare(): boolean {
    const empty = this.#shared.filter((host) => host.sessions === 0);
    for (const host of empty) host.crash();
    return empty.length > 0;
  }

  /** Ends every thread and makes no more (daemon shutdown). */
  close(): void {
    this.#closed = true;
    for (const host of this.#hosts) host.terminate();
    this.#hosts.clear();
  }

  #add(dedicated: boolean): WorkerHost {
    let host: WorkerHost;
    try {
      host = new WorkerHost(this.#nextId++, dedicated, (ended) => this.#hosts.delete(ended));
    } catch (error) {
      // Bun cannot create the thread: the user's or the machine's task limit is reached.
      throw new TuiwrightError("busy", `cannot start its worker thread (${shortMessage((error as Error).message)})`, {
        hint: "the process limit is reached: find a session forking without end with `tuiwright list`, end it with `tuiwright kill`, then retry",
      });
    }
    this.#hosts.add(host);
    return host;
  }
}
