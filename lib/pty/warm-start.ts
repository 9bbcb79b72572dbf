// A session's process started ahead of its spawn (issue 30). Moving a new process into its
// session's cgroup waits out an RCU grace period in the kernel (measured 10-15 ms on a cgroup v1
// hierarchy), which Bun.spawn's `cgroup` pays inside its vfork: on the spawn's critical path, with
// the worker's thread (and its other sessions) stalled. A warm start is /bin/sh on its own
// terminal, moved into the next session's cgroup off every JS thread (joinCgroup), blocked reading
// its fd 3. The spawn writes it one command — cd to the cwd, then `exec /usr/bin/env -i -- ENV
// ARGV` — and closes the pipe, so the program runs in its cgroup from its first instruction, with
// the same pid, argv and environment a direct spawn gives (env -i drops sh's own variables).
import { closeSync, readFileSync, writeSync } from "node:fs";
import { currentSession, inSessionScope } from "../runtime/fault-scope.ts";
import { joinCgroup } from "../runtime/session-cgroups.ts";

/** Reads the command to its end (the pipe's close), closes fd 3 so the program does not inherit
 * it, and runs it. Written for any POSIX sh: no `read -d`, no `$'…'`. */
const SCRIPT = 'c=; while IFS= read -r l <&3; do c="$c$l\n"; done; exec 3<&-; eval "$c"'.replace("\\n", "\n");
const ENV = "/usr/bin/env";
const SH = "/bin/sh";

type Handlers = { data(bytes: Uint8Array): void; exit(): void };

export type WarmStart = {
  readonly cgroup: string;
  readonly proc: Bun.Subprocess;
  /** Resolves true once the process is in its cgroup (false: it could not be moved, and was killed). */
  readonly ready: Promise<boolean>;
  /** What `ready` resolved to, once it has: the command goes at once, not a turn of the loop later. */
  inCgroup: boolean | null;
  readonly handlers: Handlers;
};

/** This thread's warm start, for the cgroup the daemon made ahead of the next spawn. */
let current: WarmStart | null = null;

/** Starts the process the next spawn into `cgroup` will run its program in; replaces (kills) any
 * earlier one. Returns its pid; never throws: without it, that spawn starts its program itself. */
export function prepareWarmStart(cgroup: string): number | null {
  discardWarmStart();
  const handlers: Handlers = { data: () => undefined, exit: () => undefined };
  let proc: Bun.Subprocess;
  try {
    proc = Bun.spawn([SH, "-c", SCRIPT], {
      cwd: "/",
      env: {},
      stdio: ["ignore", "ignore", "ignore", "pipe"],
      terminal: { cols: 80, rows: 24, data: (_terminal: unknown, bytes: Uint8Array) => handlers.data(bytes), exit: () => handlers.exit() },
    });
  } catch {
    return null;
  }
  const warm: WarmStart = {
    cgroup, proc, handlers, inCgroup: null,
    ready: joinCgroup(cgroup, proc.pid).then(() => true, () => {
      proc.kill("SIGKILL");
      return false;
    }).then((inCgroup) => (warm.inCgroup = inCgroup)),
  };
  current = warm;
  return proc.pid;
}

/** The warm start for `cgroup`, taken (a second spawn does not find it), or null. */
export function takeWarmStart(cgroup: string): WarmStart | null {
  if (current?.cgroup !== cgroup || current.proc.exitCode !== null || current.proc.signalCode !== null || current.proc.terminal?.closed !== false) return null;
  const taken = current;
  current = null;
  return taken;
}

/** Ends this thread's unused warm start (its cgroup went to a session on another thread). */
export function discardWarmStart(): void {
  current?.proc.kill("SIGKILL");
  current = null;
}

/** Hands the warm start its program: output and the terminal's end go to `handlers` (in the
 * scope of the session running this), then, once the process is in its cgroup, the command. */
export function launchWarm(warm: WarmStart, command: string, cols: number, rows: number, handlers: Handlers): void {
  const session = currentSession();
  const scoped = <A extends unknown[]>(f: (...args: A) => void) => (session === undefined ? f : (...args: A) => inSessionScope(session, () => f(...args)));
  warm.handlers.data = scoped(handlers.data);
  warm.handlers.exit = scoped(handlers.exit);
  warm.proc.terminal!.resize(cols, rows);
  const fds = warm.proc.stdio as unknown as (number | null)[];
  const fd = fds[3]!;
  const send = (inCgroup: boolean) => {
    try {
      // Whole or not at all: a command cut short is an unterminated quote, which sh runs none of.
      if (inCgroup) writeSync(fd, command);
    } finally {
      // Not in its cgroup: EOF with no command, and sh ends (it was killed already).
      try { closeSync(fd); } catch { /* already closed */ }
    }
  };
  if (warm.inCgroup !== null) send(warm.inCgroup);
  else void warm.ready.then(send);
}

/** The command that runs `argv` in `cwd` with exactly `env`; null when it is too long to be
 * sure one write takes it (the spawn then starts its program itself). */
export function warmCommand(argv: string[], env: Record<string, string>, cwd: string): string | null {
  // env(1) would read a program named NAME=VALUE as one more variable.
  if ((argv[0] ?? "=").includes("=")) return null;
  const command = `cd -- ${quote(cwd)} || exit 127\nexec ${ENV} -i -- ${Object.entries(env).map(([k, v]) => quote(`${k}=${v}`)).join(" ")} ${argv.map(quote).join(" ")}\n`;
  return Buffer.byteLength(command) <= MAX_COMMAND_BYTES ? command : null;
}

/** Well under a socket's send buffer (≥ 200 kB on Linux): one non-blocking write takes it all. */
const MAX_COMMAND_BYTES = 64 * 1024;

/** The process is still the waiting shell (which reads its fd 3 as fd 0, so it would look like a
 * program waiting for input) or env(1), not yet the program: by its command line, which is ours. */
export function stillLaunching(pid: number): boolean {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return false; // ended: nothing is launching any more
  }
  return cmdline === `${SH}\0-c\0${SCRIPT}\0` || cmdline.startsWith(`${ENV}\0-i\0--\0`);
}

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
