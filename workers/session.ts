// Session worker entry: hosts one session (lib/worker: a core and its facets) and answers the
// daemon's calls from its op table.
import { asTuiwrightError } from "../lib/protocol/errors.ts";
import type { DaemonToWorker, WorkerOpTable, WorkerToDaemon } from "../lib/link/messages.ts";
import { startSession } from "../lib/worker/ops.ts";
import { prewarm } from "../lib/worker/prewarm.ts";

declare const self: Worker;

let ops: WorkerOpTable | undefined;

// A worker with no session yet (the daemon's spare) warms up while it waits; one whose session
// is already starting does not spend the time.
setTimeout(() => { if (!ops) void prewarm(); }, 0);

function send(message: WorkerToDaemon): void {
  self.postMessage(message);
}

/** Calls in flight, by call id: the daemon cancels one when its caller hangs up (waits heed it). */
const inFlight = new Map<number, AbortController>();

self.onmessage = async (event: MessageEvent<DaemonToWorker>) => {
  const message = event.data;
  if (message.kind === "start") {
    try {
      const session = startSession(message.spec, send);
      ops = session.ops;
      send({ kind: "started", pid: session.pid });
    } catch (error) {
      send({ kind: "start-failed", error: asTuiwrightError(error).toJsonRpc() });
    }
    return;
  }
  if (message.kind === "cancel") {
    inFlight.get(message.id)?.abort();
    return;
  }
  const controller = new AbortController();
  inFlight.set(message.id, controller);
  try {
    if (!ops) throw new Error("the session has not started");
    // The one untyped step: the daemon's handle typed the params by op when it sent them.
    const op = ops[message.op] as (params: unknown, signal: AbortSignal) => unknown;
    const result = await op(message.params, controller.signal);
    send({ kind: "reply", id: message.id, result });
  } catch (error) {
    send({ kind: "reply", id: message.id, error: asTuiwrightError(error).toJsonRpc() });
  } finally {
    inFlight.delete(message.id);
  }
};
