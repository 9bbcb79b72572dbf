// What the CLI prints of a session's text: inert on a terminal (lib/present/inert-text.ts says
// why and how), exactly as it is into a pipe or a file.
import { inertText } from "../present/inert-text.ts";
import { isTerminal } from "../runtime/stdio.ts";

export function forTerminal(text: string, stream: "stdout" | "stderr" = "stdout"): string {
  return isTerminal(stream) ? inertText(text) : text;
}
