// The socket's directory is the security boundary: only its owner may reach the socket. It
// must be a real directory (not a symlink), owned by us, with no group/other permissions.
// The daemon creates it that way; daemon and client both refuse anything else.
import { lstatSync, mkdirSync, unlinkSync } from "../runtime/node-fs.ts";
import { ERRORS, TuiwrightError } from "../protocol/errors.ts";
import { checkOwned } from "../runtime/owned-dir.ts";
import { uid } from "../runtime/paths.ts";

function dirname(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

function statOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    // Another user's socket directory: say so (exit 77), not an internal error.
    if (code === "EACCES" || code === "EPERM") throw refuse(`cannot reach ${path}: permission denied (it belongs to another user)`);
    throw error;
  }
}

function refuse(message: string): TuiwrightError {
  return new TuiwrightError("permission", message);
}

/** Checks (and with create: makes) the socket's directory. */
export function checkSocketDir(socketPath: string, options: { create: boolean }): void {
  const dir = dirname(socketPath);
  let stat = statOrNull(dir);
  if (!stat && options.create) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    stat = statOrNull(dir);
  }
  if (!stat) return; // nothing there yet: the client will report that no daemon runs
  checkOwned(dir, stat, "socket directory", { forbidden: 0o077, hint: ERRORS.permission.hint });
}

/** Checks that an existing socket file is ours and really a socket. */
export function checkSocketFile(socketPath: string): void {
  const stat = statOrNull(socketPath);
  if (!stat) return;
  if (!stat.isSocket()) throw refuse(`refusing ${socketPath}: it is not a socket`);
  if (stat.uid !== uid()) throw refuse(`refusing ${socketPath}: owned by uid ${stat.uid}, not ${uid()}`);
}

export function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
