// The client library of the npm package: the same Client/Session API as lib/client/index.ts,
// on Node APIs only (node:net, node:child_process, node:fs), so the compiled JavaScript runs on
// Node ≥ 20, Deno and Bun. The daemon is always the packaged binary's: `connect()` asks the
// binary (`tuiwright --json daemon start`) to start or find it, so the library and the CLI share
// one daemon of one version, and the binary's socket-directory checks apply.
import { execFile } from "node:child_process";
import { createConnection, type Socket } from "node:net";
import { TuiwrightError } from "../protocol/errors.ts";
import type { MethodName, ParamsInput, Result } from "../protocol/methods.ts";
import type { JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { combineTypeResults, requestFrame, requestsFor, settleReply, type Pending } from "../transport/rpc-calls.ts";
import { binaryPath } from "./binary-path.ts";
import { Client } from "./session-api.ts";

export { TuiwrightError, binaryPath };
export { Client, expectSession, Session } from "./session-api.ts";
export type { MethodName, ParamsInput, Result };

export type ConnectOptions = {
  /** The daemon's namespace (default $TUIWRIGHT_NS or "default"). */
  namespace?: string;
  /** The daemon's socket (default $TUIWRIGHT_SOCKET or the per-user runtime directory). */
  socketPath?: string;
  /** Start the daemon when none is running (default true). */
  autoStart?: boolean;
  /** The tuiwright executable (default: $TUIWRIGHT_BIN, the platform package, PATH). */
  binary?: string;
};

type DaemonStatus = { pid: number; version: string; namespace: string; socket: string };

/** Runs the binary with --json; its error object becomes a TuiwrightError. */
function runBinary(binary: string, args: string[], env: Record<string, string | undefined>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(binary, ["--json", ...args], { env, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const text = String(stdout).trim();
      let parsed: any = null;
      try { parsed = text ? JSON.parse(text) : null; } catch { parsed = null; }
      if (parsed && typeof parsed === "object" && "error" in parsed) return reject(TuiwrightError.fromJsonRpc(parsed.error));
      if (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") {
          return reject(new TuiwrightError("no-such-program", `the tuiwright executable was not found (${binary})`, {
            hint: "install the package with its optional dependencies (npm install tuiwright), or set TUIWRIGHT_BIN",
          }));
        }
        return reject(new TuiwrightError("daemon-unavailable", `${binary} ${args.join(" ")} failed: ${String(stderr).trim() || error.message}`));
      }
      resolve(parsed);
    });
  });
}


/** JSON-RPC over the daemon's socket: one JSON object per line, many calls in flight. */
export class SocketRpc {
  readonly #socket: Socket;
  readonly #pending = new Map<number, Pending>();
  readonly #decoder = new TextDecoder();
  #buffer = "";
  #nextId = 1;
  /** Set once the connection has closed: a later call fails with it (a write would go nowhere). */
  #closed: TuiwrightError | null = null;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on("data", (chunk: Uint8Array) => this.#receive(this.#decoder.decode(chunk, { stream: true })));
    socket.on("close", () => {
      const error = new TuiwrightError("daemon-unavailable", "the daemon closed the connection", { hint: "`tuiwright daemon status` shows whether the daemon is up" });
      this.#closed = error;
      for (const call of this.#pending.values()) call.reject(error);
      this.#pending.clear();
    });
  }

  static connect(path: string): Promise<SocketRpc> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ path });
      socket.once("error", (error) => reject(new TuiwrightError("daemon-unavailable", `cannot connect to ${path}: ${error.message}`)));
      socket.once("connect", () => {
        socket.removeAllListeners("error");
        socket.on("error", () => {}); // reported through "close"
        resolve(new SocketRpc(socket));
      });
    });
  }

  /** Long `type` text goes out as several requests; a frame over the daemon's limit is refused. */
  async call(method: string, params: unknown): Promise<unknown> {
    const results: unknown[] = [];
    for (const request of requestsFor(method, params)) {
      const id = this.#nextId++;
      const frame = requestFrame(method, { jsonrpc: "2.0", id, method, params: request });
      results.push(await new Promise((resolve, reject) => {
        if (this.#closed) return reject(this.#closed);
        this.#pending.set(id, { resolve, reject });
        this.#socket.write(frame);
      }));
    }
    return combineTypeResults(results);
  }

  close(): void {
    this.#socket.end();
  }

  #receive(text: string): void {
    this.#buffer += text;
    let newline: number;
    while ((newline = this.#buffer.indexOf("\n")) !== -1) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      if (line.trim() === "") continue;
      const message = JSON.parse(line) as JsonRpcResponse | { method: string };
      if (!("id" in message)) continue; // notifications: this client subscribes to none
      settleReply(message, this.#pending);
    }
  }
}

/** Connects to the daemon of the namespace, started by the packaged binary if needed. */
export async function connect(options: ConnectOptions = {}): Promise<Client> {
  const binary = options.binary ?? binaryPath();
  const env: Record<string, string | undefined> = { ...process.env };
  if (options.socketPath) env.TUIWRIGHT_SOCKET = options.socketPath;
  const args = [...(options.namespace ? ["--ns", options.namespace] : []), "daemon", options.autoStart === false ? "status" : "start"];
  const status = (await runBinary(binary, args, env)) as DaemonStatus;
  const rpc = await SocketRpc.connect(status.socket);
  return new Client(rpc, status.version);
}
