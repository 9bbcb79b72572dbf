// A wedged browser: Carbonyl deadlocks now and then (seen after a resize on a loaded machine: its
// engine answers nothing, its screen keeps the last frame, for good). The call that finds it
// (the worker says `wedged` with the page and history it last read) has the browser killed and
// started again in the same session, its history loaded again page by page, and then runs once
// more; its result says so: `recovered: {by: "browser-restart", url, history, stalledMs}`. What
// the page held (form input, scroll) is gone. A snapshot (whose screen is still readable) says
// the browser is wedged in its meta, and the next call that can recover does. Every recovery a
// result reports (a nudge, a renderer restart, a new browser) is in the daemon's log too: how
// often Carbonyl stalls is worth knowing.
// A browser that crashed by itself (Chromium's failed CHECK under load: Carbonyl exits 127; the
// worker says `browserCrashed` with the page and history it last read) is started again the same
// way, by the call in flight or, after a crash between calls, by the next call; its result says
// `recovered: {by: "browser-restart", exit, why, …}`. At most CRASH_RESTARTS_PER_MINUTE such
// restarts a session; after them the crash is the call's error (session-exited), as for a browser
// killed from outside, which is never started again.
import { TuiwrightError, asTuiwrightError } from "../protocol/errors.ts";
import type { ExitStatusValue } from "../protocol/methods.ts";
import type { Handlers } from "./dispatch.ts";

/** The methods whose results carry `recovered`. */
const RECOVERING = ["navigate", "back", "forward", "reload", "scroll", "resize", "press", "type", "click", "get"] as const;

/** Crash restarts a session gets within a minute; a browser crashing more often is left dead. */
export const CRASH_RESTARTS_PER_MINUTE = 3;

/** A browser to start again: wedged (its engine answers nothing, its screen stalled), or crashed
 * (`crash`: its exit and what that means). */
export type Wedge = { session: string | undefined; url: string; history: { entries: string[]; index: number }; wedgedMs: number; crash?: { exit: ExitStatusValue; why: string } };

type Restartable = { wedged?: boolean; browserCrashed?: boolean; url?: string; history?: Wedge["history"]; wedgedMs?: number; exit?: ExitStatusValue; why?: string };

/** `restart` starts the session's browser again and restores its history. */
export function withBrowserRestart(handlers: Handlers, restart: (wedge: Wedge) => Promise<void>): Handlers {
  const wrapped: Handlers = { ...handlers };
  /** When each session's crash restarts were, the last minute's. */
  const crashRestarts = new Map<string, number[]>();
  for (const method of RECOVERING) {
    const handler = handlers[method] as (params: any, context: any) => Promise<any>;
    (wrapped as Record<string, unknown>)[method] = async (params: { session?: string }, context: unknown) => {
      /** Where this call restarts the browser: the first failure's page and history (a crash in
       * the restart or in the call run again restarts it there too, within the bound). */
      let target: Wedge | undefined;
      let restartPending = false;
      let crash: Wedge["crash"];
      for (;;) {
        try {
          if (target && restartPending) {
            restartPending = false;
            await restart({ ...target, ...(crash ? { crash } : {}) });
          }
          const result = await handler(params, context);
          if (!target) return logged(method, params.session, result);
          const where = { url: target.history.entries[target.history.index] ?? target.url, history: target.history.entries.length };
          return logged(method, params.session, { ...result, recovered: { stalledMs: target.wedgedMs, by: "browser-restart", ...where, ...crash } });
        } catch (error) {
          const failure = asTuiwrightError(error);
          const { wedged, browserCrashed, url, history, wedgedMs, exit, why } = failure.details as Restartable;
          const crashed = browserCrashed === true && exit !== undefined;
          // A wedge is restarted once a call; a crash of its own as often as the bound allows.
          if ((wedged !== true && !crashed) || typeof url !== "string" || !history || (target && !crashed)) throw failure;
          if (crashed) {
            const key = params.session ?? "";
            const now = performance.now();
            const recent = (crashRestarts.get(key) ?? []).filter((at) => now - at < 60_000);
            if (recent.length >= CRASH_RESTARTS_PER_MINUTE) {
              throw new TuiwrightError("session-exited", `${failure.message}; it was started again ${recent.length} times in the last minute after crashes of its own, and is not started again`, {
                hint: "`tuiwright browse` starts a new browser", details: { exit },
              });
            }
            crashRestarts.set(key, [...recent, now]);
            crash = { exit, why: why ?? "" };
          }
          target ??= { session: params.session, url, history, wedgedMs: wedgedMs ?? 0 };
          restartPending = true;
        }
      }
    };
  }
  return wrapped;
}

/** The result, its `recovered` written to the daemon's log first. */
function logged<T>(method: string, session: string | undefined, result: T): T {
  const recovered = (result as { recovered?: { by?: unknown } } | null)?.recovered;
  if (recovered) process.stderr.write(`${new Date().toISOString()} [${process.pid}] ${method}${session === undefined ? "" : ` (session ${JSON.stringify(session)})`}: recovered by ${String(recovered.by)} ${JSON.stringify(recovered)}\n`);
  return result;
}
