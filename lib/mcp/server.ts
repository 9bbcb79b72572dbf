// `tuiwright mcp`: a Model Context Protocol server on stdio (JSON-RPC 2.0, one message per
// line) whose tools are the method table. Calls go to the same daemon as the CLI (started if
// needed). Nothing but protocol messages is ever written to stdout.
import skillText from "../../SKILL.md" with { type: "text" };
import { spawnEnvironment } from "../protocol/spawn-env.ts";
import { asTuiwrightError } from "../protocol/errors.ts";
import type { JsonRpcId } from "../protocol/jsonrpc.ts";
import { defaultSocketPath, namespaceFromEnv } from "../runtime/paths.ts";
import { version } from "../runtime/self.ts";
import { stdinLines, writeRaw } from "../runtime/stdio.ts";
import { connectDaemon } from "../transport/daemon-connection.ts";
import type { RpcClient } from "../transport/rpc-client.ts";
import { coerceArgs } from "./coerce-args.ts";
import { toolHint } from "./tool-hints.ts";
import { renderFailure, resultContent } from "./render.ts";
import { tools } from "./tools.ts";

const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/** Tools per tools/list page: many clients (the SDK's listTools among them) read only the first
 * page, so every tool fits in one; the cursor still works for clients that page. */
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

export type Message = { jsonrpc?: string; id?: JsonRpcId; method?: string; params?: any };

let daemon: Promise<RpcClient> | null = null;

function daemonTarget() {
  const namespace = namespaceFromEnv(undefined);
  return { namespace, socketPath: defaultSocketPath(namespace) };
}

function daemonClient(): Promise<RpcClient> {
  daemon ??= connectDaemon(daemonTarget(), { autoStart: true }).catch((error) => {
    daemon = null;
    throw error;
  });
  return daemon;
}

async function send(message: unknown): Promise<void> {
  await writeRaw("stdout", `${JSON.stringify(message)}\n`);
}

/** Sessions this server started without `keep`: killed when the MCP client goes away. */
const started = new Set<string>();

/** The agent's own cwd and environment for programs it starts, as the CLI does; a given `env`
 * is merged over it (HOME, PATH stay) unless `replaceEnv` says it is the whole environment. */
function spawnParams(args: Record<string, unknown>): Record<string, unknown> {
  const { keep: _keep, replaceEnv, env: given, ...rest } = args;
  const env = spawnEnvironment(process.env, (given ?? {}) as Record<string, string>, replaceEnv === true);
  return { cwd: process.cwd(), ...rest, env };
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

/** Sends a notification to the client (stdio); absent where no stream exists (HTTP's JSON replies). */
export type Notify = (message: object) => Promise<void>;

/** How often a long call reports progress (when the client asked, with a progressToken). */
const PROGRESS_MS = Number(process.env.TUIWRIGHT_MCP_PROGRESS_MS) || 5000;
/** Calls in flight by request id, for `notifications/cancelled`. */
const running = new Map<string, () => Promise<void>>();
const CANCELLED = Symbol("cancelled");
/** Calls that can run long and wait on the screen: each gets a daemon connection of its own, so
 * cancelling closes it. Everything else shares one connection — a lease or a desktop lock
 * belongs to the connection that took it and must outlive the call. */
const CANCELLABLE = new Set(["exec", "wait", "press", "type", "click", "paste", "navigate", "reload", "go_back", "go_forward", "scroll", "wait_for_frame_quiescence", "wait_for_title_contains"]);

/** Long calls send `notifications/progress` so a client that resets its timeout on progress
 * never gives up; a cancelled call's connection is closed (the daemon drops its waits), and a
 * cancelled `exec` also ends the command it started. */
async function callTool(params: any, id: JsonRpcId | undefined, notify?: Notify): Promise<unknown> {
  const { byName, tools: list } = tools();
  const method = byName.get(params?.name);
  if (!method) throw Object.assign(new Error(`unknown tool ${JSON.stringify(params?.name)}`), { code: -32602 });
  const schema = list.find((tool) => tool.name === params.name)!.inputSchema;
  const args = coerceArgs(schema, params?.arguments ?? {}) as Record<string, unknown>;
  let cancelled = false;
  let own: RpcClient | null = null;
  const key = JSON.stringify(id ?? null);
  running.set(key, async () => {
    cancelled = true;
    own?.close();
    if (method === "exec") await (await daemonClient()).call("end", args.session === undefined ? {} : { session: args.session }).catch(() => undefined);
  });
  const token = params?._meta?.progressToken;
  let ticks = 0;
  const progress = token !== undefined && notify
    ? setInterval(() => void notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: ++ticks, message: `${method} still running (${Math.round((ticks * PROGRESS_MS) / 1000)} s)` } }), PROGRESS_MS)
    : null;
  try {
    const shared = await daemonClient(); // starts the daemon if needed, once
    if (CANCELLABLE.has(method)) own = await connectDaemon(daemonTarget(), { autoStart: false });
    const sent = method === "spawn" ? spawnParams(args) : method === "desktop.exec" ? bridgeDesktopExec(args) : args;
    let result: any = await (own ?? shared).call(method, sent);
    if (method === "spawn" && args.keep !== true) started.add((result as { name: string }).name);
    if (method === "kill") started.delete((result as { session?: string }).session ?? "");
    if (method === "desktop.snapshot") {
      lastSnapshot.set(result.desktop, result.snapshot_id);
      lastDesktop = result.desktop;
      const { snapshot_id: _hidden, ...shown } = result;
      result = shown;
    }
    return { content: resultContent(method, result), structuredContent: result, isError: false };
  } catch (error) {
    if (cancelled) return CANCELLED;
    const failure = asTuiwrightError(error);
    return {
      content: [{ type: "text", text: renderFailure(failure.message, toolHint(failure.errorName, failure.hint), failure.details) }],
      structuredContent: { error: failure.toJsonRpc() },
      isError: true,
    };
  } finally {
    if (progress) clearInterval(progress);
    running.delete(key);
    own?.close();
  }
}

/** Kills what this client started (and did not ask to keep): an agent that goes away leaves nothing running. */
async function killStarted(): Promise<void> {
  if (started.size === 0 || !daemon) return;
  const client = await daemon.catch(() => null);
  await Promise.all([...started].map((session) => client?.call("kill", { session }).catch(() => undefined)));
  started.clear();
}

/** The answer to one MCP message (null for a notification): shared by stdio and `serve --http`. */
export async function respond(message: Message, notify?: Notify): Promise<object | null> {
  const { id, method, params } = message ?? {};
  const reply = (result: unknown) => ({ jsonrpc: "2.0", id, result });
  const fail = (code: number, text: string) => ({ jsonrpc: "2.0", id: id ?? null, error: { code, message: text } });
  if (typeof method !== "string") return fail(-32600, "invalid request");
  if (method === "notifications/cancelled") await running.get(JSON.stringify(params?.requestId ?? null))?.();
  if (id === undefined) return null; // notifications (initialized, cancelled): nothing to answer
  try {
    switch (method) {
      case "initialize": {
        const asked = params?.protocolVersion;
        return reply({
          protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0],
          capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
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
      case "tools/call": {
        const result = await callTool(params, id, notify);
        return result === CANCELLED ? null : reply(result); // a cancelled request gets no answer
      }
      case "resources/list":
        return reply({ resources: [SKILL_RESOURCE] });
      case "resources/read":
        if (params?.uri !== SKILL_RESOURCE.uri) return fail(-32002, `resource not found: ${JSON.stringify(params?.uri)}`);
        return reply({ contents: [{ uri: SKILL_RESOURCE.uri, mimeType: SKILL_RESOURCE.mimeType, text: skillText }] });
      case "prompts/list":
        return reply({ prompts: [SKILL_PROMPT] });
      case "prompts/get":
        if (params?.name !== SKILL_PROMPT.name) return fail(-32602, `unknown prompt ${JSON.stringify(params?.name)}`);
        return reply({ description: SKILL_PROMPT.description, messages: [{ role: "user", content: { type: "text", text: skillText } }] });
      default:
        return fail(-32601, `method not found: ${method}`);
    }
  } catch (error) {
    const code = typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : -32603;
    return fail(code, (error as Error).message);
  }
}

/** Closes the daemon connection (the stdio server at its end; `serve` when it stops). */
export async function closeMcp(): Promise<void> {
  await killStarted();
  (await daemon?.catch(() => null))?.close();
  daemon = null;
}

export async function runMcp(): Promise<number> {
  const inFlight = new Set<Promise<void>>();
  // Clients end a stdio server by closing its stdin or by signalling it (the SDK's close()):
  // either way, the sessions it started go with it.
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.once(signal, () => void closeMcp().finally(() => process.exit(0)));
  }
  for await (const line of stdinLines()) {
    let message: Message;
    try {
      message = JSON.parse(line);
    } catch {
      await send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
      continue;
    }
    const task = respond(message, send)
      .then((answer) => (answer ? send(answer) : undefined))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  await closeMcp();
  return 0;
}
