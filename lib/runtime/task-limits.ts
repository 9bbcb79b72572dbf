// The limits on how many tasks (processes and threads: the kernel counts both) can exist: the
// user's `ulimit -u` (RLIMIT_NPROC, counted over all of the user's tasks, the daemon's threads
// among them) and the kernel's pid_max and threads-max. Bun aborts the daemon outright when it
// cannot create a thread it needs (the engine starts compiler and GC helper threads as it goes),
// so a session must never be able to use a limit up: see lib/daemon/containment.ts.
import { readdirSync, readFileSync } from "node:fs";

export type TaskLimit = { what: string; max: number; used: number };

/** The soft "Max processes" of /proc/self/limits; Infinity when unlimited or unreadable. */
export function parseProcessLimit(limits: string): number {
  const line = limits.split("\n").find((l) => l.startsWith("Max processes"));
  const soft = line?.slice("Max processes".length).trim().split(/\s+/)[0];
  return soft && /^\d+$/.test(soft) ? Number(soft) : Infinity;
}

/** The user's RLIMIT_NPROC (Infinity when unlimited) and how many tasks the user has now; null
 * for root, whom the kernel does not hold to it. */
export function userTaskLimit(): TaskLimit | null {
  const uid = process.getuid?.();
  if (uid === undefined || uid === 0) return null;
  let max = Infinity;
  try {
    max = parseProcessLimit(readFileSync("/proc/self/limits", "utf8"));
  } catch {
    // unreadable: as unlimited
  }
  return { what: `the user's process limit (ulimit -u ${Number.isFinite(max) ? max : "unlimited"})`, max, used: userTasks(uid) };
}

/** Tasks whose real uid is `uid` (the kernel's count for RLIMIT_NPROC; zombies included). */
function userTasks(uid: number): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 0;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, "utf8");
      const realUid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
      if (Number(realUid) !== uid) continue;
      total += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
    } catch {
      // gone while we looked
    }
  }
  return total;
}

/** pid_max and threads-max against every task on the machine (/proc/loadavg's total). */
export function kernelTaskLimits(): TaskLimit[] {
  const read = (path: string) => {
    try {
      return readFileSync(path, "utf8").trim();
    } catch {
      return "";
    }
  };
  const used = Number(/\d+\/(\d+)/.exec(read("/proc/loadavg"))?.[1] ?? NaN);
  if (!Number.isFinite(used)) return [];
  const limits: TaskLimit[] = [];
  for (const [name, value] of [["kernel.pid_max", read("/proc/sys/kernel/pid_max")], ["kernel.threads-max", read("/proc/sys/kernel/threads-max")]] as const) {
    if (/^\d+$/.test(value)) limits.push({ what: `the kernel's ${name} (${value})`, max: Number(value), used });
  }
  return limits;
}

/** The tightest limit: how many tasks can still start under all of them, and which one binds. */
export function tightest(limits: TaskLimit[]): { free: number; limit: TaskLimit | null } {
  let best: { free: number; limit: TaskLimit | null } = { free: Infinity, limit: null };
  for (const limit of limits) {
    const free = Math.max(0, limit.max - limit.used);
    if (free < best.free) best = { free, limit };
  }
  return best;
}
