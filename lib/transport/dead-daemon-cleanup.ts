// After a daemon died without shutting down (kill -9, OOM), its socket, pid file and ledger
// stay behind. `daemon stop` and `list` with no daemon answering clean them up: both remove
// the stale socket and pid file; `daemon stop` also kills the programs the dead daemon's
// ledger names (as the next daemon would) and removes the ledger, while `list` keeps the
// ledger so it can go on reporting those sessions as lost. Nothing is touched while the pid
// file names a live process: a daemon may be starting right now.
import { existsSync, readFileSync } from "../runtime/node-fs.ts";
import { removeIfPresent } from "./socket-security.ts";
import { SessionLedger, type LostSession } from "./session-ledger.ts";

export type Cleanup = { staleSocket: boolean; lost: LostSession[] };

function pidFileNamesLiveProcess(pidFile: string): boolean {
  try {
    const { pid } = JSON.parse(readFileSync(pidFile, "utf8")) as { pid?: unknown };
    if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return false;
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** `killLeftovers`: also end the dead daemon's programs and forget its ledger (daemon stop). */
export function cleanUpDeadDaemon(socketPath: string, killLeftovers: boolean): Cleanup {
  const pidFile = `${socketPath}.pid`;
  if (pidFileNamesLiveProcess(pidFile)) return { staleSocket: false, lost: [] };
  const staleSocket = existsSync(socketPath);
  removeIfPresent(socketPath);
  removeIfPresent(pidFile);
  const lost = killLeftovers ? new SessionLedger(socketPath).recover() : [];
  return { staleSocket, lost };
}
