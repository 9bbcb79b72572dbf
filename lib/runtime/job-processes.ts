// A shell's foreground job as a set of processes that outlives the job's group: what `end` found
// running, so the children it left behind (setsid, a double fork) are ended with it.
import { foregroundGroup } from "./process.ts";
import { liveDescendants, readProcessTable } from "./process-table.ts";
import { killUntilGone } from "./kill-until-gone.ts";

/** The terminal's foreground job of the shell `shellPid` and everything below it — children that
 * left its group or session (setsid) but not yet its tree; empty when the shell itself is in front.
 * Each as pid and start time, so a pid used again meanwhile is not taken for it. */
export function jobProcesses(shellPid: number): string[] {
  const group = foregroundGroup(shellPid);
  if (group === null || group === shellPid) return [];
  const table = readProcessTable();
  const members = [...table.values()].filter((row) => row.pgid === group).map((row) => row.pid);
  return liveDescendants(table, members).filter((pid) => pid !== shellPid).map((pid) => `${pid}@${table.get(pid)!.start}`);
}

/** What is left of an ended job (its detached children): SIGTERM, a short grace, SIGKILL. */
export async function endLeftovers(job: string[]): Promise<void> {
  await killUntilGone(() => {
    const table = readProcessTable();
    return job.map((id) => Number(id.slice(0, id.indexOf("@")))).filter((pid, i) => {
      const row = table.get(pid);
      return row !== undefined && !row.zombie && `${pid}@${row.start}` === job[i];
    });
  }, "SIGTERM", 500, null);
}
