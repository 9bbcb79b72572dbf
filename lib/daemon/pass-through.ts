// Methods the daemon forwards to the session's worker (`forward: true` in the method table): the
// daemon resolves the session and, for a writer, checks its write lease; the rest is the
// worker's, where the session's kind answers (lib/worker/session-kind.ts). The op is the method's
// name and its params are the method's without session and lease (lib/link/messages.ts derives
// them). The reply is checked against the method's result schema — a worker is untrusted: it can
// be broken or crash mid-message — and carries the session's name where the result has one.
import * as v from "valibot";
import { TuiwrightError } from "../protocol/errors.ts";
import { type ForwardedMethod, type MethodDef, METHODS, type Params } from "../protocol/methods.ts";
import type { WorkerOps } from "../link/messages.ts";
import type { Connection } from "../runtime/unix-socket.ts";
import type { CallContext } from "../transport/rpc-server.ts";
import type { Handlers } from "./dispatch.ts";
import type { SessionEntry, SessionRegistry } from "./registry.ts";

/** Where a result names its session: first, after `ok` (the AWI-TTY document's browser replies
 * lead with it), or nowhere (a wait's result). */
type SessionField = "first" | "after-ok" | "none";

type Row = { access: "reader" | "writer"; session: SessionField; result: v.GenericSchema };

/** A result schema's fields in order (a union: its first member's). */
function fieldsOf(schema: v.GenericSchema): string[] {
  const shape = schema as unknown as { entries?: Record<string, unknown>; options?: { entries?: Record<string, unknown> }[] };
  return Object.keys(shape.entries ?? shape.options?.[0]?.entries ?? {});
}

const takesLease = (def: MethodDef) => "lease" in ((def.params as unknown as { entries?: Record<string, unknown> }).entries ?? {});

function sessionField(result: v.GenericSchema): SessionField {
  const fields = fieldsOf(result);
  if (!fields.includes("session")) return "none";
  return fields[0] === "ok" ? "after-ok" : "first";
}

/** Each forwarded method: a writer when its params take a write lease (input, navigation, shell
 * commands; not `mark`, which leaves the program alone), else a reader. */
export const PASS_THROUGH = Object.fromEntries(
  Object.entries(METHODS as Record<string, MethodDef>).filter(([, def]) => def.forward).map(([method, def]): [string, Row] => [method, { access: takesLease(def) ? "writer" : "reader", session: sessionField(def.result), result: def.result }]),
) as Record<ForwardedMethod, Row>;

type Forward = (params: { session?: string; lease?: string }, context: CallContext) => Promise<unknown>;

/** What the daemon checks itself before a forwarded call goes on (its own concerns, such as the
 * memory budget across sessions); throws to refuse it. */
export type BeforeForward = { [M in ForwardedMethod]?: (entry: SessionEntry, params: Params<M>) => void };

/** The worker's reply as the method's result: the session's name in its place, the whole checked. */
export function forwardedResult(method: ForwardedMethod, session: string, reply: unknown): unknown {
  const row = PASS_THROUGH[method];
  const body = typeof reply === "object" && reply !== null ? reply as Record<string, unknown> : {};
  const result = row.session === "none" ? reply : row.session === "after-ok" ? { ok: body.ok, session, ...body } : { session, ...body };
  const checked = v.safeParse(row.result, result);
  if (!checked.success) {
    throw new TuiwrightError("internal", `session ${JSON.stringify(session)}: its worker's reply to ${method} is malformed: ${checked.issues.map((issue) => `${v.getDotPath(issue) ?? "(reply)"}: ${issue.message}`).join("; ")}`, {
      hint: "this is a bug in tuiwright; the session may be unusable: `tuiwright kill` it and start it again",
    });
  }
  return result;
}

/** A handler per row of PASS_THROUGH. A reader's call is cancelled in the worker when its caller
 * hangs up (a wait it no longer wants); a writer's runs to its end (the input is on its way). */
export function passThroughHandlers(
  registry: SessionRegistry,
  writable: (session: string | undefined, lease: string | undefined) => SessionEntry,
  hungUp: (connection: Connection) => AbortSignal,
  before: BeforeForward = {},
): Pick<Handlers, ForwardedMethod> {
  const forward = <M extends ForwardedMethod>(method: M): Forward => {
    const { access } = PASS_THROUGH[method];
    const check = before[method] as ((entry: SessionEntry, params: unknown) => void) | undefined;
    return async (whole, call) => {
      const { session, lease, ...params } = whole;
      const entry = access === "writer" ? writable(session, lease) : registry.resolve(session);
      check?.(entry, whole);
      const signal = access === "reader" ? hungUp(call.connection) : undefined;
      const reply = await entry.worker.call(method, params as WorkerOps[M][0], signal);
      return forwardedResult(method, entry.name, reply);
    };
  };
  const handlers: Partial<Record<ForwardedMethod, Forward>> = {};
  for (const method of Object.keys(PASS_THROUGH) as ForwardedMethod[]) handlers[method] = forward(method);
  // Each forwarded method's op takes its params and gives its result (ForwardedOps).
  return handlers as unknown as Pick<Handlers, ForwardedMethod>;
}
