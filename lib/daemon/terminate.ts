// Ending a session's programs: the signal goes to the session's process group and to the
// terminal's foreground group (a job bash started in its own group), then SIGKILL after the
// grace period if the program is still there. Then every process left in the session (same
// sid: `nohup cmd &`, a job that ignores SIGHUP) is killed, and we check that none is left.
import { foregroundGroup, sessionMembers, signalGroup, signalProcess } from "../runtime/process.ts";
import { reapChild } from "../runtime/reap-child.ts";
import type { SessionEntry } from "./registry.ts";

const AFTER_SIGKILL_MS = 2000;
/** How long the leftovers of a session get to die after SIGKILL before we report them. */
const LEFTOVER_CHECK_MS = 2000;
const LEFTOVER_POLL_MS = 10;
/** How long leftovers get after the session's signal before SIGKILL (at most the kill's grace). */
const LEFTOVER_GRACE_MS = 500;

function settledWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => { clearTimeout(timer); resolve(true); });
  });
}

export function signalSessionGroups(pid: number, signal: NodeJS.Signals): void {
  const foreground = foregroundGroup(pid); // read first: /proc/PID goes when the leader dies
  signalGroup(pid, signal);
  if (foreground !== null && foreground !== pid) signalGroup(foreground, signal);
}

/** Ends every process still in session `sid`: first with `signal` and a short grace (so a
 * program that cleans up on SIGHUP/SIGTERM — removes its lock file — can), then SIGKILL,
 * until none is left or the check times out; returns the pids that survived, for the log.
 * The kernel gives us no event for "this pid exited" short of a pidfd per process, so this
 * polls /proc briefly. */
export async function killSessionLeftovers(sid: number, signal: NodeJS.Signals = "SIGHUP", graceMs = LEFTOVER_GRACE_MS): Promise<number[]> {
  const first = sessionMembers(sid);
  if (first.length === 0) return [];
  if (signal !== "SIGKILL") {
    for (const pid of first) signalProcess(pid, signal);
    const graceEnd = performance.now() + Math.min(graceMs, LEFTOVER_GRACE_MS);
    while (sessionMembers(sid).length > 0 && performance.now() < graceEnd) await pause(LEFTOVER_POLL_MS);
  }
  const deadline = performance.now() + LEFTOVER_CHECK_MS;
  for (;;) {
    const left = sessionMembers(sid);
    if (left.length === 0) return [];
    if (performance.now() > deadline) return left;
    for (const pid of left) signalProcess(pid, "SIGKILL");
    await pause(LEFTOVER_POLL_MS);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A crashed worker's program (killed when it crashed) is our child with nobody to wait for
 * it: reap it, so no zombie stays and `kill` can say how it ended. */
async function reapOrphan(pid: number): Promise<SessionEntry["exit"]> {
  signalProcess(pid, "SIGKILL");
  const deadline = performance.now() + LEFTOVER_CHECK_MS;
  for (;;) {
    const reaped = await reapChild(pid);
    if (reaped || performance.now() > deadline) return reaped;
    await pause(LEFTOVER_POLL_MS);
  }
}

export async function terminateSession(entry: SessionEntry, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  const pid = entry.worker.pid;
  if (!entry.exit) {
    signalSessionGroups(pid, signal);
    if (!(await settledWithin(entry.ended, graceMs))) {
      signalSessionGroups(pid, "SIGKILL");
      await settledWithin(entry.ended, AFTER_SIGKILL_MS);
    }
  } else {
    // The leader is gone; background members of its group may remain.
    signalGroup(pid, "SIGKILL");
  }
  await entry.worker.terminate();
  const survivors = await killSessionLeftovers(pid, signal, graceMs);
  if (entry.crashed && !entry.exit) entry.exit = await reapOrphan(pid);
  // Only a process stuck in the kernel (D state) outlives SIGKILL; say so in the daemon log.
  if (survivors.length > 0) process.stderr.write(`${new Date().toISOString()} [${process.pid}] session ${JSON.stringify(entry.name)}: processes ${survivors.join(", ")} survived SIGKILL\n`);
}
