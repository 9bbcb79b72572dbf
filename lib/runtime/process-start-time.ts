// A process's start time, on its own: the thin CLI's session ledger needs it, and importing
// process.ts would load node:os (signal names) at every CLI start.
import { readFileSync } from "./node-fs.ts";

/** The process's start time in clock ticks (/proc/PID/stat field 22): tells a reused pid apart. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}
