// One MCP client's tool calls, run against the daemon the CLI uses (started if needed). The
// client's state lives here, one instance per client: the sessions it started (killed when it
// goes, unless spawned with `keep`), the desktop snapshot bridge, and its daemon connection.
// Progress and cancellation come from the SDK's request context: `_meta.progressToken` and
// `signal`.
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, McpError, type CallToolResult, type ServerNotification, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { INTERACTIVE_PTY } from "../protocol/compat/interactive-pty.ts";
import { asTuiwrightError } from "../protocol/errors.ts";
import type { MethodName } from "../protocol/methods.ts";
import { spawnEnvironment } from "../protocol/spawn-env.ts";
import { connectDaemon, type DaemonTarget } from "../transport/daemon-connection.ts";
import type { RpcClient } from "../transport/rpc-client.ts";
import { coerceArgs } from "./coerce-args.ts";
import { renderFailure, resultContent } from "./render.ts";
import { toolHint } from "./tool-hints.ts";
import { toolList } from "./tool-list.ts";
import { HIDDEN_RESULT_FIELDS } from "./tools.ts";
import { setting } from "../runtime/settings.ts";

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How often a long call reports progress (when the client asked, with a progressToken). */
const PROGRESS_MS = setting("mcpProgressMs") ?? 5000;

/** Methods whose effect the daemon ties to the connection that made the call (a write lease
 * without ttl, a desktop's input lock — and the desktop commands and release, which only that
 * connection may send while it holds the lock): they go on the client's lasting connection.
 * Every other call gets a connection of its own, so cancelling it closes that connection and the
 * daemon drops its waits. */
const HELD_BY_CONNECTION: ReadonlySet<string> = new Set<MethodName>(["lease.acquire", "desktop.acquire", "desktop.release", "desktop.exec"]);

/** An exec (or a compat name for one) started a command block: cancelling it ends that command. */
function runsBlock(method: string): boolean {
  return method === "exec" || (Object.hasOwn(INTERACTIVE_PTY, method) && INTERACTIVE_PTY[method]?.aliasOf === "exec");
}

export class ToolCalls {
  readonly #target: DaemonTarget;
  #daemon: Promise<RpcClient> | null = null;
  /** Sessions this client started without `keep`. */
  readonly #started = new Set<string>();
  /** The bridge of AOTUI §5.3: each desktop's last snapshot id, injected into desktop_exec so
   * item references mean what the agent read; the agent never sees the id. */
  readonly #lastSnapshot = new Map<string, string>();
  #lastDesktop: string | undefined;
  /** Calls running, and the `end`s cancellations sent: close() waits for both. */
  readonly #pending = new Set<Promise<unknown>>();
  /** Desktops whose resource the client subscribed to: daemon subscription id → desktop id. */
  readonly #watched = new Map<string, string>();
  /** Called with a desktop id when one the client subscribed to changed. */
  onDesktopChanged: ((desktop: string) => void) | null = null;

  constructor(target: DaemonTarget) {
    this.#target = target;
  }

  /** The client's lasting connection; a daemon that stopped (daemon_stop) is started again by the next call. */
  #shared(): Promise<RpcClient> {
    if (this.#daemon) return this.#daemon;
    const connecting = connectDaemon(this.#target, { autoStart: true });
    this.#daemon = connecting;
    connecting.then(
      (client) => void client.closed.then(() => { if (this.#daemon === connecting) this.#daemon = null; }),
      () => { if (this.#daemon === connecting) this.#daemon = null; },
    );
    return connecting;
  }

  /** The desktops of a running daemon (none when no daemon runs: listing starts nothing). */
  async desktops(): Promise<string[]> {
    try {
      const daemon = this.#daemon ? await this.#daemon : await connectDaemon(this.#target, { autoStart: false });
      const listed = (await daemon.call("desktop.list", {})) as { desktops: { desktop: string }[] };
      if (daemon !== (await this.#daemon?.catch(() => null))) daemon.close();
      return listed.desktops.map((d) => d.desktop);
    } catch {
      return [];
    }
  }

  /** The desktop's Markdown as the desktop_snapshot tool gives it (the bridge keeps its snapshot id). */
  async readDesktop(desktop: string): Promise<string> {
    const shared = await this.#shared();
    const result = (await shared.call("desktop.snapshot", { desktop })) as { desktop: string; markup: string; snapshot_id: string };
    this.#lastSnapshot.set(result.desktop, result.snapshot_id);
    this.#lastDesktop = result.desktop;
    return result.markup;
  }

  /** Signals of the desktop arrive as onDesktopChanged calls (on the lasting connection). */
  async watchDesktop(desktop: string): Promise<void> {
    if ([...this.#watched.values()].includes(desktop)) return;
    const shared = await this.#shared();
    shared.onNotification = (message) => {
      if (message.method !== "desktop.signal") return;
      const params = message.params as { subscription: string; desktopId: string };
      const watched = this.#watched.get(params.subscription);
      if (watched !== undefined) this.onDesktopChanged?.(watched);
    };
    const { subscription } = (await shared.call("desktop.subscribe", { desktop })) as { subscription: string };
    this.#watched.set(subscription, desktop);
  }

  unwatchDesktop(desktop: string): void {
    for (const [subscription, watched] of this.#watched) if (watched === desktop) this.#watched.delete(subscription);
  }

  #forget(client: RpcClient): void {
    this.#daemon = null;
    client.close();
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    void work.catch(() => undefined).finally(() => this.#pending.delete(work));
    return work;
  }

  call(name: string, given: unknown, extra: CallExtra): Promise<CallToolResult> {
    return this.#track(this.#call(name, given, extra));
  }

  async #call(name: string, given: unknown, extra: CallExtra): Promise<CallToolResult> {
    const { byName, tools: list } = toolList();
    const method = byName.get(name);
    if (!method) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(name)}; tools/list names them`);
    const schema = list.find((tool) => tool.name === name)!.inputSchema;
    const args = coerceArgs(schema, given ?? {}) as Record<string, unknown>;
    let own: RpcClient | null = null;
    let begun = false;
    const cancel = () => {
      // End the command before dropping the call's connection: the exec then answers (unread).
      const ending = begun && runsBlock(method)
        ? this.#shared().then((daemon) => daemon.call("end", { ...(args.session === undefined ? {} : { session: args.session }), ...(args.lease === undefined ? {} : { lease: args.lease }) }))
        : Promise.resolve();
      void this.#track(ending.catch(() => undefined).finally(() => own?.close()));
    };
    extra.signal.addEventListener("abort", cancel, { once: true });
    const token = extra._meta?.progressToken;
    let ticks = 0;
    const progress = token === undefined ? null : setInterval(() => {
      ticks++;
      const message = `${name} still running (${Math.round((ticks * PROGRESS_MS) / 1000)} s)`;
      void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: ticks, message } }).catch(() => undefined);
    }, PROGRESS_MS);
    try {
      const shared = await this.#shared(); // starts the daemon if needed, once
      // autoStart here too: a daemon stopped by someone else is gone before our lasting connection hears so.
      if (!HELD_BY_CONNECTION.has(method)) own = await connectDaemon(this.#target, { autoStart: true });
      if (extra.signal.aborted) return { content: [] }; // cancelled before it began: nothing ran, nobody reads this
      const sent = method === "spawn" ? this.#spawnParams(args) : method === "desktop.exec" ? this.#bridgeDesktopExec(args) : args;
      begun = true;
      const result = (await (own ?? shared).call(method, sent)) as Record<string, unknown>;
      if (method === "daemon.stop") { // it answers once its socket is gone, its sessions with it
        this.#forget(shared);
        this.#started.clear();
      }
      if (method === "spawn" && args.keep !== true) this.#started.add(result.name as string);
      if (method === "kill") this.#started.delete((result.session as string | undefined) ?? "");
      if (method === "desktop.snapshot") {
        this.#lastSnapshot.set(result.desktop as string, result.snapshot_id as string);
        this.#lastDesktop = result.desktop as string;
      }
      for (const field of HIDDEN_RESULT_FIELDS[method] ?? []) delete result[field];
      return { content: resultContent(method, result), structuredContent: result, isError: false };
    } catch (error) {
      if (extra.signal.aborted) return { content: [] }; // the SDK sends no answer to a cancelled request
      const failure = asTuiwrightError(error);
      return {
        content: [{ type: "text", text: renderFailure(failure.message, toolHint(failure.errorName, failure.hint), failure.details) }],
        structuredContent: { error: failure.toJsonRpc() },
        isError: true,
      };
    } finally {
      if (progress) clearInterval(progress);
      extra.signal.removeEventListener("abort", cancel);
      own?.close();
    }
  }

  /** The agent's own cwd and environment for programs it starts, as the CLI does; a given `env`
   * is merged over it (HOME, PATH stay) unless `replaceEnv` says it is the whole environment. */
  #spawnParams(args: Record<string, unknown>): Record<string, unknown> {
    const { keep: _keep, replaceEnv, env: given, ...rest } = args;
    const env = spawnEnvironment(process.env, (given ?? {}) as Record<string, string>, replaceEnv === true);
    return { cwd: process.cwd(), ...rest, env };
  }

  #bridgeDesktopExec(args: Record<string, unknown>): Record<string, unknown> {
    const desktop = (args.desktop as string | undefined) ?? this.#lastDesktop;
    const snapshot = desktop === undefined ? undefined : this.#lastSnapshot.get(desktop);
    return { ...(desktop === undefined ? {} : { desktop }), ...(snapshot === undefined ? {} : { snapshot_id: snapshot }), ...args };
  }

  /** The client has gone: once its calls have settled (a cancelled exec's `end` included), kill
   * what it started and did not keep, and close its daemon connection. */
  async close(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
    const daemon = await this.#daemon?.catch(() => null);
    if (daemon) await Promise.all([...this.#started].map((session) => daemon.call("kill", { session }).catch(() => undefined)));
    this.#started.clear();
    daemon?.close();
    this.#daemon = null;
  }
}
