// Session worker entry: one thread hosting several sessions (lib/worker: a core and its facets
// each), answering the daemon's calls from each session's op table. Messages name the session's
// slot in this thread (lib/link/worker-host.ts is the daemon's side).
//
// What the sessions of one thread share: the thread, its event loop and its heap. A session's
// code that throws — in a call, a timer or its PTY's callbacks — ends that session alone
// (lib/runtime/fault-scope.ts pins the fault on it); a fault that names no session (a promise
// rejected with no handler) ends the thread, and the daemon reports each of its sessions crashed.
import { asTuiwrightError, shortMessage } from "../lib/protocol/errors.ts";
import type { DaemonToWorker, SessionMessage, WorkerOpTable, WorkerToDaemon } from "../lib/link/messages.ts";
import { currentSession, handleSessionFaults, inSessionScope } from "../lib/runtime/fault-scope.ts";
import { discardWarmStart, prepareWarmStart, startSession } from "../lib/worker/ops.ts";
import { prewarm } from "../lib/worker/prewarm.ts";

declare const self: Worker;

type Hosted = {
  ops: WorkerOpTable;
  /** The program's end (its PTY's process), told to the daemon even after the session crashed. */
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** Calls in flight, by call id: the daemon cancels one when its caller hangs up (waits heed it). */
  inFlight: Map<number, AbortController>;
};

const sessions = new Map<number, Hosted>();
/** A thread that has hosted a session does not spend time warming up. */
let hostedAny = false;

// A new thread waits for its first session (the daemon loads one ahead): it warms up meanwhile.
setTimeout(() => { if (!hostedAny) void prewarm(); }, 0);

function send(message: WorkerToDaemon): void {
  self.postMessage(message);
}

const reasonOf = (error: unknown) => shortMessage(error instanceof Error ? error.message : String(error));

/** Ends one session whose code threw: its screen and PTY are closed (its program gets SIGHUP),
 * its calls are dropped, and the daemon is told — and later how its program ended (this thread
 * reaps it: the daemon cannot). */
function crashSession(slot: number, error: unknown): void {
  const hosted = sessions.get(slot);
  if (!hosted) return;
  sessions.delete(slot);
  for (const controller of hosted.inFlight.values()) controller.abort();
  send({ kind: "crashed", slot, reason: reasonOf(error) });
  void hosted.exited.then((exit) => send({ kind: "ended", slot, exit }), () => undefined);
  // Its state may be half-changed: whatever its disposal throws is of no further use.
  try { void Promise.resolve(hosted.ops.dispose({}, new AbortController().signal)).catch(() => undefined); } catch { /* ended anyway */ }
}

/** A fault no session can be blamed for: the thread ends, so nothing runs on in a state it left. */
function threadFailed(error: unknown): void {
  send({ kind: "thread-failed", reason: reasonOf(error) });
  process.exit(1);
}

handleSessionFaults(crashSession);
process.on("uncaughtException", (error) => {
  const slot = currentSession();
  if (slot !== undefined && sessions.has(slot)) crashSession(slot, error);
  else threadFailed(error);
});
process.on("unhandledRejection", threadFailed);

function start(message: Extract<DaemonToWorker, { kind: "start" }>): void {
  const { slot } = message;
  hostedAny = true;
  inSessionScope(slot, () => {
    try {
      const session = startSession(message.spec, (event) => send({ ...event, slot } as SessionMessage));
      sessions.set(slot, { ops: session.ops, exited: session.exited, inFlight: new Map() });
      send({ kind: "started", slot, pid: session.pid });
    } catch (error) {
      send({ kind: "start-failed", slot, error: asTuiwrightError(error).toJsonRpc() });
    }
  });
}

async function call(message: Extract<DaemonToWorker, { kind: "call" }>): Promise<void> {
  const { slot, id } = message;
  const hosted = sessions.get(slot);
  if (!hosted) {
    send({ kind: "reply", slot, id, error: asTuiwrightError(new Error("the session is not in this worker")).toJsonRpc() });
    return;
  }
  const controller = new AbortController();
  hosted.inFlight.set(id, controller);
  try {
    // The one untyped step: the daemon's handle typed the params by op when it sent them.
    const op = hosted.ops[message.op] as (params: unknown, signal: AbortSignal) => unknown;
    const result = await op(message.params, controller.signal);
    if (sessions.get(slot) === hosted) send({ kind: "reply", slot, id, result });
  } catch (error) {
    if (sessions.get(slot) === hosted) send({ kind: "reply", slot, id, error: asTuiwrightError(error).toJsonRpc() });
  } finally {
    hosted.inFlight.delete(id);
    // Disposed: the slot is free and the session's objects are the collector's.
    if (message.op === "dispose") sessions.delete(slot);
  }
}

self.onmessage = (event: MessageEvent<DaemonToWorker>) => {
  const message = event.data;
  switch (message.kind) {
    case "start": start(message); return;
    case "cancel": sessions.get(message.slot)?.inFlight.get(message.id)?.abort(); return;
    case "call": void inSessionScope(message.slot, () => call(message)); return;
    case "warm": {
      const pid = prepareWarmStart(message.cgroup);
      if (pid !== null) send({ kind: "warmed", pid });
      return;
    }
    case "unwarm": discardWarmStart(); return;
  }
};
