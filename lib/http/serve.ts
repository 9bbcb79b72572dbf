// `tuiwright serve --http HOST:PORT`: the daemon's methods over HTTP for clients that cannot
// reach a Unix socket. Two endpoints on one listener:
//   POST /rpc  plain JSON-RPC 2.0 (one request or a batch), the same methods as the socket;
//   /mcp       MCP's Streamable HTTP transport (the SDK's): POST to call (answers stream as SSE,
//              progress included), GET for the server's stream, DELETE to end the session —
//              which kills the sessions that client started, as a stdio client's going does.
//              A client that goes away without DELETE is ended the same way once it has sent
//              nothing for --mcp-idle (default 30 min) and has no call running.
// Loopback only unless --allow-remote; a bearer token is generated at every start, printed once
// and stored 0600 in the state directory (or read from --token-file, the same at every start); Host and Origin are checked against DNS rebinding.
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { asTuiwrightError, TuiwrightError } from "../protocol/errors.ts";
import { stateLocation } from "../runtime/paths.ts";
import { ensureOwnedDir } from "../runtime/owned-dir.ts";
import { listenHttp } from "../runtime/http-listen.ts";
import { freshServeToken, pinnedServeToken, removeServeToken, writeServeToken } from "../runtime/serve-token-file.ts";
import { printOut } from "../runtime/stdio.ts";
import { connectDaemon, type DaemonTarget } from "../transport/daemon-connection.ts";
import type { RpcClient } from "../transport/rpc-client.ts";
import { createMcpServer, type McpConnection } from "../mcp/server.ts";
import type { ToolSelection } from "../protocol/mcp-profiles.ts";
import { checkRequest, makeGuard, refusal } from "./guard.ts";

export const MAX_BODY_BYTES = 1024 * 1024;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
/** Methods that stream notifications on their connection: meaningless over request/response. */
const STREAMING = new Set(["subscribe", "subscribe_events"]);

/** How long an MCP client may send nothing (with no call running) before its session ends. */
export const DEFAULT_MCP_IDLE_MS = 30 * 60_000;

/** `mcpIdleMs`: 0 keeps idle MCP sessions until DELETE or the server stops. */
/** `tokenFile`: the token comes from this file (created if missing) and stays the same across
 * restarts; `from` names the flag or variable that gave it. Without it, a fresh token each start. */
export type ServeOptions = { address: string; allowRemote: boolean; target: DaemonTarget; mcpIdleMs: number; mcpTools: ToolSelection; tokenFile?: { path: string; from: string } };

function parseAddress(address: string): { hostname: string; port: number } {
  const match = /^(\[[0-9a-fA-F:]+\]|[^:]+):(\d{1,5})$/.exec(address);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new TuiwrightError("usage", `--http needs HOST:PORT (e.g. 127.0.0.1:8787, port 0 picks one), got ${JSON.stringify(address)}`);
  return { hostname: match[1]!.replace(/^\[|\]$/g, ""), port };
}

/** The verified state directory, where the token is stored (0600) while the server runs. */
function tokenDir(target: DaemonTarget): string {
  return ensureOwnedDir(stateLocation(target.namespace), "state directory");
}

const tooBig = (what: string) => Object.assign(new Error(`${what} exceeds the ${MAX_BODY_BYTES}-byte limit`), { status: 413 });

/** The body, counted as it arrives (a chunked body has no length to check first): the read
 * stops, and the request is refused, at the first chunk past the limit. */
async function readBodyBytes(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooBig(`a body of ${declared} bytes`);
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooBig(`a body of more than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function readBody(request: Request): Promise<unknown> {
  const bytes = await readBodyBytes(request);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw Object.assign(new Error("the body is not JSON"), { rpc: { code: -32700, message: "parse error" } });
  }
}

async function rpcOne(client: () => Promise<RpcClient>, message: unknown): Promise<object | null> {
  const { id, method, params } = (message ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof method !== "string" || (message as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
    return { jsonrpc: "2.0", id: id ?? null, error: { code: -32600, message: "invalid request: expected {jsonrpc: \"2.0\", method, params, id}" } };
  }
  try {
    if (STREAMING.has(method)) throw new TuiwrightError("usage", `${method} streams notifications on its connection; use the Unix socket (or \`tuiwright events\`) for it`);
    const result = await (await client()).call(method, params ?? {});
    return id === undefined ? null : { jsonrpc: "2.0", id, result };
  } catch (error) {
    return id === undefined ? null : { jsonrpc: "2.0", id, error: asTuiwrightError(error).toJsonRpc() };
  }
}

type McpSession = McpConnection & { transport: WebStandardStreamableHTTPServerTransport; idle?: ReturnType<typeof setTimeout>; ended?: Promise<void> };

/** MCP clients by session id: an `initialize` without one starts a session (a server of its
 * own, with its own sessions to kill when it ends); every later request names it. */
class McpSessions {
  readonly #target: DaemonTarget;
  readonly #idleMs: number;
  readonly #tools: ToolSelection;
  readonly #open = new Map<string, McpSession>();

  constructor(target: DaemonTarget, idleMs: number, tools: ToolSelection) {
    this.#target = target;
    this.#idleMs = idleMs;
    this.#tools = tools;
  }

  /** Every request (re)starts the session's idle clock; when it runs out with a call still
   * running (a long exec), it starts again rather than cut the call off. */
  #seen(session: McpSession): void {
    if (this.#idleMs === 0 || session.ended) return;
    if (session.idle) {
      session.idle.refresh();
      return;
    }
    session.idle = setTimeout(() => {
      if (session.calls.busy()) session.idle!.refresh();
      else void this.#end(session);
    }, this.#idleMs);
    session.idle.unref();
  }

  async handle(request: Request, parsedBody: unknown): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.#open.get(id);
      if (!session) return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32001, message: `no MCP session ${JSON.stringify(id)} (it ended, was idle longer than --mcp-idle, or this server restarted): initialize again` } }, { status: 404 });
      this.#seen(session);
      return session.transport.handleRequest(request, { parsedBody });
    }
    if (request.method !== "POST" || !isInitializeRequest(parsedBody)) {
      return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "no Mcp-Session-Id header: start with an initialize request, then send the session id it returns" } }, { status: 400 });
    }
    const session: McpSession = { ...createMcpServer(this.#target, this.#tools), transport: new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        this.#open.set(sessionId, session);
        this.#seen(session);
      },
      // A DELETE is answered once this is done: the client sees its sessions gone.
      onsessionclosed: () => this.#end(session),
    }) };
    session.server.onclose = () => void this.#end(session);
    await session.server.connect(session.transport);
    return session.transport.handleRequest(request, { parsedBody });
  }

  /** A client's session ends: its calls are cancelled, the sessions it started killed (once). */
  #end(session: McpSession): Promise<void> {
    session.ended ??= (async () => {
      clearTimeout(session.idle);
      if (session.transport.sessionId !== undefined) this.#open.delete(session.transport.sessionId);
      await session.server.close();
      await session.calls.close();
    })();
    return session.ended;
  }

  /** The server is stopping: every session ends. */
  async close(): Promise<void> {
    await Promise.all([...this.#open.values()].map((session) => this.#end(session)));
  }
}

/** One request or a batch, answered as JSON (204 when everything was a notification). */
async function answer(body: unknown, one: (message: unknown) => Promise<object | null>): Promise<Response> {
  if (Array.isArray(body)) {
    if (body.length === 0) return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "empty batch" } });
    const replies = (await Promise.all(body.map(one))).filter((reply) => reply !== null);
    return replies.length === 0 ? new Response(null, { status: 202 }) : Response.json(replies);
  }
  const reply = await one(body);
  return reply === null ? new Response(null, { status: 202 }) : Response.json(reply);
}

export async function serveHttp(options: ServeOptions, started: (info: { url: string; tokenFile: string; token: string }) => Promise<void>, stop: Promise<void>): Promise<void> {
  const { hostname, port } = parseAddress(options.address);
  if (!LOOPBACK.has(hostname) && !options.allowRemote) {
    throw new TuiwrightError("permission", `refusing to listen on ${hostname}: only loopback addresses unless --allow-remote (anyone who can reach it and has the token drives your programs)`);
  }
  let daemon: Promise<RpcClient> | null = null;
  const client = () => {
    daemon ??= connectDaemon(options.target, { autoStart: true }).catch((error) => {
      daemon = null;
      throw error;
    });
    return daemon;
  };
  const token = options.tokenFile ? pinnedServeToken(options.tokenFile.path, options.tokenFile.from) : freshServeToken();
  let guard = makeGuard(token, hostname, port, options.allowRemote);
  const mcp = new McpSessions(options.target, options.mcpIdleMs, options.mcpTools);
  const handler = async (request: Request): Promise<Response> => {
    const refused = checkRequest(guard, request);
    if (refused) return refused;
    const path = new URL(request.url).pathname;
    if (path !== "/rpc" && path !== "/mcp") return refusal(404, `no such endpoint ${path}: POST /rpc (JSON-RPC) or /mcp (MCP)`);
    if (path === "/rpc" && request.method !== "POST") return refusal(405, `${request.method} /rpc: only POST is served`, { Allow: "POST" });
    let body: unknown;
    if (request.method === "POST") {
      try {
        body = await readBody(request);
      } catch (error) {
        const failure = error as { status?: number; rpc?: object; message: string };
        if (failure.rpc) return Response.json({ jsonrpc: "2.0", id: null, error: failure.rpc }, { status: path === "/mcp" ? 400 : 200 });
        return refusal(failure.status ?? 400, failure.message);
      }
    }
    return path === "/rpc" ? answer(body, (message) => rpcOne(client, message)) : mcp.handle(request, body);
  };
  await using listener = listenHttp(hostname, port, handler);
  guard = makeGuard(token, hostname, listener.port, options.allowRemote);
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  const dir = tokenDir(options.target);
  const tokenFile = writeServeToken(dir, listener.port, token);
  try {
    await started({ url: `http://${shown}:${listener.port}`, tokenFile, token });
    await stop;
    await mcp.close();
    const connecting = daemon as Promise<RpcClient> | null;
    (await connecting?.catch(() => null))?.close();
  } finally {
    // The token is worth nothing once we stop: leave nothing for anyone to find.
    removeServeToken(dir, listener.port, token);
  }
}

/** Runs until SIGINT or SIGTERM. */
export async function runServe(options: ServeOptions): Promise<number> {
  let release!: () => void;
  const stop = new Promise<void>((resolve) => { release = resolve; });
  process.once("SIGINT", release);
  process.once("SIGTERM", release);
  await serveHttp(options, async ({ url, tokenFile, token }) => {
    // A pinned token is not printed: it is in the user's file, and output ends up in logs.
    const shown = options.tokenFile ? `read from ${options.tokenFile.path} (the same at every start)` : token;
    await printOut(`serving ${url}/rpc (JSON-RPC) and ${url}/mcp (MCP Streamable HTTP)\ntoken: ${shown}\n(stored in ${tokenFile}, mode 0600; send it as Authorization: Bearer <token>)`);
  }, stop);
  return 0;
}
