// A session worker's session: the core, the facets its kind of session has, and the op table
// that answers the daemon — the kind's ops (session-kind.ts: every method the daemon forwards)
// and the worker's own (first screen, reset, secrets, memory, disposal). One entry per op of the
// daemon⇄worker protocol (WorkerOps), so the compiler checks the table is complete and each
// entry's params and result.
import { asTuiwrightError, TuiwrightError } from "../protocol/errors.ts";
import type { SecretMask } from "../record/secret-mask.ts";
import { heapReport } from "../runtime/heap-report.ts";
import type { StartSpec, WorkerOpTable } from "../link/messages.ts";
import { BrowserFacet } from "./browser-facet.ts";
import { browserKind } from "./browser-kind.ts";
import { programKind } from "./program-kind.ts";
import { SessionCore, type SessionEvents } from "./session-core.ts";
import type { SessionKind } from "./session-kind.ts";
import { ShellFacet } from "./shell-facet.ts";
import { SnapshotFacet } from "./snapshot-facet.ts";
// A thread starts the next program's process ahead of its spawn when the daemon asks (warm-start.ts).
export { discardWarmStart, prepareWarmStart } from "../pty/warm-start.ts";

/** Starts the session's program; returns its pid, its kind and the op table. What leaves the
 * session — every result, error and event — has the session's secrets masked (secret-mask.ts):
 * a wait's screen excerpt, a snapshot, a title. Inside, waits and the screen see what the
 * program drew. */
export function startSession(spec: StartSpec, events: SessionEvents): { pid: number; kind: SessionKind["name"]; ops: WorkerOpTable; exited: SessionCore["whenExited"] } {
  // A secret event carries the secret itself, to the daemon alone (memory only).
  const core: SessionCore = new SessionCore(spec, (event) => events(event.kind === "secret" ? event : core.mask.redactValue(event)));
  // Every session answers status (a program's: "starting" until it exits); shells do more.
  const shell = core.attach(new ShellFacet(core, spec.shell));
  const browser = spec.browser ? core.attach(new BrowserFacet(core)) : null;
  const program = programKind(spec, core, shell, new SnapshotFacet(core));
  const kind = browser ? browserKind(browser, program.ops) : program;

  const ops: WorkerOpTable = {
    ...kind.ops,
    firstScreen: (params) => core.firstScreen(params.boundMs),
    closing: (params) => shell.closing(params.reason),
    addSecrets: (params) => {
      for (const secret of params.secrets) core.mask.add(secret);
      return { secrets: core.mask.size };
    },
    memory: (params) => heapReport(params),
    dispose: () => { core.dispose(); return { disposed: true }; },
    crash: (params) => {
      // Fault injection: an uncaught error outside any handler, as a real bug would be — in a
      // timer of this session, or a rejected promise no handler awaits (no session to blame).
      if (params.thread) setTimeout(() => void Promise.reject(new Error("thread crash requested by debug.crashWorker")), 0);
      else setTimeout(() => { throw new Error("crash requested by debug.crashWorker"); }, 0);
      return new Promise<never>(() => {});
    },
  };
  return { pid: core.pid, kind: kind.name, ops: masked(ops, core.mask), exited: core.whenExited };
}

/** The op table with the session's secrets masked in every result and error. */
function masked(ops: WorkerOpTable, mask: SecretMask): WorkerOpTable {
  const wrapped: Record<string, (params: never, signal: AbortSignal) => unknown> = {};
  for (const [name, op] of Object.entries(ops) as [string, (params: never, signal: AbortSignal) => unknown][]) {
    wrapped[name] = async (params, signal) => {
      try {
        return mask.redactValue(await op(params, signal));
      } catch (error) {
        const failure = asTuiwrightError(error);
        throw new TuiwrightError(failure.errorName, mask.redact(failure.message), { hint: mask.redact(failure.hint), details: mask.redactValue(failure.details) });
      }
    };
  }
  return wrapped as WorkerOpTable;
}
