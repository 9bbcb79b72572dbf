// How a method's result reads as text: one renderer per method, shared by the CLI (human and
// --plain; --json prints the result itself) and MCP (a tool result's text part). A method
// without one reads as JSON.
import { compactOutline } from "../outline/compact.ts";
import type { OutlineNode } from "../outline/types.ts";
import type { ExitStatusValue, MethodName, Result, WaitResultValue } from "../protocol/methods.ts";

/** The unit of outputChars and of output cursors. */
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** human: for people and agents; plain: bare values for scripts; json: the result as is. */
export type OutputMode = "human" | "plain" | "json";

export function formatExit(exit: ExitStatusValue | null): string {
  if (!exit) return "still running";
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}

export function formatList(result: Result<"list">): string {
  const lost = result.lost.map((s) => `lost: ${s.name} (${s.argv.join(" ")}) died with the previous daemon${s.killed ? "; its leftover program was killed" : ""}${s.cast ? `; recording ${s.cast}` : ""}`);
  if (result.sessions.length === 0) return ["no sessions", ...lost].join("\n");
  const rows = result.sessions.map((s) => [
    (s.name === result.current ? "* " : "  ") + s.name,
    String(s.pid),
    `${s.cols}x${s.rows}`,
    s.state === "exited" ? formatExit(s.exit) : s.state,
    s.argv.join(" "),
  ]);
  const header = ["  NAME", "PID", "SIZE", "STATE", "COMMAND"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [...[header, ...rows].map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")), ...lost].join("\n");
}

export function formatWait(result: WaitResultValue): string {
  const turn = result.turn ? `\nturn ${result.turn.id}: ${result.turn.state}${result.turn.ref ? ` (${result.turn.ref})` : ""}` : "";
  return `fired: ${result.fired.join(", ")} (revision ${result.revision}, ${result.elapsedMs} ms)${turn}`;
}

export function formatSnapshot(result: Result<"snapshot">, mode: OutputMode): string {
  let body: string;
  if (result.format === "text") body = result.text ?? "";
  else if (result.format === "ansi") body = result.ansi ?? "";
  else if (result.format === "outline") body = compactOutline((result.outline?.nodes ?? []) as OutlineNode[]).join("\n");
  else if (result.format === "svg") body = result.svg ?? "";
  else if (result.format === "png") body = `(${Math.round(((result.png ?? "").length * 3) / 4)} bytes of PNG)`;
  else body = (result.cells ?? []).map((row) => JSON.stringify(row)).join("\n");
  if (!result.meta || mode === "plain") return body;
  return `${body}\n--- meta\n${JSON.stringify(result.meta, null, 2)}`;
}

type Renderer<M extends MethodName> = (result: Result<M>, mode: OutputMode) => string;

function navigated(result: Result<"navigate">, mode: OutputMode): string {
  return mode === "plain" ? result.url : `${result.session}: ${result.url} — ${JSON.stringify(result.title)} (revision ${result.revision})`;
}

/** A desktop's applications, one row each. */
function appTable(apps: { alias: string; appId: string; name: string; system: boolean; state: string }[]): string {
  return apps.map((a) => `  ${a.alias.padEnd(7)} ${a.name.padEnd(16)} ${a.appId.padEnd(22)} ${a.state}${a.system ? " (system)" : ""}`).join("\n");
}

function action(result: Result<"press">, mode: OutputMode): string {
  if (mode === "plain") return "";
  const at = result.target ? ` (clicked ${result.target.ref} at ${result.target.row},${result.target.col})` : "";
  const line = `${result.session}: sent ${result.bytes} byte(s)${at}, revision ${result.revisionBefore} → ${result.revisionAfter}`;
  return result.wait ? `${line}\n${formatWait(result.wait)}` : line;
}

/** A turn: its state, then the answer (or the CLI's message) and the choices it offers. */
function turn(result: Result<"turn">, mode: OutputMode): string {
  const body = result.response?.text ?? result.message ?? "";
  if (mode === "plain") return body;
  const partial = result.response && !result.response.complete ? ` (answer incomplete: ${result.response.why ?? "part of it is not on screen"})` : "";
  const choices = (result.choices ?? []).map((c) => `  ${c.selected ? ">" : " "} ${c.name}  [${c.ref}]`);
  const message = result.response && result.message ? [result.message] : [];
  return [`turn ${result.turn.id}: ${result.turn.state} in ${result.elapsedMs} ms${partial}`, ...(body ? [body] : []), ...message, ...choices].join("\n");
}

export const RENDERERS: { [M in MethodName]?: Renderer<M> } = {
  turn,
  snapshot: formatSnapshot,
  type: action,
  press: action,
  click: action,
  wait: (r, mode) => (mode === "plain" ? (r.text ?? r.fired.join("\n")) : r.text === undefined ? formatWait(r) : `${formatWait(r)}\n${r.text}`),
  exec(r, mode) {
    if (!("exitCode" in r)) return mode === "plain" ? String(r.cursor) : `started interactively; output cursor ${r.cursor} (send input, then wait --output … --from-cursor ${r.cursor})`;
    const tail = r.outputTruncated ? `\n[output truncated: ${utf8Bytes(r.output)} of ${r.outputChars} bytes; \`tuiwright block ${r.seq}\` has more]` : "";
    if (mode === "plain") return r.output.replace(/\n$/, "") + tail;
    const how = r.integration === false ? " (no shell integration: output read from the screen, exit code unknown)" : "";
    return `${r.output.replace(/\n$/, "")}${tail}\n[block ${r.seq} exited ${r.exitCode ?? "?"} in ${r.cwd ?? "?"}${how}]`;
  },
  send: (r, mode) => (mode === "plain" ? String(r.cursor) : `sent ${r.bytes} byte(s); output cursor was ${r.cursor}`),
  block: (r, mode) => (mode === "plain" ? r.output.replace(/\n$/, "") : `$ ${r.command}\n${r.output.replace(/\n$/, "")}\n[block ${r.seq} exited ${r.exitCode ?? "?"} in ${r.cwd ?? "?"}]`),
  spawn: (r, mode) => (mode === "plain" ? r.name : `started session ${r.name} (pid ${r.pid}, ${r.cols}x${r.rows}): ${r.argv.join(" ")}`),
  resize: (r, mode) => (mode === "plain"
    ? `${r.cols}x${r.rows}`
    : `${r.session}: ${r.cols}x${r.rows} (revision ${r.revision})${r.redrawn === false ? "; the page did not redraw at this size before the timeout (what shows is the old frame reflowed, or pixels without the page's text)" : ""}`),
  mouse: (r, mode) => (mode === "plain" ? "" : `${r.session}: the left button is ${r.held ? "down" : "up"}, revision ${r.revision}`),
  scroll: (r, mode) => (mode === "plain" ? "" : `${r.session}: scrolled, revision ${r.revisionBefore} → ${r.revisionAfter}`),
  "adapter.check": (r, mode) => (mode === "plain" ? r.name : `ok: ${r.name} (@${r.root}; regions: ${r.regions.join(", ") || "none"})`),
  "lease.acquire": (r, mode) =>
    mode === "plain" ? r.token : `leased ${r.session} to ${r.owner}${r.expiresAt ? ` until ${r.expiresAt}` : ""}\ntoken: ${r.token}  (pass it with --lease or TUIWRIGHT_LEASE)`,
  "desktop.snapshot": (r) => r.markup,
  "desktop.create": (r, mode) => (mode === "plain" ? r.desktop : `created ${r.desktop}\n${appTable(r.apps)}`),
  "desktop.restore": (r, mode) => {
    const folders = r.folders.length === 0 ? "no app folder (system apps only)" : r.folders.join(", ");
    if (r.dryRun) return mode === "plain" ? r.folders.join("\n") : `would restore ${r.desktop} (nothing created, nothing run)\nwould run code from: ${folders}`;
    return mode === "plain" ? r.desktop : `restored ${r.desktop}\nruns code from: ${folders}\n${appTable(r.apps)}`;
  },
  "desktop.destroy": (r, mode) => (mode === "plain" ? "" : `destroyed ${r.desktop}`),
  "desktop.list"(r, mode) {
    if (mode === "plain") return r.desktops.map((d) => d.desktop).join("\n");
    if (r.desktops.length === 0) return "no desktops (create one with `tuiwright desktop create`)";
    return r.desktops.map((d) => `${d.desktop}${d.owner ? ` (input held by ${d.owner})` : ""}\n${appTable(d.apps)}`).join("\n");
  },
  "desktop.exec": (r, mode) => (mode === "plain" ? "ok" : `ok: ${r.command}${r.app ? ` (${r.app}${r.view ? ` ${r.view}` : ""})` : ""}`),
  "desktop.say": (r, mode) => (mode === "plain" ? "" : `said to ${r.desktop}`),
  "desktop.install": (r, mode) => (mode === "plain" ? r.app : `installed as ${r.app} on ${r.desktop}`),
  "desktop.openSession": (r, mode) => (mode === "plain" ? r.app : `opened as ${r.app} on ${r.desktop}`),
  "desktop.save": (r, mode) => (mode === "plain" ? (r.file ?? "") : `saved ${r.desktop} to ${r.file}`),
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
      r.containment.how === "cgroup"
        ? `sessions in cgroups under ${r.containment.cgroup}, at most ${r.containment.sessionTasks} tasks each`
        : `no session cgroups (${r.containment.why}); ${r.containment.how === "rlimit" ? "sessions held below the user's process limit" : "no task limit for sessions"}${r.containment.subreaper ? "; orphans adopted by the daemon" : ""}`,
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
