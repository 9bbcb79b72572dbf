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

/** How long a parser started ahead waits for a command before it is stopped: a burst of execs
 * finds one ready; an idle session holds no process. */
const SPARE_IDLE_MS = 15_000;

type Parser = ReturnType<typeof Bun.spawn>;

/** The shell's parser in no-exec mode, reading the program from its stdin (bash, zsh). It runs
 * nothing it reads, and exits at the end of its input: it never outlives the pipe we hold. */
function startParser(kind: "bash" | "zsh"): Parser {
  // bash parses extglob patterns only when the option is on; interactive users often have it.
  const argv = kind === "bash" ? ["bash", "-O", "extglob", "-n"] : ["zsh", "-f", "-n"];
  const child = Bun.spawn(argv, { stdin: "pipe", stdout: "ignore", stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: process.env.LANG ?? "C.UTF-8" } });
  child.unref();
  return child;
}

/** One parser process started ahead of the next check, so a check costs the parse (~0.4 ms)
 * rather than a process start (2–4 ms). Each parser checks one command (its input ends with
 * it), so a command never shares a parse with another. The next one is started once the exec
 * that used one has answered (`refillSoon`): a process start on the worker's thread, and the
 * parser's own start on a shared CPU, would otherwise delay that answer. */
export class ParserSpares {
  #spare: { kind: "bash" | "zsh"; child: Parser } | null = null;
  /** The kind a check took since the last refill: the next spare's. */
  #wanted: "bash" | "zsh" | null = null;
  #idle: ReturnType<typeof setTimeout> | null = null;
  #disposed = false;

  /** A parser for `kind`: the one started ahead if it is still waiting, else a new one. */
  take(kind: "bash" | "zsh"): Parser {
    this.#wanted = kind;
    const spare = this.#spare;
    this.#spare = null;
    if (spare && spare.kind === kind && spare.child.exitCode === null && !spare.child.killed) return spare.child;
    spare?.child.kill("SIGKILL");
    return startParser(kind);
  }

  /** The waiting parser's process id, if one is started. */
  get sparePid(): number | null {
    return this.#spare?.child.pid ?? null;
  }

  /** After a check took a parser: the next one is started on a later turn of the event loop. */
  refillSoon(): void {
    const kind = this.#wanted;
    if (kind === null) return;
    this.#wanted = null;
    setTimeout(() => {
      if (this.#disposed || this.#spare) return;
      try {
        this.#spare = { kind, child: startParser(kind) };
      } catch {
        return; // the parser cannot start here: checks start their own (and say so)
      }
      if (this.#idle) clearTimeout(this.#idle);
      this.#idle = setTimeout(() => this.#drop(), SPARE_IDLE_MS);
      this.#idle.unref?.();
    }, 0);
  }

  dispose(): void {
    this.#disposed = true;
    this.#drop();
  }

  #drop(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    this.#spare?.child.kill("SIGKILL");
    this.#spare = null;
  }
}

/** The shell's complaint about `command` (its stderr, trimmed), or null if it parses.
 * `spares`: parsers started ahead (bash, zsh); without, each check starts its own. */
export async function syntaxProblem(kind: ShellKind, command: string, spares?: ParserSpares): Promise<string | null> {
  if (endsWithContinuation(command)) return "the command ends with a backslash: the shell would wait for the rest of the line";
  // A plain line parses in bash and zsh: no parser process to ask (fish's grammar differs).
  if (kind !== "fish" && isPlainCommand(command)) return null;
  if (kind === "fish") {
    // fish reads no program from a pipe here, and its -n -c exits 0 even when it complains:
    // for fish, anything on stderr is the complaint.
    let child: Parser;
    try {
      child = Bun.spawn(["fish", "--no-config", "-n", "-c", command], { stdin: "ignore", stdout: "ignore", stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: process.env.LANG ?? "C.UTF-8" } });
    } catch {
      return null; // the checker cannot run here: the shell itself will say what is wrong
    }
    return verdict(kind, child);
  }
  let child: Parser;
  try {
    child = spares ? spares.take(kind) : startParser(kind);
  } catch {
    return null; // the checker cannot run here: the shell itself will say what is wrong
  }
  if (!(await feed(child, command))) {
    // A parser started ahead that went away meanwhile (killed from outside): a fresh one.
    if (!spares) return null;
    try {
      child = startParser(kind);
    } catch {
      return null;
    }
    if (!(await feed(child, command))) return null;
  }
  return verdict(kind, child);
}

/** The whole program on the parser's stdin, then its end; false if the parser is gone. */
async function feed(child: Parser, command: string): Promise<boolean> {
  const stdin = child.stdin as import("bun").FileSink;
  try {
    stdin.write(command);
    await stdin.end();
    return true;
  } catch {
    child.kill("SIGKILL");
    return false;
  }
}

/** What the parser said: null when it accepted the program. */
async function verdict(kind: ShellKind, child: Parser): Promise<string | null> {
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
