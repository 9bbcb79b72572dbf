// The daemon itself and its manifests: liveness, the self-description every client reads, status, stop.
import * as v from "valibot";
import { doc } from "../schemas.ts";
import { type MethodDef } from "./common.ts";

export const DAEMON_METHODS = {
  ping: {
    tool: "admin",
    title: "Check that the daemon answers",
    cli: { verb: "ping", summary: "check that the daemon answers" },
    readOnly: true,
    params: v.strictObject({}),
    result: v.object({ pong: v.literal(true), version: v.string(), pid: v.number() }),
  },
  capabilities: {
    tool: "admin",
    title: "Version, methods with JSON Schemas, snapshot formats and the error table",
    cli: { verb: "capabilities", summary: "print the version, methods (with JSON Schemas), formats, keys and error table", autoStart: true },
    readOnly: true,
    params: v.strictObject({}),
    result: v.object({
      version: v.string(),
      methods: v.array(v.object({ name: v.string(), title: v.string(), readOnly: v.boolean(), aliasOf: v.optional(v.string()), document: v.optional(doc(v.string(), "a compat alias: the seed document whose name it is")), params: v.unknown(), result: v.unknown() })),
      formats: v.array(v.string()),
      keys: v.array(v.string()),
      errors: v.array(v.object({ name: v.string(), code: v.number(), exit: v.number(), hint: v.string() })),
    }),
  },
  "daemon.status": {
    tool: "admin",
    title: "The daemon's pid, version, socket, uptime, sessions and memory",
    cli: [
      { verb: "daemon status", summary: "show the daemon's pid, version, socket, uptime, sessions and memory" },
      { verb: "daemon start", summary: "start the daemon if it is not running", autoStart: true }, // its status, once it runs
    ],
    readOnly: true,
    params: v.strictObject({}),
    result: v.object({
      pid: v.number(),
      version: v.string(),
      namespace: v.string(),
      socket: v.string(),
      startedAt: v.string(),
      uptimeMs: v.number(),
      idleTimeoutMs: v.number(),
      sessions: v.number(),
      pendingCalls: doc(v.number(), "calls in flight to session workers (waits, mostly); a client that hangs up takes its own with it"),
      rssBytes: v.number(),
      containment: doc(v.object({
        how: doc(v.picklist(["cgroup", "rlimit", "none"]), "what bounds a session's tasks: its own cgroup's pids.max, RLIMIT_NPROC below the user's limit (not for root), or nothing"),
        cgroup: doc(v.nullable(v.string()), "the cgroup directory holding the sessions' cgroups"),
        sessionTasks: doc(v.nullable(v.number()), "the most tasks one session may have (cgroup)"),
        subreaper: doc(v.boolean(), "the daemon adopts processes orphaned in a session (child subreaper)"),
        why: doc(v.string(), "why there are no session cgroups"),
      }), "how each session's processes are kept in bounds and found at kill"),
      spareWorker: doc(v.boolean(), "the next program or shell spawn finds its worker thread loaded (an empty one started ahead, or the pool is full and it shares one)"),
      warmStart: doc(v.nullable(v.number()), "the pid of the process waiting in its session cgroup for the next program spawn, which runs its program in it (cgroups only; null when there is none)"),
      workerThreads: doc(v.number(), "session worker threads running: programs and shells share a few (TUIWRIGHT_WORKER_THREADS), each browser has its own"),
    }),
  },
  "daemon.stop": {
    tool: "admin",
    title: "Kill every session's processes and stop the daemon",
    cli: { verb: "daemon stop", summary: "kill every session and stop the daemon (the socket is removed)" },
    readOnly: false,
    destructive: true,
    params: v.strictObject({}),
    result: v.object({ stopped: v.literal(true), sessionsKilled: v.number() }),
  },
  "adapter.list": {
    tool: "admin",
    title: "The manifests in force (built-in and user), and user manifests that failed to load",
    cli: { verb: "adapter list", summary: "list the manifests in force (built-in and user) and user manifests that failed to load", autoStart: true },
    readOnly: true,
    params: v.strictObject({}),
    result: v.object({
      dir: doc(v.string(), "where user manifests are read from"),
      adapters: v.array(v.object({ name: v.string(), root: v.string(), origin: v.picklist(["builtin", "user"]), file: v.string(), description: v.string(), tested: v.optional(doc(v.string(), "the program version the manifest was tested against")) })),
      errors: v.array(v.object({ file: v.string(), message: v.string() })),
    }),
  },
  "adapter.check": {
    tool: "admin",
    title: "Validate a manifest's source",
    cli: { verb: "adapter check", summary: "validate a manifest file; errors name the line and key", usage: "adapter check FILE", arity: [1, 1], autoStart: true },
    readOnly: true,
    params: v.strictObject({ source: doc(v.string(), "the manifest's TOML text"), file: doc(v.string(), "the name used in error messages") }),
    result: v.object({ name: v.string(), root: v.string(), regions: v.array(v.string()) }),
  },
} as const satisfies Record<string, MethodDef>;
