// Reading a file a user names (a cast, a snapshot file, stdin for `run`): only a regular file,
// and only up to a size cap. /dev/zero, a FIFO or a 10 GB file gets a clear error (exit 65)
// instead of hanging or eating memory. The FIFO check happens without blocking in open(2).
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { TuiwrightError, type ErrorName } from "../protocol/errors.ts";

const MiB = 1 << 20;

export function readBoundedFile(path: string, what: string, maxBytes: number, badName: ErrorName = "bad-data"): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new TuiwrightError("no-such-file", `cannot read ${what} ${JSON.stringify(path)}: no such file`);
    throw new TuiwrightError("io", `cannot read ${what} ${JSON.stringify(path)}: ${code ?? "error"}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new TuiwrightError(badName, `${what} ${JSON.stringify(path)} is not a regular file`, { hint: `give a ${what} file (not a device, FIFO or directory)` });
    if (stat.size > maxBytes) {
      throw new TuiwrightError(badName, `${what} ${JSON.stringify(path)} is ${stat.size} bytes, over the ${Math.round(maxBytes / MiB)} MiB limit`);
    }
    return readWhole(fd, stat.size);
  } finally {
    closeSync(fd);
  }
}

/** Up to `size` bytes of an open file from its start (fewer if it shrank meanwhile). */
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
