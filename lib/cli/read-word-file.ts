// A file named on the command line, read by the CLI (the daemon may not see the caller's cwd):
// relative to the caller's cwd; unreadable is no-such-file (66) naming the path.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";

export function readWordFile(cwd: string, word: string): { path: string; text: string } {
  const path = resolve(cwd, word);
  try {
    return { path, text: readFileSync(path, "utf8") };
  } catch {
    throw new TuiwrightError("no-such-file", `cannot read ${JSON.stringify(path)}`);
  }
}
