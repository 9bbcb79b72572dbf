// The TypeScript client: `import { connect, expectSession } from "tuiwright"`. Typed from the
// method table; sessions clean up with `await using`; test helpers wait event-driven.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TuiwrightError } from "../protocol/errors.ts";
import { spawnEnvironment } from "../protocol/spawn-env.ts";
import type { MethodName, ParamsInput, Result, WaitSpec } from "../protocol/methods.ts";
import { compareSnapshot, parseSnapshotFile } from "../record/snapshot-file.ts";
import { defaultSocketPath, namespaceFromEnv } from "../runtime/paths.ts";
import { isCompiled, version } from "../runtime/self.ts";
import { connectDaemon } from "../transport/daemon-connection.ts";
import { RpcClient } from "../transport/rpc-client.ts";

export { TuiwrightError };
export type { MethodName, ParamsInput, Result };

type WithoutSession<T> = Omit<T, "session">;
type WaitInput = Partial<WaitSpec>;

export type ConnectOptions = { namespace?: string; socketPath?: string; autoStart?: boolean };

const majorMinor = (v: string) => v.split("+")[0]!.split(".").slice(0, 2).join(".");

export class Client implements AsyncDisposable {
  readonly #rpc: RpcClient;

  constructor(rpc: RpcClient) {
    this.#rpc = rpc;
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

/** The daemon the library starts is the binary's, so the CLI (which refuses a daemon of another
 * build) shares it: $TUIWRIGHT_BIN, else dist/tuiwright built from these sources, else
 * `tuiwright` on PATH; only without any binary does it run the daemon from source (0.1.0+dev). */
function daemonCommand(): string[] | undefined {
  if (process.env.TUIWRIGHT_BIN) return [process.env.TUIWRIGHT_BIN];
  if (isCompiled()) return undefined;
  const built = fileURLToPath(new URL("../../dist/tuiwright", import.meta.url));
  if (existsSync(built)) return [built];
  const onPath = (process.env.PATH ?? "").split(":").find((dir) => dir.startsWith("/") && existsSync(`${dir}/tuiwright`));
  return onPath ? [`${onPath}/tuiwright`] : undefined;
}

/** Connects to the daemon of the namespace ($TUIWRIGHT_NS / $TUIWRIGHT_SOCKET), starting it if needed. */
export async function connect(options: ConnectOptions = {}): Promise<Client> {
  const namespace = options.namespace ?? namespaceFromEnv(undefined);
  const socketPath = options.socketPath ?? defaultSocketPath(namespace);
  const rpc = await connectDaemon({ namespace, socketPath }, { autoStart: options.autoStart ?? true, checkVersion: false, daemonCommand: daemonCommand() });
  const pong = (await rpc.call("ping")) as { version: string };
  // The library may run from source against a daemon from the binary: same protocol version
  // (major.minor) is what matters.
  if (majorMinor(pong.version) !== majorMinor(version())) {
    rpc.close();
    throw new TuiwrightError("version-mismatch", `the daemon runs tuiwright ${pong.version}; this library is ${version()}`, { hint: "tuiwright daemon stop" });
  }
  return new Client(rpc);
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
