// Ending a set of processes for good: a signal, a short grace for programs that clean up, then
// SIGKILL (a cgroup's kill when there is one) until none is left or the check gives up.
import { killCgroup } from "./session-cgroups.ts";

/** How long leftovers get after the session's signal before SIGKILL (at most the kill's grace). */
export const LEFTOVER_GRACE_MS = 500;
/** How long the leftovers of a session get to die after SIGKILL before we report them. */
const LEFTOVER_CHECK_MS = 2000;
const LEFTOVER_POLL_MS = 10;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function signalEach(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone already
    }
  }
}

/** `signal` to everything `find` lists, a short grace (a program that cleans up on SIGHUP or
 * SIGTERM — removes its lock file — can), then SIGKILL until none is left or the check times out.
 * The kernel gives no event for "this pid exited" short of a pidfd per process: this polls. */
export async function killUntilGone(find: () => number[], signal: NodeJS.Signals, graceMs: number, cgroup: string | null): Promise<number[]> {
  const first = find();
  if (first.length === 0) return [];
  if (signal !== "SIGKILL") {
    signalEach(first, signal);
    const graceEnd = performance.now() + Math.min(graceMs, LEFTOVER_GRACE_MS);
    while (find().length > 0 && performance.now() < graceEnd) await pause(LEFTOVER_POLL_MS);
  }
  const deadline = performance.now() + LEFTOVER_CHECK_MS;
  for (;;) {
    const left = find();
    if (left.length === 0) return [];
    if (performance.now() > deadline) return left;
    if (!cgroup || !killCgroup(cgroup)) signalEach(left, "SIGKILL");
    await pause(LEFTOVER_POLL_MS);
  }
}
