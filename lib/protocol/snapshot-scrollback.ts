// Which snapshots can reach into the scrollback. text, ansi and cells are rows, and the history
// above the screen is more rows. An outline, an SVG/PNG picture and a --select crop are built
// from the screen's grid (a node's box is a screen row and column), so history cannot be in
// them: asking for it is refused instead of answered with the screen alone.
// Checked by the worker for every client (CLI, JSON-RPC, MCP).
import { TuiwrightError } from "./errors.ts";

export const SCROLLBACK_FORMATS = ["text", "ansi", "cells"] as const;

/** Refuses scrollback > 0 with a format or a crop that shows only the screen. */
export function requireScrollbackFormat(params: { format: string; scrollback: number; select?: string | undefined }): void {
  if (params.scrollback === 0) return;
  const shown = (SCROLLBACK_FORMATS as readonly string[]).includes(params.format);
  if (shown && params.select === undefined) return;
  const what = shown ? "select (--select) crops nodes of the screen" : `format ${params.format} is built from the screen`;
  throw new TuiwrightError("usage", `scrollback (--scrollback ${params.scrollback}) cannot be honoured: ${what}, never the history above it`, {
    hint: "read history as rows with --format text, ansi or cells and --scrollback N (without --select); a turn's answer that scrolled away is `turn`/`wait --turn`'s response",
    details: { param: "scrollback", format: params.format, formats: [...SCROLLBACK_FORMATS] },
  });
}
