// Ending a session's programs: the signal goes to the session's process group and to the
// terminal's foreground group (a job bash started in its own group), then SIGKILL after the
// grace period if the program is still there. Then every process left of the session — in its
// terminal session (`nohup cmd &`, a job that ignores SIGHUP), below it, or gone off on its own
// (`setsid -f`, a double fork: containment.ts says how they are found) — is killed, and we check
// that none is left.
import { foregroundGroup, signalGroup, signalProcess } from "../runtime/process.ts";
import { reapChild } from "../runtime/reap-child.ts";
import type { Containment } from "./containment.ts";
import type { SessionEntry } from "./registry.ts";

const AFTER_SIGKILL_MS = 2000;
/** How long a crashed worker's program gets to be reaped after SIGKILL. */
const REAP_CHECK_MS = 2000;
const REAP_POLL_MS = 10;

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

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A crashed worker's program (killed when it crashed) is our child with nobody to wait for
 * it: reap it, so no zombie stays and `kill` can say how it ended. */
async function reapOrphan(pid: number): Promise<SessionEntry["exit"]> {
  signalProcess(pid, "SIGKILL");
  const deadline = performance.now() + REAP_CHECK_MS;
  for (;;) {
    const reaped = reapChild(pid);
    if (reaped || performance.now() > deadline) return reaped;
    await pause(REAP_POLL_MS);
  }
}

export async function terminateSession(entry: SessionEntry, signal: NodeJS.Signals, graceMs: number, containment: Containment): Promise<void> {
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
  // A program not yet reaped is still ours (its pid cannot be another's): its children count.
  const survivors = await containment.end(entry.bounds, pid, entry.exit === null, signal, graceMs);
  if (entry.crashed && !entry.exit) entry.exit = await reapOrphan(pid);
  containment.release(entry.bounds);
  // Only a process stuck in the kernel (D state) outlives SIGKILL; say so in the daemon log.
  if (survivors.length > 0) process.stderr.write(`${new Date().toISOString()} [${process.pid}] session ${JSON.stringify(entry.name)}: processes ${survivors.join(", ")} survived SIGKILL\n`);
}
