// A file named on the command line, read by the CLI (the daemon may not see the caller's cwd):
// relative to the caller's cwd, through the trusted reader — a regular file (a FIFO is refused,
// never waited on), at most the 1 MiB a request may carry; with `trusted`, also ours and
// writable by nobody else (a desktop state names the app folders whose code it runs).
import { resolve } from "node:path";
import { readTrustedFile } from "../runtime/trusted-file.ts";
import { MAX_FRAME_BYTES } from "../transport/ndjson.ts";

export function readWordFile(cwd: string, word: string, rules: { what: string; trusted?: boolean } = { what: "file" }): { path: string; text: string } {
  const path = resolve(cwd, word);
  const text = readTrustedFile(path, { what: rules.what, trusted: rules.trusted, maxBytes: MAX_FRAME_BYTES, say: (file, problem) => `cannot read ${JSON.stringify(file)}: the ${rules.what} ${problem}` }).toString("utf8");
  return { path, text };
}
