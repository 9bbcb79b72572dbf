// Methods the daemon forwards to the session's worker unchanged: one row each, method → worker
// op, reader or writer (a writer checks the session's lease first). The reply is the worker's,
// with the session's name. A method whose params or result do not fit its op fails
// type-checking (FitsOp below); methods that do more than forward keep their own handler.
import type { Params, Result } from "../protocol/methods.ts";
import type { WorkerOp, WorkerOps } from "../link/messages.ts";
import type { CallContext } from "../transport/rpc-server.ts";
import type { Handlers } from "./dispatch.ts";
import type { SessionEntry, SessionRegistry } from "./registry.ts";

// type and press are not here: on a browser session they follow Carbonyl's key rules
// (browser-handlers.ts), so they have their own handlers.
export const PASS_THROUGH = {
  click: { op: "click", access: "writer" },
  exec: { op: "exec", access: "writer" },
  send: { op: "send", access: "writer" },
  status: { op: "status", access: "reader" },
  blocks: { op: "blocks", access: "reader" },
  block: { op: "block", access: "reader" },
} as const satisfies { [M in keyof Handlers]?: { op: WorkerOp; access: "reader" | "writer" } };

export type PassThroughMethod = keyof typeof PASS_THROUGH;
type OpOf<M extends PassThroughMethod> = (typeof PASS_THROUGH)[M]["op"];

/** The method's params (without session and lease) are the op's, and the op's result with the
 * session's name is the method's. */
type FitsOp<M extends PassThroughMethod> =
  [Omit<Params<M>, "session" | "lease">] extends [WorkerOps[OpOf<M>][0]]
    ? [{ session: string } & WorkerOps[OpOf<M>][1]] extends [Result<M>] ? true : M
    : M;
/** Fails naming the method that does not fit. */
type Every<T extends true> = T;
export type PassThroughFits = Every<{ [M in PassThroughMethod]: FitsOp<M> }[PassThroughMethod]>;

type Forward = (params: { session?: string; lease?: string }, context: CallContext) => Promise<unknown>;

/** A handler per row of PASS_THROUGH. */
export function passThroughHandlers(
  registry: SessionRegistry,
  writable: (session: string | undefined, lease: string | undefined) => SessionEntry,
): Pick<Handlers, PassThroughMethod> {
  const forward = <M extends PassThroughMethod>(method: M): Forward => {
    const { op, access } = PASS_THROUGH[method];
    return async ({ session, lease, ...params }) => {
      const entry = access === "writer" ? writable(session, lease) : registry.resolve(session);
      return { session: entry.name, ...(await entry.worker.call(op, params as WorkerOps[typeof op][0])) };
    };
  };
  const handlers: Partial<Record<PassThroughMethod, Forward>> = {};
  for (const method of Object.keys(PASS_THROUGH) as PassThroughMethod[]) handlers[method] = forward(method);
  // Each row's params and result were checked against its op (PassThroughFits).
  return handlers as unknown as Pick<Handlers, PassThroughMethod>;
}
