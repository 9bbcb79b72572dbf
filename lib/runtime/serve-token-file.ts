// `serve --http`'s bearer token on disk: `serve-PORT.token` (the token alone, so
// `$(cat FILE)` is the header's value) in the namespace's state directory, and beside it
// `serve-PORT.pid`, which server wrote it. The server removes both when it stops; a server
// that was killed (SIGKILL, OOM) leaves them, and `tuiwright gc` removes a pair whose server
// is no longer running.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { writeOutputFile } from "./output-file.ts";
import { processStartTime } from "./process.ts";

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
