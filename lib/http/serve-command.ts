// `tuiwright serve --http HOST:PORT [--allow-remote] [--mcp-idle MS] [--mcp-tools PROFILES] [--token-file PATH]`: flags → runServe.
import { resolve } from "node:path";
import { parseFlags } from "../cli/flags.ts";
import { daemonTarget, type Globals, usage } from "../cli/invocation.ts";
import { SERVE_HELP } from "../cli/command-help.ts";
import { DEFAULT_MCP_IDLE_MS, runServe } from "./serve.ts";
import { selectTools } from "../protocol/mcp-profiles.ts";
import { setting } from "../runtime/settings.ts";

/** --mcp-idle, else $TUIWRIGHT_MCP_IDLE_MS, else 30 min. */
function mcpIdleMs(flag: unknown): number {
  return typeof flag === "number" ? flag : setting("mcpIdleMs") ?? DEFAULT_MCP_IDLE_MS;
}

/** --token-file, else $TUIWRIGHT_SERVE_TOKEN_FILE (relative paths against the cwd), else none. */
function tokenFile(flag: unknown): { path: string; from: string } | undefined {
  if (typeof flag === "string") return { path: resolve(flag), from: "--token-file" };
  const text = setting("serveTokenFile");
  return text ? { path: resolve(text), from: "TUIWRIGHT_SERVE_TOKEN_FILE" } : undefined;
}

export async function runServeCommand(args: string[], globals: Globals): Promise<number> {
  const parsed = parseFlags(args, SERVE_HELP.flags, "serve");
  if (parsed.positionals.length > 0) throw usage(`serve takes no arguments; got ${JSON.stringify(parsed.positionals[0])}`);
  const address = parsed.flags.get("--http");
  if (typeof address !== "string") throw usage("serve needs --http HOST:PORT (for example --http 127.0.0.1:8787)");
  const tools = (parsed.flags.get("--mcp-tools") as string | undefined) ?? setting("mcpTools");
  const mcpTools = selectTools(tools, parsed.flags.has("--mcp-tools") ? "--mcp-tools" : "TUIWRIGHT_MCP_TOOLS", parsed.flags.has("--mcp-output-schemas"));
  return runServe({ address, allowRemote: parsed.flags.has("--allow-remote"), target: daemonTarget(globals), mcpIdleMs: mcpIdleMs(parsed.flags.get("--mcp-idle")), mcpTools, tokenFile: tokenFile(parsed.flags.get("--token-file")) });
}
