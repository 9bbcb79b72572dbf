// `tuiwright mcp`: a Model Context Protocol server on stdio (JSON-RPC 2.0, one message per
// line) whose tools are the method table. Calls go to the same daemon as the CLI (started if
// needed). Nothing but protocol messages is ever written to stdout.
import { asTuiwrightError } from "../protocol/errors.ts";
import type { JsonRpcId } from "../protocol/jsonrpc.ts";
import { defaultSocketPath, namespaceFromEnv } from "../runtime/paths.ts";
import { version } from "../runtime/self.ts";
import { stdinLines, writeRaw } from "../runtime/stdio.ts";
import { connectDaemon } from "../transport/daemon-connection.ts";
import type { RpcClient } from "../transport/rpc-client.ts";
import { renderResult } from "./render.ts";
import { tools } from "./tools.ts";

const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const PAGE = 50;

const INSTRUCTIONS = `tuiwright runs terminal programs on pseudo-terminals. Start one with spawn (argv) or spawn with
shell "bash" for command blocks (exec). Read the screen with snapshot (format "outline" gives refs such as @e4
or @vim.mode), act with press/type/click, and wait on screen state with wait (or the wait field of press/type)
instead of sleeping. kill removes a session.
An AOTUI agent desktop (desktop_create) is read with desktop_snapshot (Markdown) and driven with desktop_exec
(one <context app_id="app_N" view_id="view_NNN">execute OP --arg value</context> command; item references such as
todo_list[0] mean what your last desktop_snapshot showed).`;

type Message = { jsonrpc?: string; id?: JsonRpcId; method?: string; params?: any };

let daemon: Promise<RpcClient> | null = null;

function daemonClient(): Promise<RpcClient> {
  const namespace = namespaceFromEnv(undefined);
  daemon ??= connectDaemon({ namespace, socketPath: defaultSocketPath(namespace) }, { autoStart: true }).catch((error) => {
    daemon = null;
    throw error;
  });
  return daemon;
}

async function send(message: unknown): Promise<void> {
  await writeRaw("stdout", `${JSON.stringify(message)}\n`);
}

/** The agent's own cwd and environment for programs it starts, as the CLI does. */
function spawnDefaults(args: Record<string, unknown>): Record<string, unknown> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), TERM: "xterm-256color" };
  delete env.COLUMNS;
  delete env.LINES;
  return { cwd: process.cwd(), env, ...args };
}

/** The bridge of AOTUI §5.3: the snapshot id of each desktop's last snapshot, injected into
 * desktop_exec so item references mean what the agent read; the agent never sees the id. */
const lastSnapshot = new Map<string, string>();
let lastDesktop: string | undefined;

function bridgeDesktopExec(args: Record<string, unknown>): Record<string, unknown> {
  const desktop = (args.desktop as string | undefined) ?? lastDesktop;
  const snapshot = desktop === undefined ? undefined : lastSnapshot.get(desktop);
  return { ...(desktop === undefined ? {} : { desktop }), ...(snapshot === undefined ? {} : { snapshot_id: snapshot }), ...args };
}

async function callTool(params: any): Promise<unknown> {
  const { byName } = tools();
  const method = byName.get(params?.name);
  if (!method) throw Object.assign(new Error(`unknown tool ${JSON.stringify(params?.name)}`), { code: -32602 });
  const args = (params?.arguments ?? {}) as Record<string, unknown>;
  try {
    const client = await daemonClient();
    let result: any = await client.call(method, method === "spawn" ? spawnDefaults(args) : method === "desktop.exec" ? bridgeDesktopExec(args) : args);
    if (method === "desktop.snapshot") {
      lastSnapshot.set(result.desktop, result.snapshot_id);
      lastDesktop = result.desktop;
      const { snapshot_id: _hidden, ...shown } = result;
      result = shown;
    }
    return { content: [{ type: "text", text: renderResult(method, result) }], structuredContent: result, isError: false };
  } catch (error) {
    const failure = asTuiwrightError(error);
    return {
      content: [{ type: "text", text: `${failure.message}\nhint: ${failure.hint}` }],
      structuredContent: { error: failure.toJsonRpc() },
      isError: true,
    };
  }
}

async function handle(message: Message): Promise<void> {
  const { id, method, params } = message;
  const reply = (result: unknown) => send({ jsonrpc: "2.0", id, result });
  const fail = (code: number, text: string) => send({ jsonrpc: "2.0", id: id ?? null, error: { code, message: text } });
  if (typeof method !== "string") return fail(-32600, "invalid request");
  if (id === undefined) return; // notifications (initialized, cancelled): nothing to answer
  try {
    switch (method) {
      case "initialize": {
        const asked = params?.protocolVersion;
        return reply({
          protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0],
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: "tuiwright", version: version() },
          instructions: INSTRUCTIONS,
        });
      }
      case "ping":
        return reply({});
      case "tools/list": {
        const all = tools().tools;
        const start = params?.cursor ? Number(params.cursor) : 0;
        if (!Number.isInteger(start) || start < 0 || start > all.length) return fail(-32602, `invalid cursor ${JSON.stringify(params?.cursor)}`);
        const page = all.slice(start, start + PAGE);
        return reply({ tools: page, ...(start + PAGE < all.length ? { nextCursor: String(start + PAGE) } : {}) });
      }
      case "tools/call":
        return reply(await callTool(params));
      default:
        return fail(-32601, `method not found: ${method}`);
    }
  } catch (error) {
    const code = typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : -32603;
    return fail(code, (error as Error).message);
  }
}

export async function runMcp(): Promise<number> {
  const inFlight = new Set<Promise<void>>();
  for await (const line of stdinLines()) {
    let message: Message;
    try {
      message = JSON.parse(line);
    } catch {
      await send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
      continue;
    }
    const task = handle(message).finally(() => inFlight.delete(task));
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  (await daemon?.catch(() => null))?.close();
  return 0;
}
