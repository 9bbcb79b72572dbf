// The short text part of a tool result: what an agent reads first. Snapshots are text (or the
// compact outline), exec is its output and exit code, waits name what fired; the full result
// is in structuredContent.
import { RENDERERS } from "../present/result-text.ts";

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

/** The text of a result: the method's renderer as the CLI's human output has it (PNG and SVG
 * snapshots are image content instead: resultContent), else the result as JSON. */
export function renderResult(method: string, result: any): string {
  const render = (RENDERERS as Record<string, ((result: any, mode: "human") => string) | undefined>)[method];
  return render ? render(result, "human") : JSON.stringify(result);
}
