// The daemon's ledger of its sessions on disk (`<socket>.sessions.json`, 0600). A daemon that
// shuts down deletes it; a daemon that finds one at start knows its predecessor died without
// shutting down (kill -9, OOM) and reports those sessions as lost, after killing any of their
// programs still running (ones that ignore SIGHUP outlive their terminal).
import { readFileSync, writeFileSync } from "../runtime/node-fs.ts";
import { processStartTime } from "../runtime/process-start-time.ts";
import { removeIfPresent } from "./socket-security.ts";

export type LedgerSession = { name: string; pid: number; argv: string[]; cast: string | null; startedAt: string };
type LedgerEntry = LedgerSession & { pidStart: string | null };
export type LostSession = LedgerSession & { killed: boolean };

export function ledgerPath(socketPath: string): string {
  return `${socketPath}.sessions.json`;
}

/** How long a dead daemon's leftover program gets after SIGHUP before SIGKILL. */
const LEFTOVER_GRACE_MS = 300;

/** Ends a dead daemon's leftover program as a closing terminal would: SIGHUP to its group, so it
 * can clean up (a lock or swap file: a shell's pyenv rehash killed outright leaves its lock and
 * every later shell waits on it), then SIGKILL if it is still there after a short grace. */
function killLeftover(entry: LedgerEntry): boolean {
  const alive = () => entry.pidStart !== null && processStartTime(entry.pid) === entry.pidStart;
  if (!alive()) return false;
  const signal = (name: NodeJS.Signals): boolean => {
    for (const target of [-entry.pid, entry.pid]) {
      try {
        process.kill(target, name);
        return true;
      } catch { /* no such group: try the process */ }
    }
    return false;
  };
  if (!signal("SIGHUP")) return false;
  const deadline = Date.now() + LEFTOVER_GRACE_MS;
  while (alive() && Date.now() < deadline) Bun.sleepSync(10);
  if (alive()) signal("SIGKILL");
  return true;
}

function readLedger(path: string): LedgerEntry[] {
  try {
    const entries = JSON.parse(readFileSync(path, "utf8"));
    return Array.isArray(entries) ? entries : [];
  } catch {
    return [];
  }
}

function asLost({ pidStart: _, ...session }: LedgerEntry, killed: boolean): LostSession {
  return { ...session, killed };
}

/** What a client sees with no daemon running: the dead daemon's sessions, not yet cleaned up. */
export function peekLost(socketPath: string): LostSession[] {
  return readLedger(ledgerPath(socketPath)).map((entry) => asLost(entry, false));
}

export class SessionLedger {
  readonly #path: string;
  #written = "";
  /** Start times by pid, read once per program. */
  readonly #pidStarts = new Map<number, string | null>();

  constructor(socketPath: string) {
    this.#path = ledgerPath(socketPath);
  }

  /** The sessions a dead predecessor left; their programs are killed and the ledger cleared. */
  recover(): LostSession[] {
    const entries = readLedger(this.#path);
    removeIfPresent(this.#path);
    return entries.map((entry) => asLost(entry, killLeftover(entry)));
  }

  /** Writes the live sessions when they changed. */
  record(sessions: LedgerSession[]): void {
    const live = new Set(sessions.map((s) => s.pid));
    for (const pid of this.#pidStarts.keys()) if (!live.has(pid)) this.#pidStarts.delete(pid);
    const entries = sessions.map((s) => {
      if (!this.#pidStarts.has(s.pid)) this.#pidStarts.set(s.pid, processStartTime(s.pid));
      return { ...s, pidStart: this.#pidStarts.get(s.pid)! };
    });
    const text = JSON.stringify(entries);
    if (text === this.#written) return;
    writeFileSync(this.#path, text, { mode: 0o600 });
    this.#written = text;
  }

  remove(): void {
    removeIfPresent(this.#path);
  }
}
