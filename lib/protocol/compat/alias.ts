// A compat table maps a seed document's own method names onto the core table: each alias
// validates the document's params, calls core methods, and returns the document's shape.
import type * as v from "valibot";
import type { MethodName, Result } from "../methods.ts";

/** Calls a core method (params validated as any call's are). */
export type CoreCall = <M extends MethodName>(method: M, params: Record<string, unknown>) => Promise<Result<M>>;

export type CompatAlias = {
  title: string;
  readOnly: boolean;
  destructive?: boolean;
  aliasOf: MethodName;
  params: v.GenericSchema;
  run(params: any, core: CoreCall): Promise<unknown>;
};

/** An alias that states the document's result shape: the compat names that are MCP tools
 * (lib/mcp/tools.ts) carry it as their outputSchema, as core tools carry their method's. */
export type DocumentedAlias = CompatAlias & { result: v.GenericSchema };

export type CompatTable = {
  /** The seed document, for `capabilities`. */
  document: string;
  /** `PREFIX.NAME` always means this table's NAME (the way to call a name the core shares). */
  prefix: string;
  aliases: Record<string, CompatAlias>;
};
