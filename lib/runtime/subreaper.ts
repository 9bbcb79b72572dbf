// The daemon as a child subreaper (prctl PR_SET_CHILD_SUBREAPER), where it has no session
// cgroups: a process orphaned inside a session — `setsid -f`, a double fork, a daemonizing
// server — is re-parented to the daemon instead of init, so `daemon stop` still finds it among
// the daemon's children, and `kill` finds the ones that carry their session's mark.
//
// Adopted orphans become the daemon's zombies when they exit, and nothing else waits for them:
// Bun waits only for the children it spawned (each through a pidfd), and stealing one of those
// exits from Bun throws ECHILD in the thread that spawned it. So a zombie child is reaped here
// only when the daemon holds no pidfd for it, seen so twice (a spawn opens its pidfd at once).
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { libc, PR_SET_CHILD_SUBREAPER } from "./libc.ts";
import { readProcessTable } from "./process-table.ts";
import { reapAndKeep } from "./reap-child.ts";

/** Between the two sightings of a zombie without a pidfd. */
const SECOND_LOOK_MS = 100;
/** At most one look at /proc per this long, however many children exit (a fork bomb's do). */
const MIN_INTERVAL_MS = 50;

/** The pids this process holds a pidfd for (Bun's own children, in every thread). */
export function pidfdTargets(): Set<number> {
  const pids = new Set<number>();
  let fds: string[];
  try {
    fds = readdirSync("/proc/self/fd");
  } catch {
    return pids;
  }
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) !== "anon_inode:[pidfd]") continue;
      const pid = /^Pid:\s*(-?\d+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1];
      if (pid !== undefined) pids.add(Number(pid));
    } catch {
      // closed meanwhile
    }
  }
  return pids;
}

/** Whether a child Bun spawns is watched through a pidfd (Linux 5.3 and later, unless filtered). */
async function spawnsHoldPidfds(): Promise<boolean> {
  let child: ReturnType<typeof Bun.spawn>;
  try {
    child = Bun.spawn(["/bin/sh", "-c", "read _"], { stdin: "pipe", stdout: "ignore", stderr: "ignore" });
  } catch {
    return false;
  }
  const held = pidfdTargets().has(child.pid);
  const stdin = child.stdin as import("bun").FileSink;
  await stdin.end();
  await child.exited;
  return held;
}

export class Subreaper {
  #suspects = new Set<number>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastLook = 0;
  #onChild = () => this.#schedule(Math.max(0, this.#lastLook + MIN_INTERVAL_MS - performance.now()));

  /** Becomes the subreaper if Bun's spawns here hold pidfds (else a zombie of ours could be one
   * of Bun's, which must not be reaped) and libc can waitpid; null (and why) otherwise. */
  static async start(): Promise<{ subreaper: Subreaper | null; why: string }> {
    const lib = libc();
    if (!lib) return { subreaper: null, why: "no libc to call prctl and waitpid through" };
    if (!(await spawnsHoldPidfds())) return { subreaper: null, why: "Bun does not wait for its children through pidfds here" };
    if (lib.prctl(PR_SET_CHILD_SUBREAPER, 1) !== 0) return { subreaper: null, why: "prctl(PR_SET_CHILD_SUBREAPER) failed" };
    const reaper = new Subreaper();
    process.on("SIGCHLD", reaper.#onChild);
    reaper.#schedule(0);
    return { subreaper: reaper, why: "" };
  }

  /** Live children of the daemon, its own spawns and adopted orphans alike. */
  children(): number[] {
    return [...readProcessTable().values()].filter((row) => row.ppid === process.pid && !row.zombie).map((row) => row.pid);
  }

  stop(): void {
    process.off("SIGCHLD", this.#onChild);
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #schedule(delayMs: number): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#reap();
    }, delayMs);
    this.#timer.unref();
  }

  #reap(): void {
    this.#lastLook = performance.now();
    const zombies = [...readProcessTable().values()].filter((row) => row.ppid === process.pid && row.zombie).map((row) => row.pid);
    if (zombies.length === 0) {
      this.#suspects.clear();
      return;
    }
    const bunsOwn = pidfdTargets();
    const suspects = new Set<number>();
    for (const pid of zombies) {
      if (bunsOwn.has(pid)) continue;
      if (this.#suspects.has(pid)) reapAndKeep(pid);
      else suspects.add(pid);
    }
    this.#suspects = suspects;
    if (suspects.size > 0) this.#schedule(SECOND_LOOK_MS);
  }
}
