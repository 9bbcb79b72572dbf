// How a method's result reads in the CLI (human and --plain; --json prints the result as is),
// one renderer per method, for the verbs the method table declares (lib/cli/table-verbs.ts).
// A method without one prints its result as indented JSON.
import type { MethodName, Result } from "../protocol/methods.ts";
import { formatExit, formatList } from "./output.ts";
import type { OutputMode } from "./verbs.ts";

type Renderer<M extends MethodName> = (result: Result<M>, mode: OutputMode) => string;

function navigated(result: Result<"navigate">, mode: OutputMode): string {
  return mode === "plain" ? result.url : `${result.session}: ${result.url} — ${JSON.stringify(result.title)} (revision ${result.revision})`;
}

export const RENDERERS: { [M in MethodName]?: Renderer<M> } = {
  list: (r, mode) => (mode === "plain" ? r.sessions.map((s) => s.name).join("\n") : formatList(r)),
  kill(r, mode) {
    const how = r.exit ? formatExit(r.exit) : "exit status unknown"; // gone after kill: never "still running"
    return mode === "plain" ? how : `killed session ${r.session} (${how})`;
  },
  signal: (r, mode) => (mode === "plain" ? "" : `sent ${r.signal} to process group ${r.pgid} of ${r.session}`),
  mark: (r, mode) => (mode === "plain" ? "" : `marked ${r.session}: ${r.label}`),
  get(r, mode) {
    const value = r.value as any;
    if (r.what === "size") return `${value.cols}x${value.rows}`;
    if (r.what === "cursor") return mode === "plain" ? `${value.row},${value.col}` : `row ${value.row}, col ${value.col}${value.visible ? "" : " (hidden)"}`;
    if (r.what === "exit") return value === null ? (mode === "plain" ? "" : "running") : formatExit(value);
    if (r.what === "nav") return `can_go_back=${value.can_go_back} can_go_forward=${value.can_go_forward}`;
    return value ?? "";
  },
  reset: (r, mode) => (mode === "plain" ? r.name : `reset session ${r.name} (pid ${r.pid}): ${r.argv.join(" ")}`),
  ping: (r, mode) => (mode === "plain" ? "pong" : `pong from daemon pid ${r.pid} (${r.version})`),
  capabilities: (r, mode) =>
    mode === "human" ? [`tuiwright ${r.version}`, "methods:", ...r.methods.map((m) => `  ${m.name.padEnd(18)} ${m.title}`)].join("\n") : JSON.stringify(r, null, 2),
  "daemon.status": (r) =>
    [
      `pid ${r.pid}, version ${r.version}, namespace ${r.namespace}`,
      `socket ${r.socket}`,
      `up ${Math.round(r.uptimeMs / 1000)} s, ${r.sessions} session(s), RSS ${(r.rssBytes / 1048576).toFixed(1)} MiB, idle exit after ${Math.round(r.idleTimeoutMs / 1000)} s`,
    ].join("\n"),
  "daemon.stop": (r, mode) => (mode === "plain" ? "" : `daemon stopped (${r.sessionsKilled} session(s) killed)`),
  "adapter.list"(r, mode) {
    if (mode === "plain") return r.adapters.map((a) => a.name).join("\n");
    const width = Math.max(...r.adapters.map((a) => a.name.length));
    const rootWidth = Math.max(...r.adapters.map((a) => a.root.length)) + 1;
    const lines = r.adapters.map((a) => `${a.name.padEnd(width)}  ${`@${a.root}`.padEnd(rootWidth)}  ${(a.origin === "user" ? a.file : "built-in").padEnd(8)}  ${a.description}${a.tested ? ` (tested: ${a.tested})` : ""}`);
    lines.push(`(user manifests: ${r.dir})`);
    for (const e of r.errors) lines.push(`error: ${e.message}`);
    return lines.join("\n");
  },
  "lease.release": (r, mode) => (mode === "plain" ? "" : `released the write lease on ${r.session}`),
  end: (r, mode) => (mode === "plain" ? r.how : `ended the program of ${r.session} by ${r.how === "interrupt" ? "Ctrl-C" : r.how}; the shell is ${r.mode}`),
  status: (r, mode) =>
    mode === "plain" ? r.mode : `${r.session}: ${r.mode}${r.block ? ` (block ${r.block.seq}: ${r.block.command})` : ""}; ${r.blocks} block(s); output cursor ${r.cursor}${r.integration ? "" : "; no shell integration"}${r.cwd ? `; cwd ${r.cwd}` : ""}`,
  blocks: (r) => (r.blocks.length === 0 ? "no blocks" : r.blocks.map((b) => `${String(b.seq).padStart(4)}  exit ${String(b.exitCode ?? "?").padEnd(3)}  ${b.command}`).join("\n")),
  navigate: navigated,
  back: navigated,
  forward: navigated,
  reload: navigated,
};

/** The renderer of `method`, or indented JSON. */
export function rendererOf(method: string): (result: any, mode: OutputMode) => string {
  return (RENDERERS as Record<string, Renderer<any>>)[method] ?? ((result) => JSON.stringify(result, null, 2));
}
