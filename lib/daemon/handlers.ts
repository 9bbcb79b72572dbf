// Every method's implementation, as one object checked against the method table: a method
// without a handler, or a handler returning the wrong shape, fails type-checking.
import type { Connection } from "../runtime/unix-socket.ts";
import type { LostSession } from "../transport/session-ledger.ts";
import { rmSync } from "node:fs";
import { TuiwrightError, asTuiwrightError } from "../protocol/errors.ts";
import { stateLocation } from "../runtime/paths.ts";
import { ensureOwnedSubdir } from "../runtime/owned-dir.ts";
import { ERRORS } from "../protocol/errors.ts";
import type { ExitStatusValue, Params } from "../protocol/methods.ts";
import { normalizeSignal } from "../runtime/process.ts";
import { version } from "../runtime/self.ts";
import { heapReport } from "../runtime/heap-report.ts";
import { SessionWorker } from "../link/worker-handle.ts";
import type { WorkerPool } from "../link/worker-pool.ts";
import { KEY_NAMES } from "../terminal/keys.ts";
import type { Handlers } from "./dispatch.ts";
import type { EventHub } from "./event-hub.ts";
import type { LeaseTable } from "./lease-table.ts";
import type { SessionEntry, SessionRegistry } from "./registry.ts";
import type { DaemonSecrets } from "./daemon-secrets.ts";
import type { ShellContinuation, StartSpec } from "../link/messages.ts";
import { shellLaunch } from "./shell-launch.ts";
import { methodList } from "../protocol/method-list.ts";
import { SnapshotFormat } from "../protocol/schemas.ts";
import { DEFAULT_SIZE } from "../protocol/spawn-size.ts";
import { claimAgentSocket } from "./agent-socket.ts";
import { withBrowserRestart, type Wedge } from "./browser-restart.ts";
import { startAgainAfter } from "./browser-start-crash.ts";
import { passThroughHandlers } from "./pass-through.ts";
import { carbonylArgv, findCarbonyl } from "../browser/find-carbonyl.ts";
import { withChromiumFlags } from "../browser/chromium-flags.ts";
import { browserUrl } from "../browser/url.ts";
import { signalSessionGroups, terminateSession } from "./terminate.ts";
import { SESSION_MARK, type Containment, type SessionBounds } from "./containment.ts";
import { createDesktopHandlers, type DesktopConnections } from "./desktop-handlers.ts";
import { checkMemoryBudget, type SizedSession } from "./memory-budget.ts";
import { refuseNul } from "../runtime/nul-check.ts";

export type DaemonContext = {
  namespace: string;
  socketPath: string;
  startedAt: Date;
  idleTimeoutMs: number;
  debug: boolean;
  /** Each recording's size cap (0: none). */
  maxCastBytes: number;
  /** --secrets typed in any session, masked in all (memory only). */
  secrets: DaemonSecrets;
  registry: SessionRegistry;
  events: EventHub;
  leases: LeaseTable;
  /** Kills every session and stops listening; returns how many sessions were killed. */
  shutdown(): Promise<number>;
  sessionsChanged(): void;
  /** Aborts when the connection closes: what it was waiting for is no longer wanted. */
  hungUp(connection: Connection): AbortSignal;
  /** Sessions of a previous daemon that died without shutting down. */
  lost: LostSession[];
  /** AOTUI desktops' subscriptions and input locks, per connection. */
  desktops: DesktopConnections;
  /** Bounds every session's processes and finds them all (cgroups, limits, marks). */
  containment: Containment;
  /** The session worker threads (worker-pool.ts): shared by programs and shells, one per browser. */
  workers: WorkerPool;
  /** Serves the socket API on `path` with `session` as the default session; returns its stop. */
  serveAgent(path: string, session: string): Promise<() => void>;
};

const FALLBACK_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";

function spawnEnvironment(env: Record<string, string> | undefined): Record<string, string> {
  const base = env ?? { PATH: FALLBACK_PATH, HOME: process.env.HOME ?? "/", LANG: process.env.LANG ?? "C.UTF-8" };
  return { ...base, TERM: base.TERM ?? "xterm-256color" };
}

const now = () => new Date().toISOString();
/** How long a crashed worker's programs get after SIGHUP before SIGKILL. */
const CRASH_GRACE_MS = 500;
/** The longest `browse` waits for the browser's engine and its first page on the screen (under
 * the client's own patience, so the error names the browser rather than the daemon). */
const BROWSER_READY_MS = 25_000;
/** The longest spawn waits for a program's first screen. */
const FIRST_SCREEN_BOUND_MS = 3000;

/** A new file per session start: `<state>/casts/<session>-<UTC time>.cast`. */
function defaultCastPath(namespace: string, session: string): string {
  const dir = ensureOwnedSubdir(stateLocation(namespace), "casts", "state directory");
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(".", "");
  return `${dir}/${session}-${stamp}.cast`;
}

/** Records an action the daemon performs itself (signals) in the session's cast. */
async function markInCast(entry: SessionEntry, label: string): Promise<void> {
  if (entry.exit || entry.crashed) return;
  await entry.worker.call("mark", { label }).catch(() => undefined);
}

const sized = (entry: SessionEntry): SizedSession => ({ name: entry.name, cols: entry.cols, rows: entry.rows, scrollback: entry.spawnParams.scrollback });

/** `continues`: a reset shell's output cursor and block numbers go on from the session it replaces. */
async function startSession(context: DaemonContext, params: Params<"spawn">, continues?: ShellContinuation): Promise<SessionEntry> {
  const { registry, events } = context;
  const given = [params.argv, params.shell, params.browser].filter((source) => source !== undefined).length;
  if (given !== 1) throw new TuiwrightError("usage", given === 0 ? "spawn needs a program (argv), --shell or --browser" : "give one of a program (argv), --shell or --browser");
  refuseNul(params.argv ?? [], params.env, params.cwd);
  let env = spawnEnvironment(params.env);
  const browser = params.browser !== undefined;
  // Checked before the name is taken: a missing browser or a bad URL reserves nothing.
  let argv = browser ? withChromiumFlags(carbonylArgv(findCarbonyl(env), browserUrl(params.browser!))) : params.argv;
  const name = registry.reserve(params.session, params.argv ?? [browser ? "browser" : params.shell === "auto" ? "shell" : params.shell ?? "session"]);
  let markEnded!: () => void;
  const ended = new Promise<void>((resolve) => { markEnded = resolve; });
  const cwd = params.cwd ?? process.env.HOME ?? "/";
  const cols = params.cols ?? DEFAULT_SIZE[browser ? "browser" : "program"].cols;
  const rows = params.rows ?? DEFAULT_SIZE[browser ? "browser" : "program"].rows;
  let shell: StartSpec["shell"] = null;
  let cast: string | null = null;
  let rcDir: string | null = null;
  let entry: SessionEntry | undefined;
  let bounds: SessionBounds | null = null;
  try {
    checkMemoryBudget({ name, cols, rows, scrollback: params.scrollback }, registry.all().map(sized), `session ${JSON.stringify(name)}`);
    bounds = context.containment.bounds(name, !browser);
    cast = params.record ? (params.cast ?? defaultCastPath(context.namespace, name)) : null;
    if (params.shell) {
      const launch = shellLaunch(params.shell, params.integration, env, stateLocation(context.namespace), name);
      ({ argv, env, shell } = { argv: launch.argv, env: launch.env, shell: continues === undefined ? launch.shell : { ...launch.shell, continues } });
      rcDir = launch.rcDir ?? null;
    }
    const worker = await SessionWorker.start(
      { name, argv: argv!, cwd, env: { ...env, [SESSION_MARK]: bounds.mark }, cols, rows, scrollback: params.scrollback, cast, maxCastBytes: context.maxCastBytes, secrets: context.secrets.all(), shell, browser, cgroup: bounds.cgroup, taskLimit: bounds.taskLimit },
      {
        event(event) {
          switch (event.kind) {
            case "changed": {
              if (!entry) return;
              const { revision, hash, title } = event;
              const titleChanged = title !== entry.title;
              entry.revision = revision;
              entry.hash = hash;
              entry.title = title;
              events.publish({ type: "screen", session: name, revision, hash, at: now() });
              if (titleChanged) events.publish({ type: "title", session: name, revision, hash, at: now(), title });
              return;
            }
            case "bell": events.publish({ type: "bell", session: name, revision: event.revision, hash: event.hash, at: now() }); return;
            case "secret": context.secrets.add(event.secret, name, context.registry); return;
            case "resized":
              // The registry's size follows the screen's (a resize, a browser's nudge).
              if (entry) { entry.cols = event.cols; entry.rows = event.rows; }
              events.publish({ type: "resize", session: name, revision: event.revision, hash: event.hash, at: now(), cols: event.cols, rows: event.rows }); return;
            case "ended":
              if (entry) entry.exit = event.exit;
              // A crashed session's program ending later: its exit was published at the crash.
              if (entry?.crashed) return;
              markEnded();
              events.publish({ type: "exit", session: name, revision: entry?.revision ?? 0, hash: entry?.hash ?? "", at: now(), exit: event.exit });
              return;
          }
        },
        crashed(reason) {
          if (entry) entry.crashed = reason;
          // The PTY's owner is gone: its programs must not linger. SIGHUP first, as when a
          // terminal closes (they may clean up: lock and swap files), then SIGKILL.
          if (entry && !entry.exit) {
            const pid = entry.worker.pid;
            signalSessionGroups(pid, "SIGHUP");
            setTimeout(() => signalSessionGroups(pid, "SIGKILL"), CRASH_GRACE_MS).unref();
          }
          markEnded();
          events.publish({ type: "exit", session: name, revision: entry?.revision ?? 0, hash: entry?.hash ?? "", at: now(), exit: null });
        },
      },
      context.workers,
    );
    entry = {
      name, worker, argv: argv!, cwd, cols, rows,
      startedAt: new Date().toISOString(), revision: 0, hash: "", title: "", exit: null, crashed: null, cast, ended,
      spawnParams: { ...params, session: name }, bounds,
    };
    registry.add(entry);
    context.sessionsChanged();
    return entry;
  } catch (error) {
    // A spawn that failed leaves nothing behind: not its (default-named) cast, rc or transcript.
    if (cast && params.cast === undefined) rmSync(cast, { force: true });
    if (shell) rmSync(shell.transcriptDir, { recursive: true, force: true });
    if (rcDir) rmSync(rcDir, { recursive: true, force: true });
    if (bounds) context.containment.release(bounds);
    throw error;
  } finally {
    registry.release(name);
  }
}

export function createHandlers(context: DaemonContext): Handlers {
  const { registry, leases, events } = context;
  /** The session an input method targets, once its write lease (if any) allows the caller. */
  const writable = (session: string | undefined, lease: string | undefined) => {
    const entry = registry.resolve(session);
    leases.check(entry.name, lease);
    return entry;
  };
  /** A wedged or crashed browser, started again in its session at its history (browser-restart.ts). */
  const restartBrowser = async (wedge: Wedge) => {
    const entry = registry.resolve(wedge.session);
    await markInCast(entry, wedge.crash ? `restart: the browser crashed (${wedge.crash.why})` : `restart: the browser was wedged for ${wedge.wedgedMs} ms`);
    await terminateSession(entry, "SIGKILL", 0, context.containment);
    registry.remove(entry.name);
    const first = wedge.history.entries[0] ?? wedge.url;
    const fresh = await startSession(context, { ...entry.spawnParams, browser: first, cols: entry.cols, rows: entry.rows });
    context.workers.fill();
    await fresh.worker.call("browserReady", { timeoutMs: BROWSER_READY_MS });
    await fresh.worker.call("browserRestore", { entries: wedge.history.entries, index: wedge.history.index, timeoutMs: BROWSER_READY_MS * 2 });
    if (entry.spawnParams.agentSocket !== undefined) {
      const stop = await context.serveAgent(entry.spawnParams.agentSocket, fresh.name);
      void fresh.ended.then(stop);
    }
  };
  return withBrowserRestart({
    // Every method the table marks `forward: true`: to the session's worker, whose kind answers it.
    ...passThroughHandlers(registry, writable, context.hungUp, {
      // The memory budget spans every session: the daemon checks it before a resize goes on.
      resize: (entry, { cols, rows }) => checkMemoryBudget({ ...sized(entry), cols, rows }, registry.all().filter((e) => e !== entry).map(sized), `resizing ${JSON.stringify(entry.name)} to ${cols}x${rows}`),
    }),
    ...createDesktopHandlers(context.desktops, context.sessionsChanged, context.registry, context.events, context.leases),

    async ping() {
      return { pong: true, version: version(), pid: process.pid };
    },

    async capabilities() {
      const { toJsonSchema } = await import("@valibot/to-json-schema");
      const schema = (s: Parameters<typeof toJsonSchema>[0]) => toJsonSchema(s, { errorMode: "ignore" });
      return {
        version: version(),
        methods: methodList(schema),
        formats: SnapshotFormat.options,
        keys: KEY_NAMES,
        errors: Object.entries(ERRORS).map(([name, entry]) => ({ name, ...entry })),
      };
    },

    async "daemon.status"() {
      return {
        pid: process.pid,
        version: version(),
        namespace: context.namespace,
        socket: context.socketPath,
        startedAt: context.startedAt.toISOString(),
        uptimeMs: Date.now() - context.startedAt.getTime(),
        idleTimeoutMs: context.idleTimeoutMs,
        sessions: registry.size,
        pendingCalls: registry.all().reduce((sum, entry) => sum + entry.worker.pendingCalls, 0),
        rssBytes: process.memoryUsage().rss,
        containment: context.containment.info(),
        spareWorker: context.workers.ready,
        warmStart: context.workers.warmStart,
        workerThreads: context.workers.threads,
      };
    },

    async "daemon.stop"() {
      const sessionsKilled = await context.shutdown();
      return { stopped: true, sessionsKilled };
    },

    async spawn(params) {
      try {
        if (params.agentSocket !== undefined && (params.browser === undefined || params.noWait)) {
          throw new TuiwrightError("usage", params.browser === undefined ? "--agent-socket goes with a browser session (browse URL)" : "--agent-socket waits for the browser: leave out --no-wait");
        }
        // A path that cannot be the agent socket starts nothing.
        if (params.agentSocket !== undefined) await claimAgentSocket(params.agentSocket);
        let entry = await startSession(context, params);
        if (params.browser !== undefined && !params.noWait) {
          // Return once the browser's engine has loaded the first page and the screen shows it; a
          // browser that never answers or never draws is an error naming it, and is not left behind.
          // One that crashed itself meanwhile, or whose screen never drew, is started once more
          // (browser-start-crash.ts).
          let restarted: { exit: ExitStatusValue | null; why: string } | undefined;
          for (;;) {
            try {
              const ready = await entry.worker.call("browserReady", { timeoutMs: BROWSER_READY_MS });
              if (params.agentSocket !== undefined) {
                const stop = await context.serveAgent(params.agentSocket, entry.name);
                void entry.ended.then(stop);
              }
              return { ...registry.info(entry), ready, worker: entry.worker.placement, ...(params.agentSocket === undefined ? {} : { agentSocket: params.agentSocket }), ...(restarted ? { restarted } : {}) };
            } catch (error) {
              const failure = asTuiwrightError(error);
              // A program that is no browser (or died) goes; a page that is slow to load stays, to be read.
              const gone = failure.errorName === "no-browser" || failure.errorName === "session-exited";
              const again = restarted === undefined ? startAgainAfter(failure) : null;
              if (gone || again) {
                await terminateSession(entry, "SIGKILL", 0, context.containment).catch(() => undefined);
                registry.remove(entry.name);
                context.sessionsChanged();
              }
              if (again) {
                restarted = { exit: again.exit, why: failure.message };
                // In the daemon's log too: how often browsers fail at start is worth knowing.
                process.stderr.write(`${now()} [${process.pid}] session ${JSON.stringify(entry.name)}: ${again.what} (${failure.message}); starting it once more\n`);
                // An explicit cast path must not exist: the first browser's recording makes way.
                if (params.cast !== undefined) rmSync(params.cast, { force: true });
                entry = await startSession(context, { ...params, session: entry.name });
                context.workers.fill();
                continue;
              }
              if (gone) {
                if (!restarted) throw failure;
                const first = restarted.exit === null ? "the first browser's screen never drew its first page" : "the first browser crashed";
                throw new TuiwrightError(failure.errorName, `${failure.message} (it was started again after ${first}: ${restarted.why})`, { hint: failure.hint, details: { ...failure.details, restarted } });
              }
              throw new TuiwrightError(failure.errorName, `${failure.message} (session ${JSON.stringify(entry.name)} is kept: snapshot it, or kill it)`, { hint: failure.hint, details: { ...failure.details, ...(restarted ? { restarted } : {}) } });
            }
          }
        } else if (params.browser === undefined && !params.noWait) {
          // Nothing may be typed ahead of the program's first screen (it could be lost or drawn
          // over): return once it drew and was still, or waits for input; bounded.
          const firstScreen = await entry.worker.call("firstScreen", { boundMs: FIRST_SCREEN_BOUND_MS }).catch(() => null);
          if (firstScreen) return { ...registry.info(entry), firstScreen, worker: entry.worker.placement };
        }
        return { ...registry.info(entry), worker: entry.worker.placement };
      } finally {
        // The next spawn's thread loads once this one's first screen is in (worker-pool.ts).
        context.workers.fill();
      }
    },

    async list() {
      return { sessions: registry.all().map((entry) => registry.info(entry)), current: registry.current, lost: context.lost };
    },

    async kill(params) {
      const entry = writable(params.session, params.lease);
      const signal = normalizeSignal(params.signal);
      await markInCast(entry, `kill ${signal}`);
      await terminateSession(entry, signal, params.graceMs, context.containment);
      registry.remove(entry.name);
      leases.forget(entry.name);
      context.sessionsChanged();
      return { session: entry.name, exit: entry.exit };
    },


    async reset({ session, lease }) {
      const entry = writable(session, lease);
      await markInCast(entry, "reset");
      // The open block ends "reset", and the new shell's cursor and block numbers go on from this one's.
      // (An exited shell's worker still answers: its numbers go on too.)
      const closing = entry.crashed ? null : await entry.worker.call("closing", { reason: "reset" }).catch(() => null);
      await terminateSession(entry, "SIGHUP", 1000, context.containment);
      registry.remove(entry.name);
      const fresh = await startSession(context, entry.spawnParams, closing?.continues);
      context.workers.fill();
      return registry.info(fresh);
    },

    async "adapter.list"() {
      const { ManifestCatalog } = await import("../adapters/catalog.ts");
      const catalog = new ManifestCatalog();
      return {
        dir: catalog.dir,
        adapters: catalog.entries().map(({ manifest, origin }) => ({ name: manifest.name, root: manifest.root, origin, file: manifest.file, description: manifest.description, ...(manifest.tested ? { tested: manifest.tested } : {}) })),
        errors: catalog.errors(),
      };
    },

    async "adapter.check"({ source, file }) {
      const { loadManifest } = await import("../adapters/load-manifest.ts");
      const manifest = loadManifest(source, file);
      return { name: manifest.name, root: manifest.root, regions: [...new Set(manifest.regions.map((r) => r.name))] };
    },

    async subscribe(params, call) {
      if (params.session !== undefined && !registry.has(params.session)) registry.resolve(params.session); // throws no-such-session
      const types = params.types ?? ["screen", "title", "bell", "exit", "resize", "lease"];
      return { subscription: events.subscribe(call.connection, { session: params.session ?? null, types, debounceMs: params.debounceMs }) };
    },

    async unsubscribe(params, call) {
      events.unsubscribe(params.subscription, call.connection);
      return { subscription: params.subscription, unsubscribed: true };
    },

    async "lease.acquire"(params, call) {
      const entry = registry.resolve(params.session);
      return leases.acquire(entry.name, { owner: params.owner, ttlMs: params.ttlMs, token: params.lease, connection: call.connection });
    },

    async "lease.release"(params) {
      const entry = registry.resolve(params.session);
      leases.release(entry.name, params.lease);
      return { session: entry.name, released: true };
    },

    async "debug.crashWorker"({ session, spare, thread }) {
      if (!context.debug) throw new TuiwrightError("permission", "debug.crashWorker is disabled", { hint: "start the daemon with TUIWRIGHT_DEBUG=1" });
      if (spare) {
        if (!context.workers.crashSpare()) throw new TuiwrightError("no-such-session", "there is no loaded worker thread without sessions now");
        return { session: "" };
      }
      const entry = registry.resolve(session);
      void entry.worker.call("crash", { thread }).catch(() => undefined);
      await entry.ended;
      return { session: entry.name };
    },

    async "debug.memory"(params) {
      if (!context.debug) throw new TuiwrightError("permission", "debug.memory is disabled", { hint: "start the daemon with TUIWRIGHT_DEBUG=1" });
      const sessions = await Promise.all(registry.all().map(async (entry) => ({
        session: entry.name,
        // Sessions on one thread share its heap: each reports the thread's, and which it is.
        thread: entry.worker.host.id,
        heap: entry.crashed ? null : await entry.worker.call("memory", params).catch(() => null),
      })));
      return { rssBytes: process.memoryUsage().rss, daemon: heapReport(params), sessions };
    },
  } satisfies Handlers, restartBrowser);
}
