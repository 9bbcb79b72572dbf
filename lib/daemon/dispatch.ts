// From a JSON-RPC call to a handler: known method, params validated against the method's
// schema (errors name the path of the bad field), then the handler.
import * as v from "valibot";
import { TuiwrightError } from "../protocol/errors.ts";
import { isMethodName, METHODS, type MethodName, type Params, type Result } from "../protocol/methods.ts";
import { compatAlias } from "../protocol/compat/index.ts";
import { CallOrder } from "./call-order.ts";
import { version } from "../runtime/self.ts";
import type { CallContext, Dispatch } from "../transport/rpc-server.ts";

export type Handlers = { [M in MethodName]: (params: Params<M>, context: CallContext) => Promise<Result<M>> };

function invalidParams(method: string, issues: v.BaseIssue<unknown>[]): TuiwrightError {
  const listed = issues.map((issue) => ({ path: v.getDotPath(issue) ?? "(params)", message: issue.message }));
  const text = listed.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  return new TuiwrightError("usage", `invalid params for ${JSON.stringify(method)}: ${text}`, {
    hint: `each param's type and meaning: \`tuiwright capabilities\` (method ${method}), or \`tuiwright help\` for the CLI's verbs`,
    details: { issues: listed },
  });
}

// Stopping or inspecting a daemon of another build is how a user recovers from a mismatch.
const VERSION_INDEPENDENT = new Set(["ping", "daemon.status", "daemon.stop"]);

function versionMismatch(clientVersion: string, namespace: string): TuiwrightError {
  const stop = `tuiwright daemon stop${namespace === "default" ? "" : ` --ns ${namespace}`}`;
  return new TuiwrightError("version-mismatch", `the daemon (pid ${process.pid}) runs tuiwright ${version()}; this client is ${clientVersion}`, {
    hint: `stop the old daemon with \`${stop}\`; the next command starts the new one`,
  });
}

export function createDispatch(handlers: Handlers, namespace: string): Dispatch {
  const order = new CallOrder();
  return async (method, params, context) => {
    if (context.clientVersion !== undefined && context.clientVersion !== version() && !VERSION_INDEPENDENT.has(method)) {
      throw versionMismatch(context.clientVersion, namespace);
    }
    const core = (name: string, coreParams: unknown): Promise<any> => {
      if (!isMethodName(name)) throw new TuiwrightError("method-not-found", `unknown method ${JSON.stringify(name)}`);
      const parsed = v.safeParse(METHODS[name].params, coreParams);
      if (!parsed.success) throw invalidParams(name, parsed.issues);
      const handler = handlers[name] as (params: unknown, context: CallContext) => Promise<unknown>;
      return handler(parsed.output, context);
    };
    // The seed documents' own names: compat tables beside the core one.
    const alias = compatAlias(method, params);
    return order.run(context.connection, alias?.aliasOf ?? method, async () => {
      if (!alias) return core(method, params);
      const parsed = v.safeParse(alias.params, params);
      if (!parsed.success) throw invalidParams(method, parsed.issues);
      return alias.run(parsed.output, core);
    });
  };
}
