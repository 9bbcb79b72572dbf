// Checks that files are created in one place only, so it is a rule and not prose (SECURITY.md,
// "Files"): every file tuiwright writes on a user's request goes through the safe writer
// (lib/runtime/output-file.ts: exclusive temporary file, linked or renamed into place, 0600,
// never through a symlink). Anywhere else in the shipped code (main.ts, lib/, entries/,
// workers/), writing a file by path — `writeFileSync`, `appendFileSync`, `writeFile`,
// `appendFile`, `createWriteStream`, `copyFile(Sync)`, `cpSync`, `Bun.write` to anything but
// standard output or error, or `openSync` with flags that are not a literal read-only open
// (`"r"`, `"rs"`, or only `O_RDONLY`/`O_NONBLOCK`/`O_NOCTTY`/`O_DIRECTORY`/`O_NOFOLLOW`/
// `O_CLOEXEC`; flags in a variable may write) — fails the check, unless the line is one of the
// EXCEPTIONS below, each with its reason. `bun
// scripts/check-writes.ts` exits 1 naming each; scripts/test.sh runs it beside the layer check.
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

/** The safe writer itself, and the standard streams. */
const WRITERS = new Set(["lib/runtime/output-file.ts", "lib/runtime/stdio.ts"]);

/** `file: what it writes` → why it is not the safe writer. Keep this list short. */
export const EXCEPTIONS: Record<string, string> = {
  "lib/record/cast-recorder.ts: openSync(path, \"wx\", 0o600)":
    "a recording is appended to for the whole session: created exclusively (O_EXCL: never an existing file, never through a symlink), 0600",
  "lib/runtime/spawn-detached.ts: openSync(logPath, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600)":
    "the daemon's log, appended to by the daemon for its life, in the verified 0700 state directory; O_NOFOLLOW",
  "lib/daemon/daemon.ts: writeFileSync(pidFile":
    "the daemon's pid file beside its socket, in the verified 0700 socket directory only we can enter",
  "lib/transport/session-ledger.ts: writeFileSync(this.#path":
    "the session ledger beside the socket, in the verified 0700 socket directory only we can enter; rewritten on every change",
  "lib/daemon/shell-launch.ts: writeFileSync(path, text, { mode: 0o600, flag: \"wx\" })":
    "a shell's rc file, created exclusively (wx, 0600) in a fresh mkdtemp directory of the verified state directory",
  "lib/shell/transcript-files.ts: openSync(`${this.dir}/${name}`, \"a\", 0o600)":
    "a shell transcript, opened for appending (kept open) as blocks finish, in the session's own directory under the verified state directory",
  "lib/runtime/session-cgroups.ts: import { open } from \"node:fs/promises\"":
    "joinCgroup writes a pid to cgroup.procs of a session's own cgroup (O_WRONLY, never created) off the JS thread: the move waits out an RCU grace period",
  "lib/runtime/session-cgroups.ts: openSync(path, constants.O_WRONLY)":
    "a cgroup control file (pids.max, cgroup.procs, cgroup.kill) in the session's own cgroup: never created (no O_CREAT), only written",
  "lib/worker/shell-facet.ts: writeFileSync(this.#historyFlag, \"\", { mode: 0o600 })":
    "the flag file that tells the shell's own rc to keep the next line out of history, in the session's fresh rc directory (mkdtemp, 0700) under the verified state directory",
  "lib/shell/output-spool.ts: openSync(path, \"a\", 0o600)":
    "a shell's output spool, appended to as output arrives, in the session's own transcript directory under the verified state directory",
  "lib/runtime/tty-input-flush.ts: openSync(path, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK)":
    "the session's own terminal, opened to flush its input queue (tcflush): nothing is written or created",
  "lib/desktop/confined-files.ts: openSync(path, flags | constants.O_NONBLOCK, 0o600)":
    "an AOTUI app's aotui.fs.writeText (and its reads): only inside the folders its manifest grants, checked on the real path before the open and on the opened file after (fstat via /proc/self/fd), O_NOFOLLOW, no O_TRUNC until the check passed, a file with other hard links refused",
};

const WRITE_CALL = /\b(writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|copyFileSync|copyFile|cpSync)\s*\(/;
const BUN_WRITE = /\bBun\.write\s*\(\s*(?!Bun\.std(out|err)\b)/;
const OPEN_CALL = /\bopenSync\s*\(/g;
/** `open` from node:fs/promises opens with any flags, and its calls read like any method named open:
 * importing it is the write, to be excepted with its reason. */
const PROMISES_OPEN_IMPORT = /^\s*import\s*\{[^}]*\bopen\b[^}]*\}\s*from\s*["'](node:)?fs\/promises["']/;
const READ_ONLY_STRING = /^(["'`])(r|rs|sr)\1$/;
const READ_ONLY_FLAG = /^(?:(?:fs\.|node:fs\.)?constants\.)?O_(RDONLY|NONBLOCK|NOCTTY|DIRECTORY|NOFOLLOW|CLOEXEC)$/;

/** The arguments of the call whose "(" is just before `start`, split at top-level commas; null
 * when the call does not end on this line (then its flags are unknown). */
function callArguments(code: string, start: number): string[] | null {
  const args: string[] = [];
  let depth = 0;
  let quote = "";
  let current = "";
  for (let i = start; i < code.length; i++) {
    const c = code[i]!;
    if (quote) {
      if (c === "\\") current += c + (code[++i] ?? "");
      else {
        if (c === quote) quote = "";
        current += c;
      }
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if (c === ")") return (current.trim() === "" ? args : [...args, current]).map((arg) => arg.trim());
    else if (c === "," && depth === 0) {
      args.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  return null;
}

/** An `openSync` on this line that may write or create: anything but a literal read-only open. */
function opensForWriting(code: string): boolean {
  for (const match of code.matchAll(OPEN_CALL)) {
    const args = callArguments(code, match.index + match[0].length);
    if (args === null) return true;
    const flags = args[1];
    if (flags === undefined) continue; // openSync(path): "r"
    if (READ_ONLY_STRING.test(flags)) continue;
    if (flags.split("|").every((flag) => READ_ONLY_FLAG.test(flag.trim()))) continue;
    return true;
  }
  return false;
}

function exceptionFor(file: string, line: string): boolean {
  return Object.keys(EXCEPTIONS).some((key) => {
    const [where, what] = [key.slice(0, key.indexOf(": ")), key.slice(key.indexOf(": ") + 2)];
    return where === file && line.includes(what);
  });
}

/** Problems in the shipped code; `plant` gives a file's text instead of reading it (tests). */
export function checkWrites(plant: Record<string, string> = {}): string[] {
  const found = ["main.ts", ...["lib/**/*.ts", "workers/*.ts", "entries/*.ts"].flatMap((p) => [...new Glob(p).scanSync({ cwd: ROOT })])];
  const files = [...new Set([...found, ...Object.keys(plant)])].filter((f) => !f.endsWith(".d.ts")).sort();
  const problems: string[] = [];
  const used = new Set<string>();
  for (const file of files) {
    if (WRITERS.has(file)) continue;
    const lines = (plant[file] ?? readFileSync(join(ROOT, file), "utf8")).split("\n");
    lines.forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, "");
      if (!WRITE_CALL.test(code) && !BUN_WRITE.test(code) && !opensForWriting(code) && !PROMISES_OPEN_IMPORT.test(code)) return;
      if (/^\s*(import|export)\b/.test(code) && !PROMISES_OPEN_IMPORT.test(code)) return;
      if (exceptionFor(file, line)) {
        used.add(Object.keys(EXCEPTIONS).find((key) => key.startsWith(`${file}: `) && line.includes(key.slice(key.indexOf(": ") + 2)))!);
        return;
      }
      problems.push(`${file}:${i + 1}: writes a file outside the safe writer: ${line.trim()} (use writeOutputFile from lib/runtime/output-file.ts, or add an exception with its reason to scripts/check-writes.ts)`);
    });
  }
  // An exception nobody needs any more is removed, not kept "just in case".
  if (Object.keys(plant).length === 0) {
    for (const key of Object.keys(EXCEPTIONS)) if (!used.has(key)) problems.push(`scripts/check-writes.ts: the exception "${key}" matches nothing any more; remove it`);
  }
  return problems;
}

if (import.meta.main) {
  const problems = checkWrites();
  for (const problem of problems) console.error(problem);
  console.log(problems.length === 0 ? "writes: ok" : `writes: ${problems.length} problem(s)`);
  process.exit(problems.length === 0 ? 0 : 1);
}
