// The daemon's ledger of its sessions on disk (`<socket>.sessions.json`, 0600). A daemon that
// shuts down deletes it; a daemon that finds one at start knows its predecessor died without
// shutting down (kill -9, OOM) and reports those sessions as lost, after killing any of their
// programs still running (ones that ignore SIGHUP outlive their terminal).
import { readFileSync, writeFileSync } from "node:fs";
import { removeIfPresent } from "../transport/socket-security.ts";

export type LedgerEntry = { name: string; pid: number; argv: string[]; cast: string | null; startedAt: string; pidStart: string | null };
export type LostSession = Omit<LedgerEntry, "pidStart"> & { killed: boolean };

/** The process's start time in clock ticks (/proc/PID/stat field 22): tells a reused pid apart. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function killLeftover(entry: LedgerEntry): boolean {
  if (entry.pidStart === null || processStartTime(entry.pid) !== entry.pidStart) return false;
  for (const target of [-entry.pid, entry.pid]) {
    try {
      process.kill(target, "SIGKILL");
      return true;
    } catch { /* no such group: try the process */ }
  }
  return false;
}

/** The ledger's entries, or none when there is no (readable) ledger. */
export function readLedger(path: string): LedgerEntry[] {
  try {
    const entries = JSON.parse(readFileSync(path, "utf8"));
    return Array.isArray(entries) ? entries : [];
  } catch {
    return [];
  }
}

export class SessionLedger {
  #written = "";

  constructor(readonly path: string) {}

  /** The sessions a dead predecessor left; their programs are killed and the ledger cleared. */
  recover(): LostSession[] {
    const entries = readLedger(this.path);
    removeIfPresent(this.path);
    return entries.map(({ pidStart, ...entry }) => ({ ...entry, killed: killLeftover({ ...entry, pidStart }) }));
  }

  /** Writes the entries when they changed (the daemon calls this on every connection too). */
  write(entries: LedgerEntry[]): void {
    const text = JSON.stringify(entries);
    if (text === this.#written) return;
    writeFileSync(this.path, text, { mode: 0o600 });
    this.#written = text;
  }

  remove(): void {
    removeIfPresent(this.path);
  }
}
