// The MCP tools (lib/mcp/tools.ts builds them from the method table) as plain data: the list is
// inlined as JSON when the code is bundled (a macro), so listing and calling tools costs a
// JSON.parse, not the method table's valibot schemas and their conversion to JSON Schema.
import { toolListJson } from "./tool-list-json.ts" with { type: "macro" };
import type { ToolSelection } from "../protocol/mcp-profiles.ts";
import type { Tool } from "./tools.ts";

let cache: { tools: Tool[]; byName: Map<string, string> } | null = null;

/** The tools, and the method each name calls. */
export function toolList(): { tools: Tool[]; byName: Map<string, string> } {
  if (cache) return cache;
  const { tools, methods } = JSON.parse(toolListJson()) as { tools: Tool[]; methods: string[] };
  cache = { tools, byName: new Map(tools.map((tool, i) => [tool.name, methods[i]!])) };
  return cache;
}

/** The tools a client with this selection sees: its profiles' tools, without output schemas
 * unless their profile keeps them (structured results are sent either way). */
export function toolsFor(selection: ToolSelection): Tool[] {
  return toolList().tools.filter((tool) => selection.names.has(tool.name)).map((tool) => {
    if (selection.outputSchemas(tool.name)) return tool;
    const { outputSchema: _, ...rest } = tool;
    return { ...rest, inputSchema: withWaitByReference(tool.name, rest.inputSchema) };
  });
}

/** An action's `wait` param is the wait tool's params: said once, in the wait tool, not again in
 * every action (the server checks it whole either way). */
function withWaitByReference(name: string, schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  const wait = properties?.wait;
  if (name === "wait" || !wait || wait.type !== "object") return schema;
  const fields = Object.keys((wait.properties as Record<string, unknown> | undefined) ?? {}).join(", ");
  return {
    ...schema,
    properties: { ...properties, wait: { type: "object", description: `wait after the action, before answering: the wait tool's parameters (${fields})` } },
  };
}
