// The one way tuiwright writes a file a user asked for (`snapshot --out/--save`, `report -o`,
// `replay --update`, `cast convert`, `desktop save`, `awi-tty snapshot --out`, `skill --install`,
// `desktop new-app`). The path may be in a shared directory such as /tmp, where another user can
// plant a symlink, a FIFO or a file of their own under the name before we write. So:
//  - the bytes go to a fresh temporary file created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW, mode
//    0600 unless asked otherwise) in the same directory, and only then get the name: with link(2),
//    which fails if the name exists, or — replacing a file that is ours — with rename(2), which
//    swaps the name atomically. Neither ever opens what is at the path, so our bytes never go
//    into another user's file, through a symlink, or into a FIFO, whatever races us;
//  - what is at the path decides: nothing → created; a regular file of ours → replaced (unless
//    `replace: false`); a symlink, a FIFO, a directory or a device → refused (exit 74); another
//    user's file → refused (exit 77), never replaced;
//  - a missing directory is an I/O error (exit 74): nothing is created on the way.
import type { Stats } from "node:fs";
import { closeSync, fsConstants, linkSync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from "./node-fs.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import { uid } from "./paths.ts";

export type OutputOptions = {
  /** Replace an existing file of ours (default); false: an existing file is an error (`details.exists`). */
  replace?: boolean;
  /** The new file's mode (default 0600, as recordings). */
  mode?: number;
};

function splitPath(path: string): { dir: string; name: string } {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? { dir: ".", name: path } : { dir: path.slice(0, slash) || "/", name: path.slice(slash + 1) };
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ENOTDIR") throw new TuiwrightError("io", `cannot write ${path}: a component of the path is not a directory`);
    throw new TuiwrightError("io", `cannot write ${path}: ${code ?? (error as Error).message}`);
  }
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** Throws unless what is at `path` (if anything) may be replaced by our new file. */
function checkExisting(path: string, stat: Stats, replace: boolean): void {
  if (stat.isSymbolicLink()) {
    throw new TuiwrightError("io", `refusing to write ${path}: it is a symbolic link`, { hint: "write to a regular file path (remove the link, or give its target)" });
  }
  if (!stat.isFile()) throw new TuiwrightError("io", `refusing to write ${path}: it is ${kindOf(stat)}`, { hint: "give the path of a regular file" });
  if (stat.uid !== uid()) {
    throw new TuiwrightError("permission", `refusing to write ${path}: it belongs to uid ${stat.uid}, not ${uid()} (another user created it)`, {
      hint: "write somewhere only you can write (your home directory), or pick another name",
    });
  }
  if (!replace) throw new TuiwrightError("bad-data", `cannot write ${path}: it exists already`, { hint: "remove it or give another path", details: { exists: true } });
}

function ioError(path: string, dir: string, error: unknown): TuiwrightError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new TuiwrightError("io", `cannot write ${path}: no such directory ${dir}`, { hint: "create the directory first, or give a path in an existing one" });
  if (code === "ENOTDIR") return new TuiwrightError("io", `cannot write ${path}: ${dir} is not a directory`);
  if (code === "EACCES" || code === "EPERM") return new TuiwrightError("io", `cannot write ${path}: permission denied in ${dir}`, { hint: "give a path in a directory you can write" });
  return new TuiwrightError("io", `cannot write ${path}: ${code ?? (error as Error).message}`);
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}

/** Writes `contents` to `path` as described above; says whether an older file was replaced. */
/** Web Crypto's random bytes: node:crypto would load a module the CLI's start does not need. */
function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}

export function writeOutputFile(path: string, contents: string | Uint8Array, options: OutputOptions = {}): { replaced: boolean } {
  const replace = options.replace ?? true;
  const { dir, name } = splitPath(path);
  if (name === "" || name === "." || name === "..") throw new TuiwrightError("io", `cannot write ${path}: it names a directory, not a file`);
  const before = lstatOrNull(path);
  if (before) checkExisting(path, before, replace);

  // A name of our own beside the target (same directory: link and rename stay on one file system).
  const temp = `${dir}/.${name.slice(0, 200)}.${randomHex(6)}.tmp`;
  let fd: number;
  try {
    const constants = fsConstants();
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, options.mode ?? 0o600);
  } catch (error) {
    throw ioError(path, dir, error);
  }
  try {
    try {
      writeAll(fd, typeof contents === "string" ? Buffer.from(contents) : contents);
    } finally {
      closeSync(fd);
    }
    return { replaced: place(temp, path, replace) };
  } catch (error) {
    throw error instanceof TuiwrightError ? error : ioError(path, dir, error);
  } finally {
    try {
      unlinkSync(temp);
    } catch { /* renamed into place */ }
  }
}

/** Gives the finished temporary file the target's name; true if it replaced a file of ours. */
function place(temp: string, path: string, replace: boolean): boolean {
  for (let attempt = 0; ; attempt++) {
    const existing = lstatOrNull(path);
    if (existing) {
      checkExisting(path, existing, replace);
      renameSync(temp, path);
      return true;
    }
    try {
      linkSync(temp, path); // fails with EEXIST if anything took the name meanwhile
      return false;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST" && attempt < 3) continue; // look at what took it, and decide again
      // A file system without hard links: rename, which at worst replaces a name someone created
      // this instant — it never writes into their file.
      if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS") {
        renameSync(temp, path);
        return false;
      }
      throw error;
    }
  }
}
