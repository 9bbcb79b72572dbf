// The library's API over any JSON-RPC connection to the daemon: Client, Session and the test
// helpers. The Bun library (index.ts, over lib/transport) and the npm package's portable one
// (portable.ts, over node:net) differ only in how they connect; both hand their connection here.
// Node APIs only, so this compiles for Node, Deno and Bun alike.
import { TuiwrightError } from "../protocol/errors.ts";
import type { MethodName, ParamsInput, Result, WaitSpec } from "../protocol/methods.ts";
import { spawnEnvironment } from "../protocol/spawn-env.ts";
import { compareSnapshot, formatSnapshotFile, MAX_SNAPSHOT_FILE_BYTES, parseSnapshotFile } from "../record/snapshot-file.ts";
import { writeOutputFile } from "../runtime/output-file.ts";
import { existsSync } from "node:fs";
import { readTrustedFile } from "../runtime/trusted-file.ts";
import { setting } from "../runtime/settings.ts";

/** What the API needs of a connection: calls in flight by id, and closing. */
export type Rpc = { call(method: string, params: unknown): Promise<unknown>; close(): void };

type WithoutSession<T> = Omit<T, "session">;
type WaitInput = Partial<WaitSpec>;

export class Client implements AsyncDisposable {
  readonly #rpc: Rpc;
  /** The daemon's version (`X.Y.Z+build`). */
  readonly version: string;

  constructor(rpc: Rpc, version: string) {
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

/** Test helpers that wait on the screen (event-driven, never polling) instead of asserting once. */
export function expectSession(session: Session) {
  return {
    /** Resolves once the screen shows the text (or matches the regex); throws with the screen. */
    async toShow(expected: string | RegExp, options: { timeoutMs?: number } = {}): Promise<void> {
      const spec: WaitInput = typeof expected === "string" ? { text: [expected] } : { regex: [`/${expected.source}/${expected.flags}`] };
      await session.wait({ ...spec, timeoutMs: options.timeoutMs ?? 10_000 });
    },
    /**
     * Resolves once the screen equals a snapshot file (masks applied), compared again at each
     * change of the screen. Fails with the diff as soon as the screen has been still for
     * `settledMs` (default 200) and still differs, or at `timeoutMs` (default 10 s).
     * A missing file is written from the screen once it has settled (not under CI=true, where a
     * missing golden fails); `update: true` or TUIWRIGHT_UPDATE_SNAPSHOTS=1 rewrites it.
     */
    async toMatchScreen(file: string, options: { timeoutMs?: number; settledMs?: number; update?: boolean } = {}): Promise<void> {
      const settledMs = options.settledMs ?? 200;
      const timeoutMs = options.timeoutMs ?? 10_000;
      const update = options.update ?? setting("updateSnapshots") === true;
      if (update || !existsSync(file)) {
        if (!update && setting("ci") === true) {
          throw new TuiwrightError("expectation-failed", `no snapshot file ${file}: goldens are not written under CI=true`, { hint: "run the test locally once (it writes the file), or set TUIWRIGHT_UPDATE_SNAPSHOTS=1" });
        }
        await session.wait({ settledMs, timeoutMs });
        const snap = await session.snapshot();
        writeOutputFile(file, formatSnapshotFile({ cols: snap.cols, rows: snap.rows, masks: [], screen: snap.text ? snap.text.split("\n") : [], outline: null }));
        return;
      }
      const expected = parseSnapshotFile(readTrustedFile(file, { what: "snapshot file", maxBytes: MAX_SNAPSHOT_FILE_BYTES }).toString("utf8"), file);
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const snap = await session.snapshot();
        const actual = { cols: snap.cols, rows: snap.rows, masks: expected.masks, screen: snap.text ? snap.text.split("\n") : [], outline: null };
        const diff = compareSnapshot({ ...expected, outline: null }, actual, { expected: file, actual: `session ${session.name}` });
        if (!diff) return;
        // Different: wait for the next change, unless the screen is (or becomes) still first.
        const left = Math.floor(deadline - performance.now());
        const next = left <= 0 ? null : await session.wait({ changedSince: snap.revision, settledMs, timeoutMs: left }).then((result) => result.fired, (error: TuiwrightError) => {
          if (error.errorName === "timeout") return null;
          throw error;
        });
        if (next === null || !next.some((label) => label.startsWith("changed-since"))) {
          const why = next === null ? `after ${timeoutMs} ms` : `the screen has been still for ${settledMs} ms`;
          throw new TuiwrightError("expectation-failed", `the screen differs from ${file} (${why}):\n${diff}`, { hint: "if the change is intended, rerun with TUIWRIGHT_UPDATE_SNAPSHOTS=1" });
        }
      }
    },
  };
}
