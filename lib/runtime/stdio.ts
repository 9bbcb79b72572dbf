// CLI output through Bun's native writer. The first `process.stdout.write` sets up Node's
// stream machinery, which costs ~12 ms of start-up here; this costs ~1 ms.
import { isatty } from "node:tty";

function withNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** Writes a line (adding the newline if missing) to stdout; nothing for empty text. */
export async function printOut(text: string): Promise<void> {
  if (text !== "") await Bun.write(Bun.stdout, withNewline(text));
}

export async function printErr(text: string): Promise<void> {
  if (text !== "") await Bun.write(Bun.stderr, withNewline(text));
}

export async function readStdin(): Promise<string> {
  return new Response(Bun.stdin.stream()).text();
}

/** Exactly these bytes, no newline added (passing a program's output through). */
export async function writeRaw(stream: "stdout" | "stderr", text: string | Uint8Array): Promise<void> {
  if (text.length > 0) await Bun.write(stream === "stdout" ? Bun.stdout : Bun.stderr, text);
}

/** All of standard input as bytes. */
export async function readStdinBytes(): Promise<Uint8Array> {
  return new Response(Bun.stdin.stream()).bytes();
}

/** Standard input's bytes as they arrive (for protocol servers on stdio). */
export function stdinChunks(): AsyncIterable<Uint8Array> {
  return Bun.stdin.stream();
}

/** Whether standard output (or error) is a terminal, which acts on control characters. */
export function isTerminal(stream: "stdout" | "stderr"): boolean {
  return isatty(stream === "stdout" ? 1 : 2);
}
