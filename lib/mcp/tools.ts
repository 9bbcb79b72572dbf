// MCP tools generated from the method table: one tool per method (dots become underscores),
// the method's title as description, its params' JSON Schema as inputSchema, and hints from
// its read-only/destructive flags. Methods that need a live connection of their own
// (event subscriptions) or exist for fault tests are left out, by name, here; AWI-TTY aliases
// of other methods (aliasOf) are left out too.
import { toJsonSchema } from "@valibot/to-json-schema";
import { METHODS, type MethodName } from "../protocol/methods.ts";
import { INTERACTIVE_PTY } from "../protocol/compat/interactive-pty.ts";

export const NOT_TOOLS = new Set<MethodName>(["subscribe", "unsubscribe", "debug.crashWorker", "debug.memory", "desktop.subscribe"]);

/** Options of the spawn tool that MCP adds (the server acts on them; they never reach the daemon). */
export const SPAWN_EXTRAS = {
  keep: { type: "boolean", description: "keep the session after this MCP client disconnects (default: it is killed then)" },
  replaceEnv: { type: "boolean", description: "use env as the whole environment; by default env is merged over the MCP server's own" },
};

export type Tool = {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
};

export const toolName = (method: string) => method.replace(/\./g, "_");

let cache: { tools: Tool[]; byName: Map<string, string> } | null = null;

export function tools(): { tools: Tool[]; byName: Map<string, string> } {
  if (cache) return cache;
  const list: Tool[] = [];
  const byName = new Map<string, string>();
  for (const [method, def] of Object.entries(METHODS) as [MethodName, (typeof METHODS)[MethodName]][]) {
    if (NOT_TOOLS.has(method) || "aliasOf" in def) continue; // AWI-TTY names add nothing an agent lacks
    const { $schema: _, ...schema } = toJsonSchema(def.params, { errorMode: "ignore" }) as Record<string, unknown>;
    if (method === "spawn") schema.properties = { ...(schema.properties as object), ...SPAWN_EXTRAS };
    const name = toolName(method);
    byName.set(name, method);
    list.push({
      name,
      title: def.title,
      description: def.title,
      inputSchema: { type: "object", ...schema },
      annotations: { title: def.title, readOnlyHint: def.readOnly, destructiveHint: "destructive" in def && def.destructive === true, openWorldHint: false },
    });
  }
  // The agent-interactive-pty document's tools (exec_block, wait_for, …); its send, status
  // and reset are the core tools of those names, which take conversation_id too.
  for (const [name, def] of Object.entries(INTERACTIVE_PTY)) {
    if (Object.hasOwn(METHODS, name)) continue;
    const { $schema: _, ...schema } = toJsonSchema(def.params, { errorMode: "ignore" }) as Record<string, unknown>;
    byName.set(name, name);
    list.push({
      name, title: def.title, description: def.title, inputSchema: { type: "object", ...schema },
      annotations: { title: def.title, readOnlyHint: def.readOnly, destructiveHint: def.destructive === true, openWorldHint: false },
    });
  }
  cache = { tools: list, byName };
  return cache;
}
