// What keeps each session's processes in bounds and within reach, so the daemon outlives any
// session and `kill` ends all of a session:
// - bounds: a session may start only so many tasks, always leaving RESERVE_TASKS for the daemon
//   under every limit that would also stop it (Bun aborts when it cannot create a thread): the
//   session's cgroup's pids.max where the daemon may create cgroups, else RLIMIT_NPROC on the
//   program (for a user with a finite `ulimit -u`; root is not held to it).
// - reach: a session's processes are its cgroup's, else its program's descendants, the members
//   of its terminal session, and every process that carries its mark in the environment it was
//   started with — which `setsid`, double forks and daemonizing keep. Without cgroups the daemon
//   is also the child subreaper, so an orphan that dropped its mark still ends with the daemon.
import { randomBytes } from "node:crypto";
import { basename } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";
import { sessionMembers } from "../runtime/process.ts";
import { environmentValue, liveDescendants, readProcessTable } from "../runtime/process-table.ts";
import { cgroupMembers, removeTree, SessionCgroups } from "../runtime/session-cgroups.ts";
import { Subreaper } from "../runtime/subreaper.ts";
import { killUntilGone, LEFTOVER_GRACE_MS } from "../runtime/kill-until-gone.ts";
import { kernelTaskLimits, tightest, userTaskLimit, type TaskLimit } from "../runtime/task-limits.ts";

/** The environment variable every session's program is started with: a token per session. */
export const SESSION_MARK = "TUIWRIGHT_SESSION_MARK";

/** Tasks kept free for the daemon's own threads under every limit. */
const RESERVE_TASKS = 64;
/** The most tasks one session may have, and all sessions together (cgroups). */
const SESSION_TASKS = 4096;
const TOTAL_TASKS = 16384;
/** The threads of one spare session worker (measured: 1–4), which the daemon may make after a
 * session started: a session's rlimit leaves room for them beside the reserve, or a spare made
 * while a session forks without end would eat the reserve the daemon's clients need. */
const SPARE_TASKS = 16;
/** A session is refused when fewer tasks than this would be left for it. */
const MIN_SESSION_TASKS = 16;

export type SessionBounds = { mark: string; cgroup: string | null; taskLimit: number | null };

export type ContainmentInfo = { how: "cgroup" | "rlimit" | "none"; cgroup: string | null; sessionTasks: number | null; subreaper: boolean; why: string };

export class Containment {
  readonly #cgroups: SessionCgroups | null;
  readonly #sessionTasks: number | null;
  readonly #subreaper: Subreaper | null;
  readonly #why: string;
  /** The cgroup made ahead for the next program session (its warm start waits in it), or null. */
  #ahead: string | null = null;

  private constructor(cgroups: SessionCgroups | null, sessionTasks: number | null, subreaper: Subreaper | null, why: string) {
    this.#cgroups = cgroups;
    this.#sessionTasks = sessionTasks;
    this.#subreaper = subreaper;
    this.#why = why;
  }

  /** The cgroups are named `tuiwright-<uid>-<namespace>-<pid>`: a crashed predecessor's in the
   * same namespace are emptied (its programs killed, as its ledger's are) and removed; other
   * namespaces' are removed once empty. */
  static async start(namespace: string, log: (message: string) => void): Promise<Containment> {
    const user = `tuiwright-${process.getuid?.() ?? 0}-`;
    const ours = `${user}${namespace.replace(/[^A-Za-z0-9_.-]/g, "_")}-`;
    const { cgroups, why } = SessionCgroups.open(ours);
    if (cgroups) {
      for (const stale of cgroups.staleBases(user)) {
        const name = basename(stale);
        if (name.startsWith(ours) && /^\d+$/.test(name.slice(ours.length))) {
          const left = cgroupMembers(stale);
          if (left.length > 0) log(`killing ${left.length} process(es) a crashed daemon's sessions left in ${stale}`);
          await killUntilGone(() => cgroupMembers(stale), "SIGKILL", 0, stale);
        }
        removeTree(stale);
      }
      const { free } = tightest([...cgroups.enclosingLimits(), ...kernelTaskLimits(), ...optional(userTaskLimit())]);
      const total = Math.max(1, Math.min(TOTAL_TASKS, free - RESERVE_TASKS));
      try {
        cgroups.capTotal(total);
        const perSession = Math.min(SESSION_TASKS, total < 2 * MIN_SESSION_TASKS ? total : Math.floor(total / 2));
        log(`sessions run in cgroups under ${cgroups.base} (v${cgroups.version}): at most ${perSession} tasks each, ${total} together`);
        return new Containment(cgroups, perSession, null, "");
      } catch (error) {
        cgroups.close();
        return Containment.#withoutCgroups(`cannot set pids.max in ${cgroups.base} (${(error as { code?: string }).code ?? String(error)})`, log);
      }
    }
    return Containment.#withoutCgroups(why, log);
  }

  static async #withoutCgroups(why: string, log: (message: string) => void): Promise<Containment> {
    const { subreaper, why: noSubreaper } = await Subreaper.start();
    const user = userTaskLimit();
    log(`no session cgroups (${why}); ${user ? `sessions are held below ${user.what} and the kernel's limits` : "sessions have no task limit (root)"}; ${subreaper ? "the daemon adopts orphaned processes (child subreaper)" : `orphans are not adopted (${noSubreaper})`}`);
    return new Containment(null, null, subreaper, why);
  }

  /** A spare session worker (a thread made before any spawn asks) may be made now: well over
   * the daemon's reserve of tasks is free under every limit. A spare is a convenience; where a
   * session forks without end, the reserve's threads are the daemon's and its clients'. */
  roomForSpare(): boolean {
    const { free } = tightest([...(this.#cgroups?.enclosingLimits() ?? []), ...kernelTaskLimits(), ...optional(userTaskLimit())]);
    return free >= 2 * RESERVE_TASKS + MIN_SESSION_TASKS;
  }

  info(): ContainmentInfo {
    if (this.#cgroups) return { how: "cgroup", cgroup: this.#cgroups.base, sessionTasks: this.#sessionTasks, subreaper: false, why: "" };
    return { how: process.getuid?.() !== 0 ? "rlimit" : "none", cgroup: null, sessionTasks: null, subreaper: this.#subreaper !== null, why: this.#why };
  }

  /** The cgroup the next program session will get, made now so that a process can wait in it
   * ahead of that spawn (lib/pty/warm-start.ts); null without cgroups. */
  aheadCgroup(): string | null {
    if (!this.#cgroups) return null;
    try {
      this.#ahead ??= this.#cgroups.create(this.#sessionTasks!);
    } catch {
      return null; // the spawn makes its own and reports what fails
    }
    return this.#ahead;
  }

  /** The bounds for a new session; a busy error when the tasks left are (nearly) used up.
   * `ahead`: it may take the cgroup made ahead (a program's session; a browser's thread is its own). */
  bounds(session: string, ahead = true): SessionBounds {
    const user = userTaskLimit();
    const { free, limit } = tightest([...(this.#cgroups?.enclosingLimits() ?? []), ...kernelTaskLimits(), ...optional(user)]);
    if (limit && free < RESERVE_TASKS + MIN_SESSION_TASKS) {
      throw new TuiwrightError("busy", `session ${JSON.stringify(session)} not started: only ${free} more tasks may start under ${limit.what} (${limit.used} in use), and ${RESERVE_TASKS} are kept for the daemon`, {
        hint: "a session may be forking without end: find it with `tuiwright list` and end it with `tuiwright kill`, then retry",
      });
    }
    const mark = randomBytes(12).toString("hex");
    if (this.#cgroups && ahead && this.#ahead) {
      const cgroup = this.#ahead;
      this.#ahead = null;
      return { mark, cgroup, taskLimit: null };
    }
    if (this.#cgroups) {
      try {
        return { mark, cgroup: this.#cgroups.create(this.#sessionTasks!), taskLimit: null };
      } catch (error) {
        throw new TuiwrightError("io", `session ${JSON.stringify(session)} not started: cannot create its cgroup in ${this.#cgroups.base} (${(error as { code?: string }).code ?? String(error)})`, {
          hint: "the daemon's cgroup directory was changed under it: restart the daemon with `tuiwright daemon stop`",
        });
      }
    }
    // RLIMIT_NPROC counts all of the user's tasks: the session may add this many to today's.
    return { mark, cgroup: null, taskLimit: user ? user.used + Math.min(SESSION_TASKS, Math.max(1, free - RESERVE_TASKS - SPARE_TASKS)) : null };
  }

  /** The session's live processes. `sid`: its program's pid, which names its terminal session
   * (no other process can be given that pid while the session has members); `leaderOurs`: the
   * program has not been reaped, so that pid is still its and its descendants are the session's. */
  members(bounds: SessionBounds, sid: number, leaderOurs: boolean): number[] {
    if (bounds.cgroup) return cgroupMembers(bounds.cgroup);
    const table = readProcessTable();
    const roots = new Set<number>([...(leaderOurs ? [sid] : []), ...sessionMembers(sid)]);
    for (const row of table.values()) if (!row.zombie && environmentValue(row.pid, SESSION_MARK) === bounds.mark) roots.add(row.pid);
    return liveDescendants(table, roots);
  }

  /** Sends `signal` to every process of the session, then SIGKILL after `graceMs` until none is
   * left; returns the pids that survived (a process stuck in the kernel). */
  async end(bounds: SessionBounds, sid: number, leaderOurs: boolean, signal: NodeJS.Signals, graceMs: number): Promise<number[]> {
    return killUntilGone(() => this.members(bounds, sid, leaderOurs), signal, graceMs, bounds.cgroup);
  }

  /** Removes the session's cgroup once its processes are gone. */
  release(bounds: SessionBounds): void {
    if (bounds.cgroup) removeTree(bounds.cgroup);
  }

  /** Ends what no session accounts for any more (orphans adopted by the daemon, anything left
   * in our cgroups), then removes the cgroups; at shutdown, after every session ended. */
  async close(): Promise<number[]> {
    this.#subreaper?.stop();
    const strays = this.#cgroups
      ? () => cgroupMembers(this.#cgroups!.base)
      : () => (this.#subreaper ? liveDescendants(readProcessTable(), this.#subreaper.children()) : []);
    const survivors = await killUntilGone(strays, "SIGHUP", LEFTOVER_GRACE_MS, this.#cgroups?.base ?? null);
    this.#cgroups?.close();
    return survivors;
  }
}

function optional(limit: TaskLimit | null): TaskLimit[] {
  return limit ? [limit] : [];
}
