// The method table: every JSON-RPC method is defined once, in its domain's file under
// methods/, and assembled here. Types, the daemon's handler table, `capabilities`, the CLI's
// method facts (generated/method-facts.ts), MCP tools and docs are derived from it. Core names
// are camelCase; each seed document's own names are a compat table (compat/), applied by
// dispatch and listed by `capabilities` with `aliasOf`.
import type * as v from "valibot";
// Event is the payload of `event` notifications (not a method); exported for docs and clients.
export { Event } from "./schemas.ts";
import type { CellRun, Event, EventType, ExitStatus, Lease, Meta, SessionInfo, TurnInfo, TurnStateName, WaitResult } from "./schemas.ts";
import type { MethodDef, WaitSpec as WaitSpecSchema } from "./methods/common.ts";
import { BROWSER_METHODS } from "./methods/browser.ts";
import { DAEMON_METHODS } from "./methods/daemon.ts";
import { DEBUG_METHODS } from "./methods/debug.ts";
import { DESKTOP_METHODS } from "./methods/desktop.ts";
import { INPUT_METHODS } from "./methods/input.ts";
import { LEASE_METHODS } from "./methods/lease.ts";
import { SESSION_METHODS } from "./methods/session.ts";
import { SHELL_METHODS } from "./methods/shell.ts";
import { TURN_METHODS } from "./methods/turn.ts";
import { WAIT_METHODS } from "./methods/wait.ts";

export const METHODS = {
  ...DAEMON_METHODS,
  ...SESSION_METHODS,
  ...INPUT_METHODS,
  ...WAIT_METHODS,
  ...LEASE_METHODS,
  ...SHELL_METHODS,
  ...TURN_METHODS,
  ...BROWSER_METHODS,
  ...DEBUG_METHODS,
  ...DESKTOP_METHODS,
} as const satisfies Record<string, MethodDef>;

export type { MethodDef };
export type Methods = typeof METHODS;
export type MethodName = keyof Methods;
export type Params<M extends MethodName> = v.InferOutput<Methods[M]["params"]>;
export type ParamsInput<M extends MethodName> = v.InferInput<Methods[M]["params"]>;
export type Result<M extends MethodName> = v.InferOutput<Methods[M]["result"]>;
/** Methods the daemon forwards to the worker op of the same name (`forward: true`). */
export type ForwardedMethod = { [M in MethodName]: Methods[M] extends { forward: true } ? M : never }[MethodName];
export type WaitSpec = v.InferOutput<typeof WaitSpecSchema>;
export type SessionInfoValue = v.InferOutput<typeof SessionInfo>;
export type MetaValue = v.InferOutput<typeof Meta>;
export type CellRunValue = v.InferOutput<typeof CellRun>;
export type ExitStatusValue = v.InferOutput<typeof ExitStatus>;
export type WaitResultValue = v.InferOutput<typeof WaitResult>;
export type EventValue = v.InferOutput<typeof Event>;
export type EventTypeValue = v.InferOutput<typeof EventType>;
export type LeaseValue = v.InferOutput<typeof Lease>;
export type TurnInfoValue = v.InferOutput<typeof TurnInfo>;
export type TurnStateValue = v.InferOutput<typeof TurnStateName>;

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(METHODS, name);
}
