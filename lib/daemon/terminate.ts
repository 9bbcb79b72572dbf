// Ending a session's programs: the signal goes to the session's process group and to the
// terminal's foreground group (a job bash started in its own group), then SIGKILL after the
// grace period if the program is still there.
import { foregroundGroup, signalGroup } from "../runtime/process.ts";
import type { SessionEntry } from "./registry.ts";

const AFTER_SIGKILL_MS = 2000;

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
}
