// The MCP server on the official SDK: its tools are the method table (lib/mcp/tools.ts), run
// per client by ToolCalls; SKILL.md is a resource and a prompt. `tuiwright mcp` serves one on
// stdio; `serve --http` one per Streamable HTTP session (lib/http/serve.ts). Nothing but
// protocol messages is ever written to stdout.
import skillText from "../../SKILL.md" with { type: "text" };
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema,
  McpError, ReadResourceRequestSchema, type Tool as SdkTool,
} from "@modelcontextprotocol/sdk/types.js";
import { defaultSocketPath, namespaceFromEnv } from "../runtime/paths.ts";
import { version } from "../runtime/self.ts";
import type { DaemonTarget } from "../transport/daemon-connection.ts";
import { nativeStdio } from "./native-stdio.ts";
import { ToolCalls } from "./tool-calls.ts";
import { tools } from "./tools.ts";

/** Tools per tools/list page: many clients read only the first page, so every tool fits in one;
 * the cursor still works for clients that page. */
const PAGE = 500;

const INSTRUCTIONS = `tuiwright runs terminal programs on pseudo-terminals. Start one with spawn (argv) or spawn with
shell "bash" for command blocks (exec). Read the screen with snapshot (format "outline" gives refs such as @e4
or @vim.mode), act with press/type/click, and wait on screen state with wait (or the wait field of press/type)
instead of sleeping. kill removes a session.
An AOTUI agent desktop (desktop_create) is read with desktop_snapshot (Markdown) and driven with desktop_exec
(one <context app_id="app_N" view_id="view_NNN">execute OP --arg value</context> command; item references such as
todo_list[0] mean what your last desktop_snapshot showed).`;

/** SKILL.md, the few-token guide to driving terminal programs, as a resource and a prompt. */
const SKILL_RESOURCE = { uri: "tuiwright://skill", name: "SKILL.md", title: "Driving terminal programs with tuiwright", mimeType: "text/markdown" };
const SKILL_PROMPT = { name: "tuiwright-skill", title: "Use tuiwright", description: "How to drive a terminal program with tuiwright's tools in few tokens (SKILL.md)" };

export type McpConnection = { server: Server; calls: ToolCalls };

/** A server for one client. Connect it to a transport; when that closes, `calls.close()`
 * kills the sessions the client started (unless kept). */
export function createMcpServer(target: DaemonTarget): McpConnection {
  const calls = new ToolCalls(target);
  const server = new Server(
    { name: "tuiwright", version: version() },
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const all = tools().tools as SdkTool[];
    const cursor = request.params?.cursor;
    const start = cursor ? Number(cursor) : 0;
    if (!Number.isInteger(start) || start < 0 || start > all.length) throw new McpError(ErrorCode.InvalidParams, `invalid cursor ${JSON.stringify(cursor)}`);
    return { tools: all.slice(start, start + PAGE), ...(start + PAGE < all.length ? { nextCursor: String(start + PAGE) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => calls.call(request.params.name, request.params.arguments, extra));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [SKILL_RESOURCE] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== SKILL_RESOURCE.uri) throw new McpError(-32002, `resource not found: ${JSON.stringify(request.params.uri)}`);
    return { contents: [{ uri: SKILL_RESOURCE.uri, mimeType: SKILL_RESOURCE.mimeType, text: skillText }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [SKILL_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== SKILL_PROMPT.name) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(request.params.name)}`);
    return { description: SKILL_PROMPT.description, messages: [{ role: "user", content: { type: "text", text: skillText } }] };
  });
  return { server, calls };
}

/** `tuiwright mcp`: one client on stdio. Clients end it by closing its stdin (answers still
 * owed are sent first) or by signalling it (calls in flight are cancelled); either way the
 * sessions it started go with it. */
export async function runMcp(): Promise<number> {
  const namespace = namespaceFromEnv(undefined);
  const { server, calls } = createMcpServer({ namespace, socketPath: defaultSocketPath(namespace) });
  const closed = new Promise<void>((resolve) => { server.onclose = resolve; });
  const stdio = nativeStdio();
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(signal, () => void server.close());
  void stdio.ended.then(() => calls.close()).finally(() => server.close());
  await server.connect(new StdioServerTransport(stdio.stdin, stdio.stdout));
  await closed;
  await calls.close();
  await stdio.flushed(); // the last answers reach the client before exit
  return 0;
}
