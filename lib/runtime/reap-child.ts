// Reaping a child whose waiter is gone: a session's program after its worker crashed (the worker
// that spawned it, and would have waited for it, is gone), or a process that was orphaned inside
// a session and re-parented to the daemon (the child subreaper). Non-blocking waitpid(2) for that
// one pid only — never for a program whose worker is alive, which reaps its own children.
import { decodeWaitStatus, libc, WNOHANG } from "./libc.ts";

export type Reaped = { code: number | null; signal: string | null };

/** Exit statuses reaped here and not asked for yet: whichever of the subreaper and a crashed
 * session's clean-up reaps a program first, the other still learns how it ended. */
const recent = new Map<number, Reaped>();
const RECENT_MAX = 256;

/** The child's exit status if it has exited (and is now reaped); null if it has not, or when
 * there is no libc to ask (the zombie then stays until the daemon exits). */
export function reapChild(pid: number): Reaped | null {
  const known = recent.get(pid);
  if (known) {
    recent.delete(pid);
    return known;
  }
  return waitFor(pid);
}

/** Reaps an orphan nobody asked about (yet): its status is kept for a later reapChild. */
export function reapAndKeep(pid: number): void {
  const reaped = waitFor(pid);
  if (!reaped) return;
  recent.set(pid, reaped);
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
}

function waitFor(pid: number): Reaped | null {
  const lib = libc();
  if (!lib) return null;
  const status = new Int32Array(1);
  if (lib.waitpid(pid, status, WNOHANG) !== pid) return null;
  return decodeWaitStatus(status[0]!);
}
