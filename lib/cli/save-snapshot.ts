// `snapshot --out FILE` (`--save FILE` is in save-snapshot-file.ts, loaded only when asked for).
import { writeOutputFile } from "../runtime/output-file.ts";
import { writeRaw } from "../runtime/stdio.ts";
import type { OutputMode } from "./verbs.ts";
import type { Result } from "../protocol/methods.ts";

/** `snapshot --out FILE`: the image (or text) written to a file (`-`: standard output, and
 * nothing else is printed); says what was written. */
export async function writeSnapshotOut(file: string, result: Result<"snapshot">, mode: OutputMode): Promise<string> {
  let contents: string | Uint8Array;
  if (result.png !== undefined) contents = Buffer.from(result.png, "base64");
  else contents = result.svg ?? result.text ?? result.ansi ?? JSON.stringify(result.cells ?? result.outline ?? null);
  if (file === "-") {
    await writeRaw("stdout", contents);
    return "";
  }
  writeOutputFile(file, contents);
  return mode === "json" ? JSON.stringify({ written: file, bytes: contents.length, format: result.format, revision: result.revision }) : mode === "plain" ? file : `wrote ${result.format} of ${result.session} (revision ${result.revision}) to ${file}`;
}
