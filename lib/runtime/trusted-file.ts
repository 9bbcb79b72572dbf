// The one way tuiwright reads a file it was pointed at: casts, snapshot files, stdin for `run`,
// config, manifests (user manifests and `adapter check` input), desktop states, and the app
// folders a desktop runs. Every such file is only read if it is a regular file — opened with
// O_NONBLOCK, so a FIFO is refused instead of blocking open(2) for good — and only up to a size
// cap, so /dev/zero or a 10 GB file is an error naming the path, not gigabytes of memory.
// Code, and files that say which code runs (`trusted`), must also be ours (or root's) and
// writable by nobody else: another local user must not get code run as us.
import type { Stats } from "node:fs";
import { closeSync, fsConstants, fstatSync, openSync, readSync } from "./node-fs.ts";
import { TuiwrightError, type ErrorName } from "../protocol/errors.ts";
import { uid } from "./paths.ts";

export type ReadRules = {
  /** What the file is, for messages: "cast", "manifest", "app file". */
  what: string;
  maxBytes: number;
  /** Code, or a file that names code to run: ours (or root's) and writable by nobody else. */
  trusted?: boolean;
  /** The error for a file that is not a regular file or is too big (default bad-data). */
  badName?: ErrorName;
  /** How a problem is worded; default `WHAT "PATH" PROBLEM`. */
  say?: (path: string, problem: string) => string;
};

const sayDefault = (rules: ReadRules) => (path: string, problem: string) => `${rules.what} ${JSON.stringify(path)} ${problem}`;

/** Opens the file and checks it by the rules: the open fd and its stat; the caller closes it. */
export function openTrustedFile(path: string, rules: ReadRules): { fd: number; stat: Stats } {
  const say = rules.say ?? sayDefault(rules);
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer.
    const constants = fsConstants();
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new TuiwrightError("no-such-file", say(path, "does not exist (no such file)"));
    if (code === "ELOOP") throw new TuiwrightError(rules.badName ?? "bad-data", say(path, "is a symlink loop"));
    if (code === "EACCES" || code === "EPERM") throw new TuiwrightError("permission", say(path, "cannot be read: permission denied"));
    throw new TuiwrightError("io", say(path, `cannot be read (${code ?? (error as Error).message})`));
  }
  try {
    const stat = fstatSync(fd);
    const bad = (problem: string, name: ErrorName = rules.badName ?? "bad-data", hint?: string) => new TuiwrightError(name, say(path, problem), hint ? { hint } : {});
    if (stat.isDirectory()) throw bad(`is a directory, not a ${rules.what} file`);
    if (!stat.isFile()) throw bad("is not a regular file (a FIFO, socket or device is never read)", undefined, `give a ${rules.what} file (not a device, FIFO or directory)`);
    if (rules.trusted) {
      const hint = `it runs as you: it must be owned by you (or root) and writable only by its owner (chown, chmod go-w)`;
      if (stat.uid !== uid() && stat.uid !== 0) throw bad(`is owned by uid ${stat.uid}, not ${uid()}: refusing another user's ${rules.what}`, "permission", hint);
      if ((stat.mode & 0o022) !== 0) throw bad(`has mode ${(stat.mode & 0o777).toString(8)}, which lets others write to it (chmod go-w)`, "permission", hint);
    }
    if (stat.size > rules.maxBytes) throw bad(`is too big: ${stat.size} bytes is over the ${rules.maxBytes}-byte limit`);
    return { fd, stat };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The whole file, checked by the rules. */
export function readTrustedFile(path: string, rules: ReadRules): Buffer {
  const { fd, stat } = openTrustedFile(path, rules);
  try {
    return readWhole(fd, stat.size);
  } finally {
    closeSync(fd);
  }
}

/** Up to `size` bytes of an open file from its start (fewer if it shrank meanwhile; never more,
 * however much it grew since it was measured). */
export function readWhole(fd: number, size: number): Buffer {
  const buffer = Buffer.alloc(size);
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}
