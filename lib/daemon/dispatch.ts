// From a JSON-RPC call to a handler: known method, params validated against the method's
// schema (errors name the path of the bad field), then the handler.
import * as v from "valibot";
import { TuiwrightError } from "../protocol/errors.ts";
import { isMethodName, METHODS, type MethodName, type Params, type Result } from "../protocol/methods.ts";
import type { CallContext, Dispatch } from "../transport/rpc-server.ts";

export type Handlers = { [M in MethodName]: (params: Params<M>, context: CallContext) => Promise<Result<M>> };

function invalidParams(method: string, issues: v.BaseIssue<unknown>[]): TuiwrightError {
  const listed = issues.map((issue) => ({ path: v.getDotPath(issue) ?? "(params)", message: issue.message }));
  const text = listed.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  return new TuiwrightError("usage", `invalid params for ${JSON.stringify(method)}: ${text}`, { details: { issues: listed } });
}

export function createDispatch(handlers: Handlers): Dispatch {
  return async (method, params, context) => {
    if (!isMethodName(method)) {
      throw new TuiwrightError("method-not-found", `unknown method ${JSON.stringify(method)}`);
    }
    const parsed = v.safeParse(METHODS[method].params, params);
    if (!parsed.success) throw invalidParams(method, parsed.issues);
    const handler = handlers[method] as (params: unknown, context: CallContext) => Promise<unknown>;
    return handler(parsed.output, context);
  };
}
