// MCP tools generated from the method table: one tool per method (snake_case: dots become
// underscores, a capital an underscore and its lower case),
// the method's title as description, its params' JSON Schema as inputSchema, its result's as
// outputSchema, and hints from its read-only/destructive flags. Methods that need a live
// connection of their own (event subscriptions) or exist for fault tests say `tool: false` in
// their definition. The AWI-TTY compat names are no tools (the core tools do the same); the
// agent-interactive-pty document asks for its names as tools, so they are.
import { toJsonSchema } from "@valibot/to-json-schema";
import { METHODS, type MethodName } from "../protocol/methods.ts";
import { INTERACTIVE_PTY } from "../protocol/compat/interactive-pty.ts";

/** Methods that are no tool (`tool: false` in their definition). */
export const NOT_TOOLS: ReadonlySet<MethodName> = new Set((Object.keys(METHODS) as MethodName[]).filter((method) => METHODS[method].tool === false));

/** Options of the spawn tool that MCP adds (the server acts on them; they never reach the daemon). */
export const SPAWN_EXTRAS = {
  keep: { type: "boolean", description: "keep the session after this MCP client disconnects (default: it is killed then)" },
  replaceEnv: { type: "boolean", description: "use env as the whole environment; by default env is merged over the MCP server's own" },
};

/** spawn's params as the MCP server treats them (it fills in its own cwd and environment, as the
 * CLI does with the caller's): the method table's text describes a bare socket call. */
const SPAWN_DOCS = {
  cwd: { type: "string", pattern: "^/", description: "working directory (absolute); default: the MCP server's own working directory" },
  env: { type: "object", additionalProperties: { type: "string" }, description: "variables merged over the MCP server's own environment (HOME, PATH stay); with replaceEnv: true, the whole environment" },
};

/** Result fields the MCP server keeps to itself (AOTUI §5.3: the agent never sees the snapshot id). */
export const HIDDEN_RESULT_FIELDS: Partial<Record<string, string[]>> = { "desktop.snapshot": ["snapshot_id"] };

/** A failed call's structuredContent: the JSON-RPC error the socket would have answered. */
export const TOOL_ERROR = {
  type: "object",
  properties: {
    error: {
      type: "object",
      description: "the call failed (isError: true): the same error the socket answers",
      properties: {
        code: { type: "integer", description: "the JSON-RPC error code (the error table in DESIGN.md)" },
        message: { type: "string", description: "what went wrong" },
        data: { type: "object", description: "name (the error's name), hint, and details such as a wait's screen excerpt or a bad field's path" },
      },
      required: ["code", "message"],
    },
  },
  required: ["error"],
};

export type Tool = {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
};

/** A method's tool name, snake_case: `desktop.openSession` → `desktop_open_session`. */
export const toolName = (method: string) => method.replace(/\./g, "_").replace(/[A-Z]/g, (upper) => `_${upper.toLowerCase()}`);

/** The name a method's tool had before names were snake_case (dots only became underscores). */
export const formerToolName = (method: string) => method.replace(/\./g, "_");

/** What structuredContent holds: the method's result (as the server passes it on), or a tool error.
 * MCP wants an object schema at the root, so the two shapes are its anyOf; definitions of
 * recursive shapes (outline nodes) stay at the root, where their "#/$defs/…" refers. */
function outputSchema(method: string, result: Parameters<typeof toJsonSchema>[0]): Record<string, unknown> {
  const { $schema: _, $defs, ...schema } = toJsonSchema(result, { errorMode: "ignore" }) as Record<string, any>;
  for (const field of HIDDEN_RESULT_FIELDS[method] ?? []) {
    delete schema.properties?.[field];
    if (Array.isArray(schema.required)) schema.required = schema.required.filter((name: string) => name !== field);
  }
  return { type: "object", anyOf: [schema, TOOL_ERROR], ...($defs ? { $defs } : {}) };
}

let cache: { tools: Tool[]; byName: Map<string, string> } | null = null;

export function tools(): { tools: Tool[]; byName: Map<string, string> } {
  if (cache) return cache;
  const list: Tool[] = [];
  const byName = new Map<string, string>();
  for (const [method, def] of Object.entries(METHODS) as [MethodName, (typeof METHODS)[MethodName]][]) {
    if (NOT_TOOLS.has(method)) continue;
    const { $schema: _, ...schema } = toJsonSchema(def.params, { errorMode: "ignore" }) as Record<string, unknown>;
    if (method === "spawn") schema.properties = { ...(schema.properties as object), ...SPAWN_DOCS, ...SPAWN_EXTRAS };
    const name = toolName(method);
    byName.set(name, method);
    list.push({
      name,
      title: def.title,
      description: def.title,
      inputSchema: { type: "object", ...schema },
      outputSchema: outputSchema(method, def.result),
      annotations: { title: def.title, readOnlyHint: def.readOnly, destructiveHint: "destructive" in def && def.destructive === true, openWorldHint: false },
    });
  }
  // The agent-interactive-pty document's tools (exec_block, wait_for, …); its send, status
  // and reset are the core tools of those names, which take conversation_id too. Their
  // outputSchema is the document's result shape, which the compat table states.
  for (const [name, def] of Object.entries(INTERACTIVE_PTY)) {
    if (Object.hasOwn(METHODS, name)) continue;
    const { $schema: _, ...schema } = toJsonSchema(def.params, { errorMode: "ignore" }) as Record<string, unknown>;
    byName.set(name, name);
    list.push({
      name, title: def.title, description: def.title, inputSchema: { type: "object", ...schema },
      outputSchema: outputSchema(name, def.result),
      annotations: { title: def.title, readOnlyHint: def.readOnly, destructiveHint: def.destructive === true, openWorldHint: false },
    });
  }
  cache = { tools: list, byName };
  return cache;
}
