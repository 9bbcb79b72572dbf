// Entry point of `tuiwright serve`: the HTTP surface (JSON-RPC and MCP), kept out of the thin
// CLI's bundle.
export { runServeCommand } from "../lib/http/serve-command.ts";
