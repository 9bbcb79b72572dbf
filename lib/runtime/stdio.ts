// CLI output through Bun's native writer. The first `process.stdout.write` sets up Node's
// stream machinery, which costs ~12 ms of start-up here; this costs ~1 ms.
import { readlinkSync } from "./node-fs.ts";

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
  const fd = stream === "stdout" ? 1 : 2;
  // What the fd is open on, from /proc: node:tty's isatty would load the stream modules
  // (~10 ms of a CLI start) for this one answer.
  try {
    return /^\/dev\/(pts\/\d+|tty\w*|console)$/.test(readlinkSync(`/proc/self/fd/${fd}`));
  } catch {
    return (require("node:tty") as typeof import("node:tty")).isatty(fd);
  }
}
