// Where tuiwright keeps its socket and state, from the environment.
import { tmpdir } from "node:os";
import { join } from "node:path";

export function uid(): number {
  return process.getuid?.() ?? 0;
}

export function namespaceFromEnv(flag: string | undefined): string {
  return flag ?? process.env.TUIWRIGHT_NS ?? "default";
}

export function defaultSocketPath(namespace: string): string {
  if (process.env.TUIWRIGHT_SOCKET) return process.env.TUIWRIGHT_SOCKET;
  const runtimeDir = process.env.XDG_RUNTIME_DIR;
  if (runtimeDir) return join(runtimeDir, "tuiwright", `${namespace}.sock`);
  return join(process.env.TMPDIR ?? tmpdir(), `tuiwright-${uid()}`, `${namespace}.sock`);
}

export function stateDir(namespace: string): string {
  const base = process.env.XDG_STATE_HOME ?? join(process.env.HOME ?? tmpdir(), ".local", "state");
  return join(base, "tuiwright", namespace);
}
