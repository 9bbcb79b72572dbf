// `serve --http`'s bearer token on disk: `serve-PORT.token` (the token alone, so
// `$(cat FILE)` is the header's value) in the namespace's state directory, and beside it
// `serve-PORT.pid`, which server wrote it. The server removes both when it stops; a server
// that was killed (SIGKILL, OOM) leaves them, and `tuiwright gc` removes a pair whose server
// is no longer running.
//
// `serve --token-file PATH` pins the token instead (a static MCP client configuration needs one
// that survives restarts): PATH is the user's file, read — or created with a fresh token when
// missing — and never removed; it must be theirs, a regular file, and readable by nobody else.
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";
import { writeOutputFile } from "./output-file.ts";
import { uid } from "./paths.ts";
import { processStartTime } from "./process.ts";
import { openTrustedFile, readWhole } from "./trusted-file.ts";

const TOKEN_FILE = /^serve-(\d{1,5})\.token$/;

function pathsOf(dir: string, port: number): { token: string; pid: string } {
  return { token: `${dir}/serve-${port}.token`, pid: `${dir}/serve-${port}.pid` };
}

function removeQuietly(path: string): void {
  rmSync(path, { force: true });
}

/** Writes the token (0600) and who wrote it; returns the token file's path. */
export function writeServeToken(dir: string, port: number, token: string): string {
  const paths = pathsOf(dir, port);
  writeOutputFile(paths.pid, `${JSON.stringify({ pid: process.pid, start: processStartTime(process.pid) })}\n`);
  writeOutputFile(paths.token, `${token}\n`);
  return paths.token;
}

/** The server stops: its files go, unless another server took the port's name meanwhile. */
export function removeServeToken(dir: string, port: number, token: string): void {
  const paths = pathsOf(dir, port);
  try {
    if (readFileSync(paths.token, "utf8").trim() !== token) return;
  } catch {
    return;
  }
  removeQuietly(paths.token);
  removeQuietly(paths.pid);
}

/** Whether the server that wrote a token file still runs (same pid, same start time). */
function serverRuns(pidFile: string): boolean {
  let owner: { pid?: unknown; start?: unknown };
  try {
    owner = JSON.parse(readFileSync(pidFile, "utf8"));
  } catch {
    return false; // no record of its server: left by a killed one (or an older version)
  }
  if (typeof owner.pid !== "number" || !Number.isInteger(owner.pid) || owner.pid <= 0) return false;
  const start = processStartTime(owner.pid);
  if (start !== null) return start === owner.start;
  try {
    process.kill(owner.pid, 0); // no /proc here: the pid alone
    return true;
  } catch {
    return false;
  }
}

/** Token files in `dir` whose server is gone; removed unless `dryRun`. Returns their paths. */
export function removeStaleServeTokens(dir: string, dryRun: boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const stale: string[] = [];
  for (const name of names) {
    const port = TOKEN_FILE.exec(name)?.[1];
    if (port === undefined) continue;
    const paths = pathsOf(dir, Number(port));
    if (serverRuns(paths.pid)) continue;
    stale.push(paths.token);
    if (!dryRun) {
      removeQuietly(paths.token);
      removeQuietly(paths.pid);
    }
  }
  return stale;
}

/** A new token: 32 base64url characters (192 bits). */
export function freshServeToken(): string {
  return randomBytes(24).toString("base64url");
}

/** RFC 6750's token characters, long enough not to be guessed, short enough to be a token. */
const USABLE_TOKEN = /^[A-Za-z0-9._~+/=-]{32,512}$/;

/** The token in the user's file `path` (named by `from`: the flag or variable, for messages);
 * a missing file is created (0600) with a fresh token. Refused, before anything listens: a file
 * another user owns or others can read (the token would not be secret), something other than a
 * regular file, a missing directory, a file without a usable token. */
export function pinnedServeToken(path: string, from: string): string {
  const say = (problem: string) => `${from}: token file ${JSON.stringify(path)} ${problem}`;
  const dir = dirname(path);
  if (!existsSync(path)) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new TuiwrightError("no-such-file", say(`cannot be created: no such directory ${dir}`), { hint: `create the directory first (mkdir -p ${dir})` });
    }
    const token = freshServeToken();
    writeOutputFile(path, `${token}\n`, { replace: false });
    return token;
  }
  const { fd, stat } = openTrustedFile(path, { what: "token file", maxBytes: 4096, say: (_, problem) => say(problem) });
  try {
    if (stat.uid !== uid()) {
      throw new TuiwrightError("permission", say(`is owned by uid ${stat.uid}, not ${uid()}: another user's file could hand your server a token they know`), { hint: `use a token file of your own, e.g. in ${homedir()}` });
    }
    if ((stat.mode & 0o077) !== 0) {
      throw new TuiwrightError("permission", say(`has mode ${(stat.mode & 0o777).toString(8)}: others can read the token (chmod 600)`), { hint: `chmod 600 ${path}` });
    }
    const token = readWhole(fd, stat.size).toString("utf8").trim();
    if (!USABLE_TOKEN.test(token)) {
      throw new TuiwrightError("bad-data", say("holds no usable token: 32 to 512 characters of A-Z a-z 0-9 - . _ ~ + / ="), {
        hint: `delete it and the server writes a fresh one, or put one there: head -c 24 /dev/urandom | base64 > ${path}`,
      });
    }
    return token;
  } finally {
    closeSync(fd);
  }
}
