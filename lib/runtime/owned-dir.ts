// The directories tuiwright writes to or reads code-like input from (state, config, data) must
// be ours alone: another local user who could create or swap anything in them could make us
// follow a planted symlink, read a planted manifest, or run a planted rc file. Every directory
// from the trusted root down is checked (real directory, not a symlink, owned by us, no
// group/other write) and the ones we create are made 0700. Anything else is refused (exit 77).
import type { Stats } from "node:fs";
import { lstatSync, mkdirSync, realpathSync, statSync } from "./node-fs.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import { uid, type OwnedPath } from "./paths.ts";

const STICKY = 0o1000;

const OWNED_HINT = "it must be a directory owned by you that nobody else can write (chmod go-w, or set XDG_STATE_HOME / XDG_CONFIG_HOME / XDG_DATA_HOME elsewhere)";

function refuse(what: string, path: string, why: string, hint = OWNED_HINT): TuiwrightError {
  return new TuiwrightError("permission", `refusing ${what} ${path}: ${why}`, { hint });
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw refuse("directory", path, (error as Error).message);
  }
}

function parent(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

/** The root's own ancestors may be shared (/tmp) only if sticky: nobody can rename our root away. */
function checkAncestors(root: string, what: string, hint = OWNED_HINT): void {
  for (let dir = parent(root); ; dir = parent(dir)) {
    const stat = statSync(dir);
    if (stat.uid !== uid() && stat.uid !== 0) throw refuse(what, root, `its parent ${dir} belongs to uid ${stat.uid}`, hint);
    if ((stat.mode & 0o022) !== 0 && (stat.mode & STICKY) === 0) throw refuse(what, root, `its parent ${dir} is writable by others`, hint);
    if (dir === "/") return;
  }
}

/** A folder of code we are asked to run (an app folder), checked like a manifest: its real
 * path must be a directory owned by us (or root) that nobody else can write, and every directory
 * above it ours or root's, shared ones only if sticky — so nobody else can change or swap what
 * runs. Returns the real path (read everything through it); refuses with exit 77. */
export function checkCodeFolder(path: string, what: string, hint: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new TuiwrightError("no-such-file", `no ${what} at ${path}`);
    throw refuse(what, path, (error as Error).message, hint);
  }
  const stat = lstatSync(real);
  if (!stat.isDirectory()) throw new TuiwrightError("no-such-file", `no ${what} at ${path}: it is not a directory`);
  checkOwned(real, stat, what, { allowRoot: true, hint });
  checkAncestors(real, what, hint);
  return real;
}

/** The directories between a checked code folder and a file in it: real directories (no
 * symlinks), ours or root's, writable by nobody else. */
export function checkInsideCodeFolder(folder: string, relativeDir: string, what: string, hint: string): void {
  let dir = folder;
  for (const name of relativeDir.split("/").filter((part) => part !== "" && part !== ".")) {
    dir = `${dir}/${name}`;
    const stat = lstatOrNull(dir);
    if (!stat) throw new TuiwrightError("no-such-file", `no directory ${dir} in ${what} ${folder}`);
    checkOwned(dir, stat, what, { allowRoot: true, hint });
  }
}

/** A directory only we control: a real directory (not a symlink), ours (or root's where
 * `allowRoot`), with none of the `forbidden` mode bits — group/other write by default, any
 * group/other access for the socket's directory. Also the socket directory's check. */
export function checkOwned(path: string, stat: Stats, what: string, { allowRoot = false, forbidden = 0o022, hint = OWNED_HINT } = {}): void {
  if (stat.isSymbolicLink()) throw refuse(what, path, "it is a symlink", hint);
  if (!stat.isDirectory()) throw refuse(what, path, "it is not a directory", hint);
  if (stat.uid !== uid() && !(allowRoot && stat.uid === 0)) throw refuse(what, path, `owned by uid ${stat.uid}, not ${uid()}`, hint);
  if ((stat.mode & forbidden) !== 0) {
    const mode = (stat.mode & 0o777).toString(8);
    throw refuse(what, path, forbidden === 0o077 ? `mode ${mode} lets others in (want 700)` : `mode ${mode} lets others write to it`, hint);
  }
}

function walk(owned: OwnedPath, what: string, create: boolean): boolean {
  let root = owned.base;
  let rootStat = lstatOrNull(root);
  if (!rootStat) {
    if (!create) return false;
    mkdirSync(root, { recursive: true, mode: 0o700 });
  }
  // The root (HOME, an XDG directory) may itself be a symlink the user made: follow it once.
  root = realpathSync(root);
  rootStat = lstatSync(root);
  checkOwned(root, rootStat, what, { allowRoot: true });
  checkAncestors(root, what);
  const rest = owned.path.slice(owned.base.length).split("/").filter(Boolean);
  let dir = root;
  for (const name of rest) {
    dir = `${dir}/${name}`;
    let stat = lstatOrNull(dir);
    if (!stat) {
      if (!create) return false;
      try {
        mkdirSync(dir, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw refuse(what, dir, (error as Error).message);
      }
      stat = lstatSync(dir);
    }
    checkOwned(dir, stat, what);
  }
  return true;
}

/** Creates (0700) and verifies the directory; returns its path. */
export function ensureOwnedDir(owned: OwnedPath, what = "directory"): string {
  walk(owned, what, true);
  return owned.path;
}

/** Verifies the directory if it exists: false when it does not (nothing to read there). */
export function ownedDirExists(owned: OwnedPath, what = "directory"): boolean {
  return walk(owned, what, false);
}

/** A subdirectory of a verified directory, created 0700 and checked the same way. */
export function ensureOwnedSubdir(parentDir: OwnedPath, name: string, what = "directory"): string {
  return ensureOwnedDir({ base: parentDir.base, path: `${parentDir.path}/${name}` }, what);
}
