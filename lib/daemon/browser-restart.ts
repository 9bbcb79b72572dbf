// A wedged browser: Carbonyl deadlocks now and then (seen after a resize on a loaded machine: its
// engine answers nothing, its screen keeps the last frame, for good). The call that finds it
// (the worker says `wedged` with the page and history it last read) has the browser killed and
// started again in the same session, its history loaded again page by page, and then runs once
// more; its result says so: `recovered: {by: "browser-restart", url, history, stalledMs}`. What
// the page held (form input, scroll) is gone. A snapshot (whose screen is still readable) says
// the browser is wedged in its meta, and the next call that can recover does. Every recovery a
// result reports (a nudge, a renderer restart, a new browser) is in the daemon's log too: how
// often Carbonyl stalls is worth knowing.
import { asTuiwrightError } from "../protocol/errors.ts";
import type { Handlers } from "./dispatch.ts";

/** The methods whose results carry `recovered`. */
const RECOVERING = ["navigate", "back", "forward", "reload", "scroll", "resize", "press", "type", "click", "get"] as const;

export type Wedge = { session: string | undefined; url: string; history: { entries: string[]; index: number }; wedgedMs: number };

/** `restart` starts the session's browser again and restores its history. */
export function withBrowserRestart(handlers: Handlers, restart: (wedge: Wedge) => Promise<void>): Handlers {
  const wrapped: Handlers = { ...handlers };
  for (const method of RECOVERING) {
    const handler = handlers[method] as (params: any, context: any) => Promise<any>;
    (wrapped as Record<string, unknown>)[method] = async (params: { session?: string }, context: unknown) => {
      try {
        return logged(method, params.session, await handler(params, context));
      } catch (error) {
        const failure = asTuiwrightError(error);
        const { wedged, url, history, wedgedMs } = failure.details as { wedged?: boolean; url?: string; history?: Wedge["history"]; wedgedMs?: number };
        if (wedged !== true || typeof url !== "string" || !history) throw failure;
        await restart({ session: params.session, url, history, wedgedMs: wedgedMs ?? 0 });
        const result = await handler(params, context);
        return logged(method, params.session, { ...result, recovered: { stalledMs: wedgedMs ?? 0, by: "browser-restart", url: history.entries[history.index] ?? url, history: history.entries.length } });
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
