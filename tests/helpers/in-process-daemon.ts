// The daemon's dispatch and its real handlers, in this process, with sessions whose workers are
// fakes: each answers the ops it is given (and records every call), so a test of what the daemon
// does between a JSON-RPC call and the worker — routing, params, leases, names, errors — runs in
// milliseconds, with no socket, worker thread or PTY. What the worker itself does is the e2e
// tests' business.
import { createDispatch } from "../../lib/daemon/dispatch.ts";
import { DaemonSecrets } from "../../lib/daemon/daemon-secrets.ts";
import { DesktopConnections } from "../../lib/daemon/desktop-handlers.ts";
import { EventHub } from "../../lib/daemon/event-hub.ts";
import { createHandlers, type DaemonContext } from "../../lib/daemon/handlers.ts";
import { LeaseTable } from "../../lib/daemon/lease-table.ts";
import { type SessionEntry, SessionRegistry } from "../../lib/daemon/registry.ts";
import type { WorkerOp } from "../../lib/link/messages.ts";
import { WorkerPool } from "../../lib/link/worker-pool.ts";
import { TuiwrightError } from "../../lib/protocol/errors.ts";
import type { Connection } from "../../lib/runtime/unix-socket.ts";

/** `cancellable`: the call came with a signal that aborts when its caller hangs up. */
export type OpCall = { op: string; params: unknown; cancellable?: true };
type OpAnswers = Partial<Record<WorkerOp, (params: any) => unknown>>;

/** A session worker that answers from a table of ops; an op it was not given fails the call. */
export class FakeWorker {
  readonly calls: OpCall[] = [];
  constructor(readonly pid: number, readonly ops: OpAnswers) {}

  async call(op: WorkerOp, params: unknown, signal?: AbortSignal): Promise<any> {
    this.calls.push({ op, params, ...(signal ? { cancellable: true as const } : {}) });
    const answer = this.ops[op];
    if (!answer) throw new TuiwrightError("internal", `the fake worker was given no op ${JSON.stringify(op)}`);
    return answer(params);
  }
}

let nextConnection = 1;
/** A client connection; what the daemon sends it (events, notifications) is kept in `sent`. */
export function fakeConnection(): Connection & { sent: string[] } {
  const sent: string[] = [];
  return { id: nextConnection++, sent, send: (data) => void sent.push(String(data)), end() {}, queuedBytes: 0 };
}

export function inProcessDaemon() {
  const registry = new SessionRegistry();
  const context: DaemonContext = {
    namespace: "in-process",
    socketPath: "/nonexistent/in-process.sock",
    startedAt: new Date(),
    idleTimeoutMs: 0,
    debug: false,
    maxCastBytes: 0,
    secrets: new DaemonSecrets(),
    registry,
    events: new EventHub(),
    leases: new LeaseTable(() => {}),
    shutdown: async () => 0,
    sessionsChanged() {},
    hungUp: () => new AbortController().signal,
    lost: [],
    desktops: new DesktopConnections(),
    containment: { release() {} } as unknown as DaemonContext["containment"],
    workers: new WorkerPool(1, () => false), // never filled: the fake workers here are no threads
    serveAgent: async () => () => {},
  };
  const dispatch = createDispatch(createHandlers(context), context.namespace);
  let nextPid = 90_000;
  return {
    context,
    /** The daemon's dispatch, as its socket server calls it (tests serve it on a socket of their own). */
    dispatch,
    /** One JSON-RPC call as a client on `connection` makes it. */
    call: (method: string, params: unknown, connection: Connection = fakeConnection()) => dispatch(method, params, { connection }),
    /** A running program session named `name` whose worker answers `ops`. */
    addSession(name: string, ops: OpAnswers = {}, argv = ["cat"]): FakeWorker {
      const worker = new FakeWorker(nextPid++, ops);
      const entry: SessionEntry = {
        name, worker: worker as unknown as SessionEntry["worker"], argv, cwd: "/", cols: 80, rows: 24,
        startedAt: new Date().toISOString(), revision: 1, hash: "h1", title: "", exit: null, crashed: null, cast: null,
        spawnParams: { argv, session: name } as SessionEntry["spawnParams"], ended: new Promise(() => {}),
        bounds: { mark: `m-${name}`, cgroup: null, taskLimit: null },
      };
      registry.add(entry);
      return worker;
    },
  };
}
