// Reading one user manifest safely: the adapters directory can hold anything (a FIFO that
// would block open(2) forever, a device, a huge file, a symlink to somebody else's file).
// Only a regular file of at most 1 MiB, owned by us (or root) and writable by nobody else,
// is read; everything else is an error that names the path.
import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { TuiwrightError } from "../protocol/errors.ts";
import { readWhole } from "../runtime/bounded-file.ts";
import { uid } from "../runtime/paths.ts";

export const MAX_MANIFEST_BYTES = 1024 * 1024;

function bad(path: string, why: string): TuiwrightError {
  return new TuiwrightError("bad-manifest", `${path}: ${why}`);
}

export function readUserManifest(path: string): string {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw bad(path, code === "ELOOP" ? "a symlink loop" : code === "ENOENT" ? "a dangling symlink" : `cannot open (${code ?? (error as Error).message})`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw bad(path, "is a directory, not a manifest file");
    if (!stat.isFile()) throw bad(path, "is not a regular file (a FIFO, socket or device is never read)");
    if (stat.uid !== uid() && stat.uid !== 0) throw bad(path, `owned by uid ${stat.uid}, not ${uid()}: refusing another user's manifest`);
    if ((stat.mode & 0o022) !== 0) throw bad(path, `mode ${(stat.mode & 0o777).toString(8)} lets others write to it (chmod go-w)`);
    if (stat.size > MAX_MANIFEST_BYTES) throw bad(path, `${stat.size} bytes is over the ${MAX_MANIFEST_BYTES}-byte limit for a manifest`);
    return readWhole(fd, stat.size).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
