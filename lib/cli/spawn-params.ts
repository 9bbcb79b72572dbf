// What every kind of spawn (spawn, browse) takes from its flags: where, environment, size,
// history, recording — the caller's side made right for the daemon (paths absolute, the
// environment the caller's own made right for our terminal).
import { spawnEnvironment } from "../protocol/spawn-env.ts";
import { type ParsedArgs, usage } from "./flags.ts";

export type ClientEnv = { cwd: string; env: Record<string, string> };

/** PATH made absolute against the caller's cwd (the daemon's is another). */
export function resolvePath(cwd: string, path: string): string {
  return path.startsWith("/") ? path : `${cwd.replace(/\/$/, "")}/${path}`;
}

/** The client's environment for a new program: its own, made right for our terminal. */
function spawnEnv(client: ClientEnv, pairs: string[]): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw usage(`--env needs KEY=VALUE, got ${JSON.stringify(pair)}`, "spawn");
    overrides[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return spawnEnvironment(client.env, overrides);
}

export function terminalParams(args: ParsedArgs, client: ClientEnv, verb: string): Record<string, unknown> {
  const f = args.flags;
  const params: Record<string, unknown> = {
    cwd: resolvePath(client.cwd, (f.get("--cwd") as string | undefined) ?? client.cwd),
    env: spawnEnv(client, (f.get("--env") as string[] | undefined) ?? []),
  };
  if (f.has("--cols")) params.cols = f.get("--cols");
  if (f.has("--rows")) params.rows = f.get("--rows");
  if (f.has("--scrollback")) params.scrollback = f.get("--scrollback");
  if (f.has("--no-record") && f.has("--cast")) throw usage("--no-record and --cast exclude each other", verb);
  if (f.has("--no-record")) params.record = false;
  if (f.has("--cast")) params.cast = resolvePath(client.cwd, String(f.get("--cast")));
  return params;
}
