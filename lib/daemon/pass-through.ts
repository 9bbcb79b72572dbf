// Methods the daemon forwards to the session's worker unchanged (`forward: true` in the method
// table): to the op of the same name, whose params and result are the method's own
// (lib/link/messages.ts derives them), as a reader or a writer (a writer checks the session's
// lease first). The reply is the worker's, with the session's name. Methods that do more than
// forward keep their own handler.
import { type ForwardedMethod, METHODS } from "../protocol/methods.ts";
import type { WorkerOps } from "../link/messages.ts";
import type { CallContext } from "../transport/rpc-server.ts";
import type { Handlers } from "./dispatch.ts";
import type { SessionEntry, SessionRegistry } from "./registry.ts";

/** Each forwarded method: a writer (it checks the lease) unless the method is read-only. */
export const PASS_THROUGH = Object.fromEntries(
  Object.entries(METHODS).filter(([, def]) => "forward" in def && def.forward).map(([method, def]) => [method, { op: method as ForwardedMethod, access: def.readOnly ? "reader" : "writer" }]),
) as Record<ForwardedMethod, { op: ForwardedMethod; access: "reader" | "writer" }>;

type Forward = (params: { session?: string; lease?: string }, context: CallContext) => Promise<unknown>;

/** A handler per row of PASS_THROUGH. */
export function passThroughHandlers(
  registry: SessionRegistry,
  writable: (session: string | undefined, lease: string | undefined) => SessionEntry,
): Pick<Handlers, ForwardedMethod> {
  const forward = <M extends ForwardedMethod>(method: M): Forward => {
    const { op, access } = PASS_THROUGH[method];
    return async ({ session, lease, ...params }) => {
      const entry = access === "writer" ? writable(session, lease) : registry.resolve(session);
      return { session: entry.name, ...(await entry.worker.call(op, params as WorkerOps[typeof op][0])) };
    };
  };
  const handlers: Partial<Record<ForwardedMethod, Forward>> = {};
  for (const method of Object.keys(PASS_THROUGH) as ForwardedMethod[]) handlers[method] = forward(method);
  // Each forwarded method's op takes its params and gives its result (ForwardedOps).
  return handlers as unknown as Pick<Handlers, ForwardedMethod>;
}
