// Entry point of `tuiwright mcp`: the MCP server (loads valibot's JSON Schema export for the
// tool list), kept out of the thin CLI's bundle.
export { runMcp } from "../lib/mcp/server.ts";
