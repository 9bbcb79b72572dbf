// What a command string will do at the prompt, decided before anything is typed: nothing at
// all (blank or only comments), incomplete or wrong (the shell's own parser in no-exec mode
// says so, in its own words), or a line to type. A multi-line command is typed as one line
// (`eval $'…'`) so the shell runs it as one block and never shows its continuation prompt.
import { isPlainCommand } from "./plain-command.ts";
import type { ShellKind } from "./shell-rc.ts";

const CHECK_TIMEOUT_MS = 5000;

/** Blank, or every line empty or a comment: the shell would run nothing. */
export function runsNothing(command: string): boolean {
  return command.split(/\r?\n|\r/).every((line) => /^\s*(#.*)?$/.test(line));
}

/** A backslash at the very end continues the line (the parser in -n mode accepts it). */
function endsWithContinuation(command: string): boolean {
  const trailing = /\\+$/.exec(command);
  return trailing !== null && trailing[0].length % 2 === 1;
}

/** The shell's complaint about `command` (its stderr, trimmed), or null if it parses. */
export async function syntaxProblem(kind: ShellKind, command: string): Promise<string | null> {
  if (endsWithContinuation(command)) return "the command ends with a backslash: the shell would wait for the rest of the line";
  // A plain line parses in bash and zsh: no parser process to ask (fish's grammar differs).
  if (kind !== "fish" && isPlainCommand(command)) return null;
  // bash parses extglob patterns only when the option is on; interactive users often have it.
  // fish reads no program from a pipe here, and its -n -c exits 0 even when it complains:
  // for fish, anything on stderr is the complaint.
  const argv = kind === "bash" ? ["bash", "-O", "extglob", "-n"] : kind === "fish" ? ["fish", "--no-config", "-n", "-c", command] : ["zsh", "-f", "-n"];
  let child: ReturnType<typeof Bun.spawn>;
  try {
    child = Bun.spawn(argv, { stdin: "pipe", stdout: "ignore", stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: process.env.LANG ?? "C.UTF-8" } });
  } catch {
    return null; // the checker cannot run here: the shell itself will say what is wrong
  }
  const stdin = child.stdin as import("bun").FileSink;
  if (kind !== "fish") stdin.write(command);
  await stdin.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), CHECK_TIMEOUT_MS);
  try {
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr as ReadableStream).text()]);
    if (child.signalCode) return null; // too slow to say: let the shell run it
    if (code === 0 && (kind !== "fish" || stderr.trim() === "")) return null;
    return stderr.trim().replace(/\n\s*\^+\s*$/, "") || `${kind} -n exited with ${code}`;
  } finally {
    clearTimeout(timer);
  }
}

/** `text` as one ANSI-C quoted word ($'…'): bash and zsh read it back exactly. */
function ansiCQuote(text: string): string {
  const body = text.replace(/[\\'\x00-\x1f\x7f]/g, (ch) => {
    if (ch === "\\" || ch === "'") return `\\${ch}`;
    if (ch === "\n") return "\\n";
    if (ch === "\t") return "\\t";
    return `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
  return `$'${body}'`;
}

/** The one line to type for `command`, or null when it cannot be one line in this shell. */
export function oneLine(kind: ShellKind, command: string): string | null {
  if (!/[\r\n]/.test(command)) return command;
  if (kind === "fish") return null;
  return `eval ${ansiCQuote(command)}`;
}
