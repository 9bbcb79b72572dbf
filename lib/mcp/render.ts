// The short text part of a tool result: what an agent reads first. Snapshots are text (or the
// compact outline), exec is its output and exit code, waits name what fired; the full result
// is in structuredContent.
import { compactOutline } from "../outline/compact.ts";
import type { OutlineNode } from "../outline/types.ts";

export function renderResult(method: string, result: any): string {
  if (method === "snapshot") {
    if (typeof result.text === "string") return result.text;
    if (result.outline) return compactOutline(result.outline.nodes as OutlineNode[]).join("\n");
    if (typeof result.ansi === "string") return result.ansi;
    if (typeof result.svg === "string") return result.svg;
    if (typeof result.png === "string") return `(PNG, ${Math.round((result.png.length * 3) / 4)} bytes, base64 in structuredContent.png)`;
  }
  if (method === "exec" && "exitCode" in result) return `${result.output}[block ${result.seq} exited ${result.exitCode ?? "?"} in ${result.cwd ?? "?"}]`;
  if (method === "wait") return `fired: ${result.fired.join(", ")} (revision ${result.revision})${result.text ? `\n${result.text}` : ""}`;
  if ((method === "press" || method === "type" || method === "click") && result.wait) return `fired: ${result.wait.fired.join(", ")} (revision ${result.revisionAfter})`;
  if (method === "desktop.snapshot" && typeof result.markup === "string") return result.markup;
  return JSON.stringify(result);
}
