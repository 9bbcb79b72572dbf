// The daemon's life: a safe socket, pid/version file, ready line, idle exit, clean shutdown.
// After the ready line nothing is written to stdout (the starter stops reading it); logs go
// to stderr, which the starter points at the state directory's daemon.log.
import { writeFileSync } from "node:fs";
import { shortMessage, TuiwrightError } from "../protocol/errors.ts";
import { version } from "../runtime/self.ts";
import type { Connection } from "../runtime/unix-socket.ts";
import { RpcClient } from "../transport/rpc-client.ts";
import { checkSocketPathLength } from "../transport/socket-path-length.ts";
import { serveJsonRpc } from "../transport/rpc-server.ts";
import { checkSocketDir, checkSocketFile, removeIfPresent } from "../transport/socket-security.ts";
import { createDispatch } from "./dispatch.ts";
import { claimAgentSocket, ownSocket, pinnedDispatch } from "./agent-socket.ts";
import { EventHub } from "./event-hub.ts";
import { createHandlers, type DaemonContext } from "./handlers.ts";
import { DaemonSecrets } from "./daemon-secrets.ts";
import { DesktopConnections } from "./desktop-handlers.ts";
import { listDesktops } from "../desktop/runtime.ts";
import { LeaseTable } from "./lease-table.ts";
import { SessionRegistry } from "./registry.ts";
import { SessionLedger } from "../transport/session-ledger.ts";
import { terminateSession } from "./terminate.ts";
import { Containment } from "./containment.ts";
import { defaultWorkerThreads, WorkerPool } from "../link/worker-pool.ts";
import { setting } from "../runtime/settings.ts";

export type DaemonOptions = {
  namespace: string; socketPath: string; idleTimeoutMs: number; debug: boolean;
  /** Each recording's size cap (0: none; the retention policy's max_cast_bytes). */
  maxCastBytes: number;
  /** Runs once the socket is ours and before any request is read (retention); gets the names of
   * a crashed predecessor's sessions, whose files must stay. */
  atStart?: (lostSessions: string[]) => void;
};

const SHUTDOWN_GRACE_MS = 1000;

function log(message: string): void {
  process.stderr.write(`${new Date().toISOString()} [${process.pid}] ${message}\n`);
}

/** True when a live daemon answers on the socket; a dead one's socket is removed. */
async function claimSocket(socketPath: string): Promise<boolean> {
  checkSocketPathLength(socketPath);
  checkSocketFile(socketPath);
  try {
    const client = await RpcClient.connect(socketPath);
    client.close();
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ECONNREFUSED") {
      log(`removing stale socket ${socketPath}`);
      removeIfPresent(socketPath);
    } else if (code !== "ENOENT") {
      throw error;
    }
    return false;
  }
}

export async function runDaemon(options: DaemonOptions): Promise<number> {
  const { socketPath } = options;
  try {
    checkSocketDir(socketPath, { create: true });
    if (await claimSocket(socketPath)) {
      process.stdout.write(`already-running socket=${socketPath}\n`);
      return 0;
    }
  } catch (error) {
    const message = error instanceof TuiwrightError ? error.message : String(error);
    process.stdout.write(`error ${message}\n`);
    log(message);
    return error instanceof TuiwrightError ? error.exitCode : 70;
  }

  const registry = new SessionRegistry();
  const events = new EventHub();
  const leases = new LeaseTable((session, owner) => {
    const entry = registry.get(session);
    events.publish({ type: "lease", session, revision: entry?.revision ?? 0, hash: entry?.hash ?? "", at: new Date().toISOString(), owner });
  });
  const connections = new Map<Connection, AbortController>();
  const pidFile = `${socketPath}.pid`;
  const ledger = new SessionLedger(socketPath);
  const lost = ledger.recover();
  if (lost.length > 0) log(`the previous daemon died with ${lost.length} session(s): ${lost.map((s) => s.name).join(", ")}`);
  const containment = await Containment.start(options.namespace, log);
  const workers = new WorkerPool(setting("workerThreads") ?? defaultWorkerThreads(), () => containment.roomForSpare(), () => containment.aheadCgroup());
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let stopping: Promise<number> | undefined;

  const exitSoon = () => setTimeout(() => process.exit(0), 20);

  const shutdown = (): Promise<number> => {
    stopping ??= (async () => {
      log(`shutting down with ${registry.all().length} session(s)`);
      workers.close();
      const sessions = registry.all();
      await Promise.all(sessions.map((entry) => terminateSession(entry, "SIGHUP", SHUTDOWN_GRACE_MS, containment).catch(() => undefined)));
      const strays = await containment.close().catch(() => []);
      if (strays.length > 0) log(`processes ${strays.join(", ")} survived SIGKILL`);
      // Unlink before answering, so whoever asked sees the socket gone once we reply.
      // Best effort: a file we cannot remove must not keep the daemon from stopping.
      for (const [what, remove] of [["socket", () => removeIfPresent(socketPath)], ["pid file", () => removeIfPresent(pidFile)], ["ledger", () => ledger.remove()]] as const) {
        try { remove(); } catch (error) { log(`cannot remove the ${what}: ${(error as { code?: string }).code ?? shortMessage(String(error))}`); }
      }
      exitSoon();
      return sessions.length;
    })();
    return stopping;
  };

  // The idle exit needs no sessions and no clients: re-armed whenever either changes.
  const rearmIdleTimer = () => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (registry.size === 0 && connections.size === 0 && listDesktops().length === 0 && options.idleTimeoutMs > 0) {
      idleTimer = setTimeout(() => { log("idle timeout"); void shutdown(); }, options.idleTimeoutMs);
    }
  };

  const desktops = new DesktopConnections();
  let ledgerError: string | null = null;
  const sessionsChanged = () => {
    try {
      ledger.record(registry.all().map((e) => ({ name: e.name, pid: e.worker.pid, argv: e.argv, cast: e.cast, startedAt: e.startedAt })));
      ledgerError = null;
    } catch (error) {
      // A full disk must not fail the spawn or kill that changed the sessions: the ledger only
      // matters if this daemon dies; say so once per failure spell.
      const why = (error as { code?: string }).code ?? shortMessage(String((error as Error).message ?? error));
      if (ledgerError !== why) log(`cannot write the session ledger (${why}); sessions are not recorded for recovery until it works again`);
      ledgerError = why;
    }
    rearmIdleTimer();
  };

  /** Agent sockets listening now (removed at exit, as the main socket is). */
  const agentSockets = new Set<string>();
  const context: DaemonContext = {
    namespace: options.namespace,
    socketPath,
    startedAt: new Date(),
    idleTimeoutMs: options.idleTimeoutMs,
    debug: options.debug,
    maxCastBytes: options.maxCastBytes,
    secrets: new DaemonSecrets(),
    registry,
    events,
    leases,
    shutdown,
    sessionsChanged,
    hungUp: (connection) => connections.get(connection)?.signal ?? AbortSignal.abort(),
    lost,
    desktops,
    containment,
    workers,
    serveAgent: async () => { throw new TuiwrightError("internal", "agent sockets are not served yet"); },
  };

  const dispatch = createDispatch(createHandlers(context), options.namespace);
  const hooks = {
    opened(connection: Connection) { connections.set(connection, new AbortController()); rearmIdleTimer(); },
    closed(connection: Connection) {
      connections.get(connection)?.abort();
      connections.delete(connection);
      events.dropConnection(connection);
      leases.dropConnection(connection);
      desktops.dropConnection(connection);
      rearmIdleTimer();
    },
    dropped(connection: Connection, reason: string) { log(`closing connection ${connection.id}: ${reason}`); },
  };
  const listen = (path: string, served: typeof dispatch) => {
    const previousUmask = process.umask(0o077);
    try {
      return serveJsonRpc(path, served, hooks);
    } finally {
      process.umask(previousUmask);
    }
  };
  // A browser's agent socket: the same calls, a session's by default; gone with the session.
  context.serveAgent = async (path, session) => {
    await claimAgentSocket(path);
    const server = listen(path, pinnedDispatch(dispatch, session));
    log(`agent socket ${path} for session ${session}`);
    agentSockets.add(path);
    return () => {
      server.stop();
      if (agentSockets.delete(path) && ownSocket(path)) removeIfPresent(path);
    };
  };
  listen(socketPath, dispatch);
  options.atStart?.(lost.map((session) => session.name));
  writeFileSync(pidFile, JSON.stringify({ pid: process.pid, version: version(), socket: socketPath, startedAt: context.startedAt.toISOString() }) + "\n", { mode: 0o600 });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void shutdown());
  process.on("exit", () => {
    // Last resort (e.g. process.exit elsewhere): never leave a socket that looks alive.
    if (!stopping) { removeIfPresent(socketPath); removeIfPresent(pidFile); }
    for (const path of agentSockets) if (ownSocket(path)) removeIfPresent(path);
  });
  log(`listening on ${socketPath} (version ${version()})`);
  process.stdout.write(`ready pid=${process.pid} version=${version()} socket=${socketPath}\n`);
  // After the ready line: the first spawn's thread loads while its client connects.
  workers.fill();
  sessionsChanged();
  await new Promise(() => {}); // runs until shutdown exits the process
  return 0;
}
