// Human renderings of results (the `--json` output is the result itself).
import { compactOutline } from "../outline/compact.ts";
import type { OutlineNode } from "../outline/types.ts";
import type { ExitStatusValue, Result, WaitResultValue } from "../protocol/methods.ts";
import type { OutputMode } from "./verbs.ts";

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
  return `fired: ${result.fired.join(", ")} (revision ${result.revision}, ${result.elapsedMs} ms)`;
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
