// Reading one user manifest safely: the adapters directory can hold anything (a FIFO that
// would block open(2) forever, a device, a huge file, a symlink to somebody else's file).
// Only a regular file of at most 1 MiB, owned by us (or root) and writable by nobody else,
// is read (the trusted reader's rules for code); everything else is an error that names the path.
import { readTrustedFile } from "../runtime/trusted-file.ts";

export const MAX_MANIFEST_BYTES = 1024 * 1024;

export function readUserManifest(path: string): string {
  return readTrustedFile(path, { what: "manifest", maxBytes: MAX_MANIFEST_BYTES, trusted: true, badName: "bad-manifest", say: (file, problem) => `${file}: ${problem}` }).toString("utf8");
}
