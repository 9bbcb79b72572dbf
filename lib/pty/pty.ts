// The PTY seam: the only code that starts programs on a pseudo-terminal. The child is a
// session leader (its pid is its process group), so signals can target the whole group.
import { statSync } from "node:fs";
import { TuiwrightError } from "../protocol/errors.ts";
import { contained } from "../runtime/fault-scope.ts";
import { fdChannel, type FdChannel } from "./fd-channel.ts";
import { checkProgram, limitedStart, limitStartedProgram } from "./task-limit.ts";
import { launchWarm, stillLaunching, takeWarmStart, warmCommand } from "./warm-start.ts";
import { unreadOutputProbe } from "./unread-output.ts";

export type PtyExit = { code: number | null; signal: string | null };

export type PtyOptions = {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  onData(bytes: Uint8Array): void;
  /** The PTY reached EOF (every holder of the slave closed it). */
  onClose(): void;
  /** The cgroup the program starts in (before its first instruction), or null. */
  cgroup?: string | null;
  /** RLIMIT_NPROC for the program and all it starts, or null. */
  taskLimit?: number | null;
  /** Also give the child a private channel on its fds 3 (it reads) and 4 (it writes). */
  channel?: boolean;
};

export type Pty = {
  readonly pid: number;
  readonly exited: Promise<PtyExit>;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  /** IXON in the slave's termios: XOFF/XON from us pause/resume the program's output. */
  readonly ixon: boolean;
  /** ICANON and ECHO in the slave's termios: the program reads whole lines that the terminal
   * echoes (a shell's command, `cat`, `read -p`), so nobody waits for a reply to a query. */
  readonly canonicalEcho: boolean;
  close(): void;
  /** The fds 3/4 channel, when asked for. */
  readonly channel: FdChannel | null;
  /** Output the program wrote is still on its way to us (true), all of it was delivered
   * (false), or that cannot be known here (null): unread-output.ts. */
  unreadOutput(): boolean | null;
  /** The process is not yet the program (a warm start still on its way to exec it). */
  launching(): boolean;
};

const IXON = 0o2000;
const ICANON = 0o2;
const ECHO = 0o10;

export function spawnPty(options: PtyOptions): Pty {
  // Bun reports a missing cwd as ENOENT too, which would read as a missing program.
  if (!isDirectory(options.cwd)) throw new TuiwrightError("no-such-file", `no such directory: ${JSON.stringify(options.cwd)}`);
  const start = options.taskLimit ? limitedStart(options.argv, options.taskLimit, options.cwd, options.env) : { argv: options.argv, limitedBeforeStart: false };
  let proc: Bun.Subprocess;
  // A warm start's program is looked up first: a missing one is this error, not a shell's complaint
  // on the screen (and the warm start is left for the next spawn, which replaces it).
  const command = options.cgroup && !options.channel && !options.taskLimit ? warmCommand(options.argv, options.env, options.cwd) : null;
  if (command) checkProgram(options.argv, options.cwd, options.env);
  const warm = command ? takeWarmStart(options.cgroup!) : null;
  if (warm) {
    launchWarm(warm, command!, options.cols, options.rows, {
      data: contained((bytes: Uint8Array) => options.onData(bytes)),
      exit: contained(() => options.onClose()),
    });
    proc = warm.proc;
  } else try {
    proc = Bun.spawn(start.argv, {
      cwd: options.cwd,
      env: options.env,
      // Entries past stdin/stdout/stderr become the child's fds 3, 4 (the terminal takes 0-2).
      ...(options.channel ? { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] } : {}),
      terminal: {
        cols: options.cols,
        rows: options.rows,
        name: options.env.TERM ?? "xterm-256color",
        // A fault in the session's handling of its output ends that session, not its thread's others.
        data: contained((_terminal: unknown, bytes: Uint8Array) => options.onData(bytes)),
        exit: contained(() => options.onClose()),
      },
      ...(options.cgroup ? { cgroup: options.cgroup } : {}),
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const program = options.argv[0] ?? "";
    if (code === "ENOENT") throw new TuiwrightError("no-such-program", `no such program: ${JSON.stringify(program)}`);
    if (code === "EACCES") throw new TuiwrightError("permission", `not executable: ${JSON.stringify(program)}`, { hint: "check the file's mode" });
    if (code === "EAGAIN") {
      throw new TuiwrightError("busy", `could not start ${JSON.stringify(program)}: no more processes may be started (${(error as Error).message})`, {
        hint: "a session may be forking without end: find it with `tuiwright list` and end it with `tuiwright kill`, then retry",
      });
    }
    throw new TuiwrightError("io", `could not start ${JSON.stringify(program)}: ${(error as Error).message}`);
  }
  if (options.taskLimit) limitStartedProgram(proc.pid, options.taskLimit, start.limitedBeforeStart);
  const terminal = proc.terminal!;
  const fds = proc.stdio as unknown as (number | null)[] | undefined;
  const channel = options.channel && typeof fds?.[3] === "number" && typeof fds[4] === "number" ? fdChannel(fds[3], fds[4]) : null;
  const unread = unreadOutputProbe(proc.pid);
  let launched = !warm;
  const exited = proc.exited.then(() => ({ code: proc.signalCode ? null : proc.exitCode, signal: proc.signalCode ? String(proc.signalCode) : null }));
  return {
    pid: proc.pid,
    exited,
    write: (data) => { if (!terminal.closed) terminal.write(data); },
    resize: (cols, rows) => { if (!terminal.closed) terminal.resize(cols, rows); },
    get ixon() { return !terminal.closed && (terminal.inputFlags & IXON) !== 0; },
    get canonicalEcho() { return !terminal.closed && (terminal.localFlags & (ICANON | ECHO)) === (ICANON | ECHO); },
    close: () => { if (!terminal.closed) terminal.close(); },
    channel,
    unreadOutput: () => (terminal.closed ? null : unread()),
    launching: () => !(launched ||= !stillLaunching(proc.pid)),
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
