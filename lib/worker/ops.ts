// A session worker's session: the core and the facets its kind of session has, and the op table
// that answers the daemon — one entry per op of the daemon⇄worker protocol (WorkerOps), so the
// compiler checks the table is complete and each entry's params and result.
import { asTuiwrightError, TuiwrightError } from "../protocol/errors.ts";
import type { SecretMask } from "../record/secret-mask.ts";
import { heapReport } from "../runtime/heap-report.ts";
import type { StartSpec, WorkerOpTable } from "../link/messages.ts";
import { BrowserFacet, browserOps } from "./browser-facet.ts";
import { coreOps, SessionCore, type SessionEvents } from "./session-core.ts";
import { ShellFacet, shellOps } from "./shell-facet.ts";
import { SnapshotFacet, snapshotOps } from "./snapshot-facet.ts";

const NEVER_ABORTED = new AbortController().signal;

/** Starts the session's program; returns its pid and the op table. What leaves the session —
 * every result, error and event — has the session's secrets masked (secret-mask.ts): a wait's
 * screen excerpt, a snapshot, a title. Inside, waits and the screen see what the program drew. */
export function startSession(spec: StartSpec, events: SessionEvents): { pid: number; ops: WorkerOpTable } {
  // A secret event carries the secret itself, to the daemon alone (memory only).
  const core: SessionCore = new SessionCore(spec, (event) => events(event.kind === "secret" ? event : core.mask.redactValue(event)));
  // Every session answers status (a program's: "starting" until it exits); shells do more.
  const shell = core.attach(new ShellFacet(core, spec.shell));
  const browser = spec.browser ? core.attach(new BrowserFacet(core)) : null;
  const snapshots = new SnapshotFacet(core);
  const requireBrowser = (what: string): BrowserFacet => {
    if (!browser) throw new TuiwrightError("not-a-browser", `${what} needs a browser session`);
    return browser;
  };

  // Each part brings the ops it answers; the table must have every op (WorkerOpTable).
  const ops: WorkerOpTable = {
    ...coreOps(core),
    ...shellOps(shell),
    ...browserOps(requireBrowser),
    ...snapshotOps(snapshots),
    // A browser's facts, clicks, wheel and size go through its engine (browser-facet.ts); the
    // resize waits for the page to redraw (params.timeoutMs: the method's, default included,
    // applies to browsers alone).
    snapshot: async (params) => { await browser?.beforeSnapshot(params); return snapshots.snapshot(params); },
    click: (params, signal) => (browser ? browser.click(params, signal) : core.click(params)),
    scroll: (params, signal) => (browser ? browser.scroll(params, signal) : core.scroll(params)),
    resize: (params, signal) => (browser ? browser.resize(params, signal) : core.resize(params)),
    memory: (params) => heapReport(params),
    dispose: () => { core.dispose(); return { disposed: true }; },
    crash: () => {
      // Fault injection: an uncaught error outside any handler, as a real bug would be.
      setTimeout(() => { throw new Error("crash requested by debug.crashWorker"); }, 0);
      return new Promise<never>(() => {});
    },
  };
  return { pid: core.pid, ops: masked(ops, core.mask) };
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
