// The MCP server on the official SDK: its tools are the method table (lib/mcp/tools.ts), run
// per client by ToolCalls; SKILL.md is a resource and a prompt. `tuiwright mcp` serves one on
// stdio; `serve --http` one per Streamable HTTP session (lib/http/serve.ts). Nothing but
// protocol messages is ever written to stdout.
// Start-up: an agent waits for the initialize answer, so only what answers it loads first — the
// SDK (whose protocol schemas the build makes lazy: scripts/lazy-sdk-schemas.ts). The tool list
// is JSON made at build time (tool-list.ts), loaded on the first tools/list; the tool machinery
// (the method table, valibot) on the first tools/call; Ajv only if the SDK ever asks for it.
import skillText from "../../SKILL.md" with { type: "text" };
import mcpSkillText from "./SKILL-MCP.md" with { type: "text" };
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { config as zodConfig } from "zod/v4";
import {
  CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema,
  McpError, ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema, type CallToolResult, type Tool as SdkTool,
} from "@modelcontextprotocol/sdk/types.js";
import { defaultSocketPath, namespaceFromEnv } from "../runtime/paths.ts";
import { version } from "../runtime/self.ts";
import { startedUp } from "../runtime/startup-jit.ts";
import type { DaemonTarget } from "../transport/daemon-connection.ts";
import { DeferredAjvValidator } from "./deferred-validator.ts";
import { nativeStdio } from "./native-stdio.ts";
import type { CallExtra, ToolCalls } from "./tool-calls.ts";
import { currentToolName, selectTools, type ToolSelection } from "../protocol/mcp-profiles.ts";

/** Tools per tools/list page: many clients read only the first page, so every tool fits in one;
 * the cursor still works for clients that page. */
const PAGE = 500;

// The SDK checks every message with zod, whose first parse of each object schema generates
// and compiles a parser (new Function): ~4 ms of the first answers for messages this small.
// The interpreted parser is fine for JSON-RPC frames (and zod here is the SDK's alone).
zodConfig({ jitless: true });

const INSTRUCTIONS = `tuiwright runs terminal programs on pseudo-terminals. Start one with spawn (argv) or spawn with
shell "bash" for command blocks (exec). Read the screen with snapshot (format "outline" gives refs such as @e4
or @vim.mode), act with press/type/click, and wait on screen state with wait (or the wait field of press/type)
instead of sleeping. kill removes a session. The prompt tuiwright-skill has the whole loop in tool calls.`;

const DESKTOP_INSTRUCTIONS = `
An AOTUI agent desktop (desktop_create) is read with desktop_snapshot (Markdown) and driven with desktop_exec
(one <context app_id="app_N" view_id="view_NNN">execute OP --arg value</context> command; item references such as
todo_list[0] mean what your last desktop_snapshot showed). Each desktop is also a resource,
tuiwright://desktop/ID: subscribe to it to be told (notifications/resources/updated) when it changes.`;

/** The guide in tool calls (lib/mcp/SKILL-MCP.md) as a resource and a prompt; SKILL.md, the
 * same in CLI commands, as a second resource. */
const SKILL_RESOURCE = { uri: "tuiwright://skill", name: "SKILL-MCP.md", title: "Driving terminal programs with tuiwright's tools", mimeType: "text/markdown" };
const CLI_SKILL_RESOURCE = { uri: "tuiwright://skill-cli", name: "SKILL.md", title: "Driving terminal programs with the tuiwright CLI", mimeType: "text/markdown" };
const SKILL_PROMPT = { name: "tuiwright-skill", title: "Use tuiwright", description: "How to drive a terminal program with tuiwright's tools, in tool calls" };
const RESOURCES: Record<string, string> = { [SKILL_RESOURCE.uri]: mcpSkillText, [CLI_SKILL_RESOURCE.uri]: skillText };

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const DESKTOP_URI = "tuiwright://desktop/";

/** The desktop id of a tuiwright://desktop/ID resource. */
function desktopOf(uri: string): string {
  const id = uri.startsWith(DESKTOP_URI) ? uri.slice(DESKTOP_URI.length) : "";
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id)) throw new McpError(-32002, `resource not found: ${JSON.stringify(uri)}`);
  return id;
}

/** One client's tools: its ToolCalls and the tool list load when it first lists or calls a
 * tool. Requests in flight are kept, so that close() answers them before it ends the client. */
class ClientTools {
  readonly #target: DaemonTarget;
  readonly #selection: ToolSelection;
  #calls: Promise<ToolCalls> | null = null;
  readonly #pending = new Set<Promise<unknown>>();

  constructor(target: DaemonTarget, selection: ToolSelection) {
    this.#target = target;
    this.#selection = selection;
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    void work.catch(() => undefined).finally(() => this.#pending.delete(work));
    return work;
  }

  #loaded(): Promise<ToolCalls> {
    startedUp(); // the first tool call: start-up (lib/runtime/startup-jit.ts) is over
    this.#calls ??= import("./tool-calls.ts").then(({ ToolCalls }) => new ToolCalls(this.#target));
    return this.#calls;
  }

  /** The tool list (prebuilt JSON, lib/mcp/tool-list.ts). */
  list(): Promise<SdkTool[]> {
    return this.#track(import("./tool-list.ts").then(({ toolsFor }) => toolsFor(this.#selection) as SdkTool[]));
  }

  call(called: string, args: unknown, extra: CallExtra): Promise<CallToolResult> {
    const name = currentToolName(called); // a former (camelCase) name still works
    if (!this.#selection.names.has(name)) {
      return Promise.reject(new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(name)}: not in this server's tool profiles (${this.#selection.profiles.join(", ")}); tools/list names them, and \`tuiwright mcp --tools …\` chooses them`));
    }
    return this.#track(this.#loaded().then((calls) => calls.call(name, args, extra)));
  }

  /** The desktops as resources, their Markdown, and their signals as resource updates. */
  desktops(): Promise<string[]> {
    return this.#track(this.#loaded().then((calls) => calls.desktops()));
  }

  readDesktop(desktop: string): Promise<string> {
    return this.#track(this.#loaded().then((calls) => calls.readDesktop(desktop)));
  }

  watchDesktop(desktop: string, changed: (desktop: string) => void): Promise<void> {
    return this.#track(this.#loaded().then((calls) => {
      calls.onDesktopChanged = changed;
      return calls.watchDesktop(desktop);
    }));
  }

  unwatchDesktop(desktop: string): Promise<void> {
    return this.#loaded().then((calls) => calls.unwatchDesktop(desktop));
  }

  /** Whether a request is being answered (a tool call running, the list being built). */
  busy(): boolean {
    return this.#pending.size > 0;
  }

  /** The client has gone: answer what it asked (the SDK sends an answer a turn after its
   * handler settles), then ToolCalls.close() ends what it started. */
  async close(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
    await nextTurn();
    await (await this.#calls)?.close();
  }
}

export type McpConnection = { server: Server; calls: { busy(): boolean; close(): Promise<void> } };

/** A server for one client. Connect it to a transport; when that closes, `calls.close()`
 * kills the sessions the client started (unless kept). */
export function createMcpServer(target: DaemonTarget, selection: ToolSelection = selectTools(undefined)): McpConnection {
  const calls = new ClientTools(target, selection);
  const server = new Server(
    { name: "tuiwright", version: version() },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: true }, prompts: { listChanged: false } },
      instructions: INSTRUCTIONS + (selection.profiles.includes("desktop") ? DESKTOP_INSTRUCTIONS : ""),
      jsonSchemaValidator: new DeferredAjvValidator(),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const all = await calls.list();
    const cursor = request.params?.cursor;
    const start = cursor ? Number(cursor) : 0;
    if (!Number.isInteger(start) || start < 0 || start > all.length) throw new McpError(ErrorCode.InvalidParams, `invalid cursor ${JSON.stringify(cursor)}`);
    return { tools: all.slice(start, start + PAGE), ...(start + PAGE < all.length ? { nextCursor: String(start + PAGE) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => calls.call(request.params.name, request.params.arguments, extra));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [SKILL_RESOURCE, CLI_SKILL_RESOURCE, ...(await calls.desktops()).map((id) => ({ uri: `${DESKTOP_URI}${id}`, name: `desktop ${id}`, title: `AOTUI desktop ${id}`, mimeType: "text/markdown" }))],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (Object.hasOwn(RESOURCES, uri)) return { contents: [{ uri, mimeType: "text/markdown", text: RESOURCES[uri]! }] };
    const desktop = desktopOf(uri);
    const markup = await calls.readDesktop(desktop).catch((error: Error) => { throw new McpError(-32002, `resource not found: ${JSON.stringify(uri)} (${error.message})`); });
    return { contents: [{ uri, mimeType: "text/markdown", text: markup }] };
  });
  // A desktop's signals (§5.5: lightweight, no data) as notifications/resources/updated: the
  // client reads the resource (or calls desktop_snapshot) when it wants the Markdown.
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const desktop = desktopOf(request.params.uri);
    await calls.watchDesktop(desktop, (changed) => void server.sendResourceUpdated({ uri: `${DESKTOP_URI}${changed}` }).catch(() => undefined))
      .catch((error: Error) => { throw new McpError(-32002, `resource not found: ${JSON.stringify(request.params.uri)} (${error.message})`); });
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    await calls.unwatchDesktop(desktopOf(request.params.uri));
    return {};
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [SKILL_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== SKILL_PROMPT.name) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(request.params.name)}`);
    return { description: SKILL_PROMPT.description, messages: [{ role: "user", content: { type: "text", text: mcpSkillText } }] };
  });
  return { server, calls };
}

/** `tuiwright mcp`: one client on stdio. Clients end it by closing its stdin (answers still
 * owed are sent first) or by signalling it (calls in flight are cancelled); either way the
 * sessions it started go with it. */
export async function runMcp(selection: ToolSelection, namespaceFlag?: string): Promise<number> {
  const namespace = namespaceFromEnv(namespaceFlag);
  const { server, calls } = createMcpServer({ namespace, socketPath: defaultSocketPath(namespace) }, selection);
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
