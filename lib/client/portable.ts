// The client library of the npm package: the same Client/Session API as lib/client/index.ts,
// on Node APIs only (node:net, node:child_process, node:fs), so the compiled JavaScript runs on
// Node ≥ 20, Deno and Bun. The daemon is always the packaged binary's: `connect()` asks the
// binary (`tuiwright --json daemon start`) to start or find it, so the library and the CLI share
// one daemon of one version, and the binary's socket-directory checks apply.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { TuiwrightError } from "../protocol/errors.ts";
import type { MethodName, ParamsInput, Result, WaitSpec } from "../protocol/methods.ts";
import { compareSnapshot, parseSnapshotFile } from "../record/snapshot-file.ts";
import { spawnEnvironment } from "../protocol/spawn-env.ts";
import { binaryPath } from "./binary-path.ts";

export { TuiwrightError, binaryPath };
export type { MethodName, ParamsInput, Result };

type WithoutSession<T> = Omit<T, "session">;
type WaitInput = Partial<WaitSpec>;

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

type Pending = { resolve(value: unknown): void; reject(error: TuiwrightError): void };

/** JSON-RPC over the daemon's socket: one JSON object per line, many calls in flight. */
export class SocketRpc {
  readonly #socket: Socket;
  readonly #pending = new Map<number, Pending>();
  readonly #decoder = new TextDecoder();
  #buffer = "";
  #nextId = 1;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on("data", (chunk: Uint8Array) => this.#receive(this.#decoder.decode(chunk, { stream: true })));
    socket.on("close", () => {
      const error = new TuiwrightError("daemon-unavailable", "the daemon closed the connection", { hint: "`tuiwright daemon status` shows whether the daemon is up" });
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

  call(method: string, params: unknown): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#socket.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
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
      const message = JSON.parse(line) as { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };
      const call = typeof message.id === "number" ? this.#pending.get(message.id) : undefined;
      if (!call) continue; // notifications: this client subscribes to none
      this.#pending.delete(message.id as number);
      if (message.error) call.reject(TuiwrightError.fromJsonRpc(message.error));
      else call.resolve(message.result);
    }
  }
}

export class Client implements AsyncDisposable {
  readonly #rpc: SocketRpc;
  /** The daemon's version (the binary's: `X.Y.Z+build`). */
  readonly version: string;

  constructor(rpc: SocketRpc, version: string) {
    this.#rpc = rpc;
    this.version = version;
  }

  /** Any method of the protocol, typed by its name. */
  call<M extends MethodName>(method: M, params: ParamsInput<M>): Promise<Result<M>> {
    return this.#rpc.call(method, params) as Promise<Result<M>>;
  }

  /** Starts a program (or `shell: "bash"`) in this process's cwd and environment; a given
   * `env` is merged over this process's own (`replaceEnv: true` makes it the whole environment). */
  async spawn(params: ParamsInput<"spawn"> & { replaceEnv?: boolean }): Promise<Session> {
    const { replaceEnv, env: given, ...rest } = params;
    const env = spawnEnvironment(process.env, given ?? {}, replaceEnv === true);
    const info = await this.call("spawn", { cwd: process.cwd(), ...rest, env });
    return new Session(this, info.name);
  }

  /** A handle on an existing session. */
  session(name: string): Session {
    return new Session(this, name);
  }

  close(): void {
    this.#rpc.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.close();
  }
}

export class Session implements AsyncDisposable {
  constructor(readonly client: Client, readonly name: string) {}

  snapshot(params: WithoutSession<ParamsInput<"snapshot">> = {}): Promise<Result<"snapshot">> {
    return this.client.call("snapshot", { ...params, session: this.name });
  }

  async text(): Promise<string> {
    return (await this.snapshot()).text ?? "";
  }

  type(text: string, params: WithoutSession<Omit<ParamsInput<"type">, "text">> = {}): Promise<Result<"type">> {
    return this.client.call("type", { ...params, text, session: this.name });
  }

  press(keys: string | string[], params: WithoutSession<Omit<ParamsInput<"press">, "keys">> = {}): Promise<Result<"press">> {
    return this.client.call("press", { ...params, keys: Array.isArray(keys) ? keys : [keys], session: this.name });
  }

  click(target: string, params: WithoutSession<Omit<ParamsInput<"click">, "target">> = {}): Promise<Result<"click">> {
    return this.client.call("click", { ...params, target, session: this.name });
  }

  wait(spec: WaitInput & { includeText?: boolean }): Promise<Result<"wait">> {
    return this.client.call("wait", { ...spec, session: this.name } as ParamsInput<"wait">);
  }

  exec(command: string, params: WithoutSession<Omit<ParamsInput<"exec">, "command">> = {}): Promise<Result<"exec">> {
    return this.client.call("exec", { ...params, command, session: this.name });
  }

  kill(params: WithoutSession<ParamsInput<"kill">> = {}): Promise<Result<"kill">> {
    return this.client.call("kill", { ...params, session: this.name });
  }

  /** `await using` kills the session (already gone is fine). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.kill().catch((error: TuiwrightError) => {
      if (error.errorName !== "no-such-session") throw error;
    });
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

/** Test helpers that wait on the screen (event-driven, never polling) instead of asserting once. */
export function expectSession(session: Session) {
  return {
    /** Resolves once the screen shows the text (or matches the regex); throws with the screen. */
    async toShow(expected: string | RegExp, options: { timeoutMs?: number } = {}): Promise<void> {
      const spec: WaitInput = typeof expected === "string" ? { text: [expected] } : { regex: [`/${expected.source}/${expected.flags}`] };
      await session.wait({ ...spec, timeoutMs: options.timeoutMs ?? 10_000 });
    },
    /** The screen equals a snapshot file (masks applied); throws with the diff. */
    async toMatchScreen(file: string): Promise<void> {
      const expected = parseSnapshotFile(readFileSync(file, "utf8"), file);
      const snap = await session.snapshot();
      const actual = { cols: snap.cols, rows: snap.rows, masks: expected.masks, screen: snap.text ? snap.text.split("\n") : [], outline: null };
      const diff = compareSnapshot({ ...expected, outline: null }, actual, { expected: file, actual: `session ${session.name}` });
      if (diff) throw new TuiwrightError("expectation-failed", `the screen differs from ${file}:\n${diff}`);
    },
  };
}
