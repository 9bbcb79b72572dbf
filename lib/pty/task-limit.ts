// RLIMIT_NPROC on a session's program, in place before its first instruction where possible.
// Bun offers no hook between fork and exec, and a limit set from outside after the spawn races
// the program's first forks: on a loaded machine a fork bomb's early children kept the user's
// whole limit (measured: 241–333 of ~300 bombing processes under two busy loops), took the
// user's last tasks and the daemon — and every `tuiwright` client — aborted for want of a
// thread. So the program is started through util-linux's prlimit(1), which sets the limit on
// itself and then execs the program (same pid, same argv); where it is missing the limit is set
// after the spawn, descendants included, as well as that race allows.
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";
import { libc, RLIMIT_NPROC } from "../runtime/libc.ts";
import { liveDescendants, readProcessTable } from "../runtime/process-table.ts";

/** Only the system's own copy: the session's PATH must not choose what sets its limit. */
const PRLIMIT_PATHS = ["/usr/bin/prlimit", "/bin/prlimit", "/usr/sbin/prlimit", "/sbin/prlimit"];
/** What an exec without PATH searches (glibc's and prlimit's default), and Bun's too. */
const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

let prlimitPath: string | null | undefined;

function prlimit(): string | null {
  if (prlimitPath === undefined) prlimitPath = PRLIMIT_PATHS.find(isExecutableFile) ?? null;
  return prlimitPath;
}

export type LimitedStart = { argv: string[]; limitedBeforeStart: boolean };

/** The argv that starts `argv` with RLIMIT_NPROC (soft and hard) at `limit` from its first
 * instruction. The program is looked up first, so a missing or non-executable one is the same
 * error a direct spawn gives (prlimit would only print its complaint on the terminal). */
export function limitedStart(argv: string[], limit: number, cwd: string, env: Record<string, string>): LimitedStart {
  const wrapper = prlimit();
  if (!wrapper) return { argv, limitedBeforeStart: false };
  checkProgram(argv, cwd, env);
  return { argv: [wrapper, `--nproc=${limit}`, "--", ...argv], limitedBeforeStart: true };
}

/** The error a direct spawn of `argv` would give for a missing or non-executable program, thrown
 * before a wrapper (prlimit, a warm start) execs it and could only print its complaint. */
export function checkProgram(argv: string[], cwd: string, env: Record<string, string>): void {
  const program = argv[0] ?? "";
  const path = program.includes("/") ? resolve(cwd, program) : Bun.which(program, { PATH: env.PATH ?? DEFAULT_PATH, cwd });
  if (!path || !existsSync(path)) throw new TuiwrightError("no-such-program", `no such program: ${JSON.stringify(program)}`);
  if (!isExecutableFile(path)) throw new TuiwrightError("permission", `not executable: ${JSON.stringify(program)}`, { hint: "check the file's mode" });
}

/** After the spawn: sets the limit on the program, and where it could not be set before the
 * start, on any child it started before that too — until a read of the process table finds none
 * that were not limited before it began (a process forked after that has a limited parent). */
export function limitStartedProgram(pid: number, limit: number, limitedBeforeStart: boolean): void {
  const lib = libc();
  if (!lib) return;
  lib.setLimit(pid, RLIMIT_NPROC, BigInt(limit));
  if (limitedBeforeStart) return;
  const limited = new Set([pid]);
  for (let pass = 0; pass < MAX_LIMIT_PASSES; pass++) {
    const early = liveDescendants(readProcessTable(), [pid]).filter((descendant) => !limited.has(descendant));
    if (early.length === 0) return;
    for (const descendant of early) {
      lib.setLimit(descendant, RLIMIT_NPROC, BigInt(limit));
      limited.add(descendant);
    }
  }
}

/** Reads of the process table while limiting a new program's early descendants. */
const MAX_LIMIT_PASSES = 64;

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
