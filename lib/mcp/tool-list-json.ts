// A Bun macro (imported `with { type: "macro" }` by lib/mcp/tool-list.ts): the tool list as
// JSON, computed when the binary is built, so tools/list never loads valibot or converts a
// schema at run time. Its source is tools.ts, the same code the list came from before.
import { tools } from "./tools.ts";

export function toolListJson(): string {
  const { tools: list, byName } = tools();
  return JSON.stringify({ tools: list, methods: list.map((tool) => byName.get(tool.name)!) });
}
