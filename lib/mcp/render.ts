// The short text part of a tool result: what an agent reads first. Snapshots are text (or the
// compact outline), exec is its output and exit code, waits name what fired; the full result
// is in structuredContent.
import { compactOutline } from "../outline/compact.ts";
import type { OutlineNode } from "../outline/types.ts";

type Content = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

/** The content blocks of a tool result: images as image content, everything else as text. */
export function resultContent(method: string, result: any): Content[] {
  if (method === "snapshot" && typeof result.png === "string") return [{ type: "image", data: result.png, mimeType: "image/png" }];
  if (method === "snapshot" && typeof result.svg === "string") {
    return [{ type: "image", data: Buffer.from(result.svg).toString("base64"), mimeType: "image/svg+xml" }];
  }
  return [{ type: "text", text: renderResult(method, result) }];
}

/** A failed call as text: the message, the screen a wait gave up on, and the hint. */
export function renderFailure(message: string, hint: string, details: Record<string, unknown>): string {
  const excerpt = typeof details.excerpt === "string" && details.excerpt !== "" ? `\nscreen (revision ${details.revision}):\n${details.excerpt}` : "";
  return `${message}${excerpt}\nhint: ${hint}`;
}

/** The text of a result (PNG and SVG snapshots are image content instead: resultContent). */
export function renderResult(method: string, result: any): string {
  if (method === "snapshot") {
    if (typeof result.text === "string") return result.text;
    if (result.outline) return compactOutline(result.outline.nodes as OutlineNode[]).join("\n");
    if (typeof result.ansi === "string") return result.ansi;
  }
  if (method === "exec" && "exitCode" in result) return `${result.output}[block ${result.seq} exited ${result.exitCode ?? "?"} in ${result.cwd ?? "?"}]`;
  if (method === "wait") return `fired: ${result.fired.join(", ")} (revision ${result.revision})${result.text ? `\n${result.text}` : ""}`;
  if ((method === "press" || method === "type" || method === "click") && result.wait) return `fired: ${result.wait.fired.join(", ")} (revision ${result.revisionAfter})`;
  if (method === "desktop.snapshot" && typeof result.markup === "string") return result.markup;
  return JSON.stringify(result);
}
