// An app's file access (aotui.fs), checked on real paths: a symlink inside a granted folder that
// points outside it reads and writes nothing outside. The path is resolved before the check, and
// the file actually opened is checked again through /proc/self/fd (so a folder swapped for a
// symlink between the check and the open is caught too). Writes open without truncating, check,
// then truncate; a file with several hard links is refused (another name elsewhere may be the
// one meant). FIFOs and devices are refused (a read would block or never end); sizes are capped.
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { desktopError } from "./aotui-codes.ts";
import { allowsFile } from "./permissions.ts";

const READ_LIMIT = 64 * 1024 * 1024;

export type FileEntry = { name: string; dir: boolean; size: number };

function denied(action: "read" | "write", path: string, real?: string): Error {
  const where = real !== undefined && real !== resolve(path) ? ` (it is ${real})` : "";
  return desktopError("desktop-permission", `fs:${action} of ${path}${where} is not granted by this app's permissions`);
}

function failed(action: string, path: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === "ENOENT" ? "no such file or folder" : code === "ELOOP" ? "it is a symbolic link" : code === "EISDIR" ? "it is a folder" : code === "ENOTDIR" ? "not a folder" : (error as Error).message;
  return desktopError("app-refused", `cannot ${action} ${path}: ${why}`);
}

/** Where an open descriptor really is. */
function openedPath(fd: number): string {
  return readlinkSync(`/proc/self/fd/${fd}`);
}

/** The real path of `path`, or of its folder plus its name when it does not exist yet. */
function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return join(realpathSync(dirname(resolve(path))), basename(path));
  }
}

export class ConfinedFiles {
  readonly #permissions: readonly string[];
  readonly #appDir: string;

  constructor(permissions: readonly string[], appDir: string) {
    this.#permissions = permissions;
    this.#appDir = appDir;
  }

  #check(action: "read" | "write", path: string, real: string): void {
    if (!allowsFile(this.#permissions, action, real, this.#appDir)) throw denied(action, path, real);
  }

  /** Opens `path` after checking its real path, then checks what was opened. */
  #open(action: "read" | "write", path: string, flags: number): number {
    let real: string;
    try {
      real = realPathOf(path);
    } catch (error) {
      // A path whose folder does not resolve: say so only where it would be allowed.
      this.#check(action, path, resolve(path));
      throw failed(action, path, error);
    }
    this.#check(action, path, real);
    let fd: number;
    try {
      fd = openSync(path, flags | constants.O_NONBLOCK, 0o600);
    } catch (error) {
      throw failed(action, path, error);
    }
    try {
      this.#check(action, path, openedPath(fd));
      return fd;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  readText(path: string): string {
    const fd = this.#open("read", path, constants.O_RDONLY);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw desktopError("app-refused", `cannot read ${path}: not a regular file`);
      if (stat.size > READ_LIMIT) throw desktopError("app-refused", `cannot read ${path}: ${stat.size} bytes is over the ${READ_LIMIT}-byte limit`);
      return readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  }

  list(path: string): FileEntry[] {
    const fd = this.#open("read", path, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      const dir = `/proc/self/fd/${fd}`;
      return readdirSync(dir, { withFileTypes: true }).map((entry) => {
        let size = 0;
        // lstat: a symlink's own size, never that of what it points at (maybe outside the grant).
        try { size = entry.isFile() ? lstatSync(`${dir}/${entry.name}`).size : 0; } catch { /* vanished */ }
        return { name: entry.name, dir: entry.isDirectory(), size };
      }).sort((a, b) => a.name.localeCompare(b.name));
    } finally {
      closeSync(fd);
    }
  }

  writeText(path: string, text: string): void {
    // No O_TRUNC: nothing changes before the opened file is checked. O_NOFOLLOW: never through a
    // symlink as the file itself.
    const fd = this.#open("write", path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw desktopError("app-refused", `cannot write ${path}: not a regular file`);
      if (stat.nlink > 1) throw desktopError("desktop-permission", `fs:write of ${path} is refused: the file has ${stat.nlink} names (hard links), so it may be a file outside this app's folders`);
      ftruncateSync(fd, 0);
      const bytes = Buffer.from(text, "utf8");
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
    } finally {
      closeSync(fd);
    }
  }
}
