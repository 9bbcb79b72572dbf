// One prepared command, run with every side effect it has (`snapshot --save`/`--out` write
// files, `daemon stop` waits for the daemon to go, `exec --propagate` sets the exit code).
// The single-command path and `batch` both run commands through here, so a batch line does
// exactly what the same command does alone.
import type { Result } from "../protocol/methods.ts";
import type { RpcClient } from "../transport/rpc-client.ts";
import type { Prepared } from "./invocation.ts";
import { writeSnapshotOut } from "./save-snapshot.ts";
import { entryPoint } from "../runtime/self.ts";
import { type OutputMode, rendererOf } from "../present/result-text.ts";
import { inertJson } from "../present/inert-text.ts";
import { forTerminal } from "./for-terminal.ts";

const STOP_WAIT_MS = 5000;

export type Performed = { output: string; exitCode: number };

export async function perform(rpc: RpcClient, prepared: Prepared, mode: OutputMode): Promise<Performed> {
  const { verb, params, save, out, args } = prepared;
  if (save) {
    const commands: typeof import("../../entries/commands.ts") = await import(entryPoint("entries/commands.ts"));
    return { output: await commands.saveSnapshot(rpc, params, save, mode), exitCode: 0 };
  }
  const result = await rpc.call(verb.method, params);
  // `daemon stop` returns once the daemon has exited: its connections close as it dies.
  if (verb.method === "daemon.stop") await Promise.race([rpc.closed, new Promise((r) => setTimeout(r, STOP_WAIT_MS))]);
  if (out) return { output: await writeSnapshotOut(out, result as Result<"snapshot">, mode), exitCode: 0 };
  if (mode === "json") return { output: inertJson(result), exitCode: verb.exitCode?.(result, args) ?? 0 };
  const text = (verb.show ?? rendererOf(verb.method))(result, mode);
  // `snapshot --format ansi` prints SGR sequences on purpose; anything else shows controls.
  const ansi = verb.method === "snapshot" && params.format === "ansi";
  return { output: ansi ? text : forTerminal(text), exitCode: verb.exitCode?.(result, args) ?? 0 };
}
