// Processes (daemon side): signal names, signals to process groups, and the terminal's
// foreground group.
import { readFileSync } from "node:fs";
import { constants } from "node:os";
import { TuiwrightError } from "../protocol/errors.ts";
import { readProcessTable } from "./process-table.ts";

/** `INT`, `sigint`, `SIGINT` and `2` all name SIGINT. */
export function normalizeSignal(name: string): NodeJS.Signals {
  const signals = constants.signals as Record<string, number>;
  if (/^\d+$/.test(name)) {
    const found = Object.entries(signals).find(([, number]) => number === Number(name));
    if (found) return found[0] as NodeJS.Signals;
  } else {
    const upper = name.toUpperCase();
    const full = upper.startsWith("SIG") ? upper : `SIG${upper}`;
    if (full in signals) return full as NodeJS.Signals;
  }
  throw new TuiwrightError("bad-data", `unknown signal ${JSON.stringify(name)}`, { hint: "use a name such as SIGINT, TERM, HUP, KILL or a number" });
}

/** Sends a signal to a process group; false if the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/** The foreground process group of the terminal a process runs on (tpgid in /proc). */
export function foregroundGroup(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const tpgid = Number(fields[5]);
    return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : null;
  } catch {
    return null;
  }
}

export { processStartTime } from "./process-start-time.ts";

/** A process's argv from /proc (null once it is gone). */
export function processArgv(pid: number): string[] | null {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return raw.split("\0").filter((part, i, all) => part !== "" || i < all.length - 1);
  } catch {
    return null;
  }
}

/** Live processes whose session id is `sid` (zombies excluded: they hold nothing). A program
 * that ignores SIGHUP or runs under nohup keeps the session's sid even in its own group. */
export function sessionMembers(sid: number): number[] {
  return [...readProcessTable().values()].filter((row) => row.sid === sid && !row.zombie).map((row) => row.pid);
}

/** Sends a signal to one process; false if it no longer exists. */
export function signalProcess(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}
