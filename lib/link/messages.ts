// Messages between the daemon and a session worker. The worker's replies are checked against
// these shapes on arrival (a trust boundary: a worker can be broken or crash mid-message).
import * as v from "valibot";
import type { CellRun, Meta, Outline } from "../protocol/schemas.ts";
import type { HeapReport } from "../runtime/heap-report.ts";
import type { BrowserState } from "./browser-state.ts";

export type { BrowserState } from "./browser-state.ts";
export type BrowserModifier = "ctrl" | "alt" | "shift" | "meta";
/** A stall of Carbonyl's screen that an operation found and recovered from (the engine had the
 * frame, the terminal did not show it). */
export type Recovered = { stalledMs: number; by: "resize-nudge"; nudges: number } | { stalledMs: number; by: "browser-restart"; url: string; history: number; exit?: ExitStatusValue; why?: string }
  | { stalledMs: number; by: "new-renderer"; crashed: string } | { stalledMs: number; by: "renderer-restart"; nudges: number };
import type { ExitStatusValue, ForwardedMethod, Params, Result } from "../protocol/methods.ts";

type WithoutSession<T> = T extends unknown ? Omit<T, "session"> : never;

/** What a worker needs to start its program; the daemon has resolved name, cwd and env. */
/** A reset shell goes on from the one it replaces: output cursor, block numbers, and the
 * earlier shells' output spools (lib/shell/output-spool.ts), oldest first. */
export type ShellContinuation = { cursor: number; blocks: number; spools: { path: string; base: number; end: number | null; blocks?: number }[] };

export type StartSpec = Omit<Params<"spawn">, "session" | "cwd" | "env" | "record" | "cast" | "argv" | "shell" | "integration" | "browser" | "cols" | "rows" | "noWait"> & {
  name: string;
  cols: number;
  rows: number;
  /** A Carbonyl browser: snapshots and meta read its URL bar and buttons. */
  browser: boolean;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Where to record (created exclusively), or null. */
  cast: string | null;
  /** The recording's size cap in bytes (0: none). */
  maxCastBytes: number;
  /** Secrets typed with --secret in the daemon's other sessions: masked here too. */
  secrets: string[];
  /** A shell with command blocks: its mark nonce (null without integration) and transcript. */
  shell: { kind: string; nonce: string | null; transcriptDir: string; continues?: ShellContinuation; historyFlag?: string } | null;
  /** What keeps the session's processes in bounds (see lib/daemon/containment.ts). */
  cgroup: string | null;
  taskLimit: number | null;
};

export type SnapshotReply = {
  format: "text" | "ansi" | "cells" | "outline" | "svg" | "png";
  revision: number;
  hash: string;
  cols: number;
  rows: number;
  text?: string;
  ansi?: string;
  width?: number;
  height?: number;
  lines?: string[];
  cells?: v.InferOutput<typeof CellRun>[][];
  outline?: v.InferOutput<typeof Outline>;
  svg?: string;
  png?: string;
  meta?: v.InferOutput<typeof Meta>;
};

/** A forwarded method's op: its params without session and lease, its result without session. */
type ForwardedOps = { [M in ForwardedMethod]: [Omit<Params<M>, "session" | "lease">, WithoutSession<Result<M>>] };

/** Each worker operation: [params, result]. Forwarded methods' ops come from the method table;
 * these are the ones the daemon calls for its own part (lifecycle, spawn, restart, debug). */
export type WorkerOps = ForwardedOps & {
  firstScreen: [{ boundMs: number }, { drew: boolean; waitingForInput: boolean; idle: boolean; timedOut: boolean; ms: number }];
  /** A shell answers a reset with where its replacement goes on from. */
  closing: [{ reason: "reset" | "cancelled" }, { reason: "reset" | "cancelled"; continues?: ShellContinuation }];
  browser: [Record<string, never>, BrowserState];
  /** Browser sessions restarted after a wedge: load the old history again (entries by URL, the
   * current one at index), ending on that page, drawn. */
  browserRestore: [{ entries: string[]; index: number; timeoutMs: number }, { url: string; entries: number }];
  /** Browser sessions at start: the engine answered and the first page is on the screen. */
  browserReady: [{ timeoutMs: number }, { ready: true; url: string; ms: number }];
  /** Secrets typed in another session of the daemon: masked in this one from now on. */
  addSecrets: [{ secrets: string[] }, { secrets: number }];
  /** Fault tests: the session's code throws (`thread`: a fault that names no session). */
  crash: [{ thread: boolean }, never];
  memory: [{ gc: boolean; types: number }, HeapReport];
  dispose: [Record<string, never>, { disposed: true }];
};
export type WorkerOp = keyof WorkerOps;
/** Where a navigation ended: the page's URL, title and revision. */
export type Navigated = Omit<Result<"navigate">, "ok" | "session">;
/** A call of one op, on either side: the daemon's handle, or the worker calling its own table. */
export type WorkerCall = <Op extends WorkerOp>(op: Op, params: WorkerOps[Op][0], signal?: AbortSignal) => Promise<WorkerOps[Op][1]>;

/** A worker thread hosts several sessions (worker-host.ts): every message names the session's
 * slot in its thread. */
export type DaemonToWorker =
  | { kind: "start"; slot: number; spec: StartSpec }
  | { kind: "call"; slot: number; id: number; op: WorkerOp; params: unknown }
  | { kind: "cancel"; slot: number; id: number }
  /** Start the process the next session spawned into `cgroup` runs its program in (warm-start.ts). */
  | { kind: "warm"; cgroup: string }
  /** End this thread's unused warm start: its cgroup went to a session elsewhere. */
  | { kind: "unwarm" };

/** The worker's side of the call, one entry per op: a missing or mistyped op fails type-checking
 * (the worker's op table is checked against it). `signal` aborts when the daemon cancels the call. */
export type WorkerOpTable = { [Op in WorkerOp]: (params: WorkerOps[Op][0], signal: AbortSignal) => WorkerOps[Op][1] | Promise<WorkerOps[Op][1]> };

const RpcError = v.object({ code: v.number(), message: v.string(), data: v.optional(v.unknown()) });
const Exit = v.object({ code: v.nullable(v.number()), signal: v.nullable(v.string()) });

/** What a session tells its host unasked (the worker, the handle and the daemon share this one
 * union): each carries the screen's revision and hash at that moment, except the exit. */
const EVENT = {
  changed: { kind: v.literal("changed"), revision: v.number(), hash: v.string(), title: v.string() },
  bell: { kind: v.literal("bell"), revision: v.number(), hash: v.string() },
  resized: { kind: v.literal("resized"), cols: v.number(), rows: v.number(), revision: v.number(), hash: v.string() },
  ended: { kind: v.literal("ended"), exit: Exit },
  /** A --secret was typed or sent: the daemon masks it in its other sessions (memory only). */
  secret: { kind: v.literal("secret"), secret: v.string() },
};
const SESSION_EVENTS = [v.object(EVENT.changed), v.object(EVENT.bell), v.object(EVENT.resized), v.object(EVENT.ended), v.object(EVENT.secret)] as const;
export type SessionEvent = v.InferOutput<(typeof SESSION_EVENTS)[number]>;

/** What a worker thread sends: a session's message (with its slot in the thread), or the
 * thread's own fault. */
const inSlot = <T extends v.ObjectEntries>(entries: T) => v.object({ slot: v.number(), ...entries });
export const WorkerToDaemonSchema = v.variant("kind", [
  inSlot({ kind: v.literal("started"), pid: v.number() }),
  inSlot({ kind: v.literal("start-failed"), error: RpcError }),
  inSlot({ kind: v.literal("reply"), id: v.number(), result: v.optional(v.unknown()), error: v.optional(RpcError) }),
  /** The session's code threw outside any call: it is ended, the thread's other sessions go on. */
  inSlot({ kind: v.literal("crashed"), reason: v.string() }),
  inSlot(EVENT.changed), inSlot(EVENT.bell), inSlot(EVENT.resized), inSlot(EVENT.ended), inSlot(EVENT.secret),
  /** A fault no session's code can be blamed for: the thread ends, with every session on it. */
  v.object({ kind: v.literal("thread-failed"), reason: v.string() }),
  /** The thread's warm start (its process waiting for the next program) is up: its pid. */
  v.object({ kind: v.literal("warmed"), pid: v.number() }),
]);
export type WorkerToDaemon = v.InferOutput<typeof WorkerToDaemonSchema>;
/** A message of one session. */
export type SessionMessage = Extract<WorkerToDaemon, { slot: number }>;
