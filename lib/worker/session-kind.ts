// A session's kind — program, shell or browser — as the worker knows it: the one place that
// says how each method the daemon forwards (`forward: true` in the method table) acts on this
// kind of session. The daemon resolves the session and checks its lease; everything after that
// is the kind's (program-kind.ts, browser-kind.ts). A new session method is a table row and an
// entry here in each kind: the compiler refuses a kind that lacks it.
import { TuiwrightError } from "../protocol/errors.ts";
import type { ForwardedMethod } from "../protocol/methods.ts";
import type { StartSpec, WorkerOpTable } from "../link/messages.ts";

/** The ops whose answer depends on the session's kind: every forwarded method, and the
 * browser's own start-up and restart ops. */
export type KindOps = Pick<WorkerOpTable, ForwardedMethod | "browser" | "browserReady" | "browserRestore">;

export type SessionKind = { name: "program" | "shell" | "browser"; ops: KindOps };

export const kindName = (spec: Pick<StartSpec, "browser" | "shell">): SessionKind["name"] => (spec.browser ? "browser" : spec.shell ? "shell" : "program");

/** A browser method called on another kind of session (exit 64). */
export function notABrowser(spec: Pick<StartSpec, "name" | "argv">): TuiwrightError {
  return new TuiwrightError("not-a-browser", `session ${JSON.stringify(spec.name)} is not a browser session (${spec.argv[0]})`);
}
