// Writing a file the user named (`snapshot --out`, `--save`, `report -o`): never through a
// symlink, which in a shared directory could point anywhere (O_NOFOLLOW on the last
// component; an existing regular file is replaced as before).
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { TuiwrightError } from "../protocol/errors.ts";

export function writeFileNoFollow(path: string, contents: string | Uint8Array): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o666);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ELOOP") {
      throw new TuiwrightError("io", `refusing to write ${path}: it is a symbolic link`, { hint: "write to a regular file path (remove the link, or give its target)" });
    }
    throw new TuiwrightError("io", `cannot write ${path}: ${code ?? (error as Error).message}`);
  }
  try {
    const bytes = typeof contents === "string" ? Buffer.from(contents) : contents;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
  } catch (error) {
    throw new TuiwrightError("io", `cannot write ${path}: ${(error as { code?: string }).code ?? (error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** Exactly these bytes to standard output (`--out -`). */
export async function writeStdoutBytes(contents: string | Uint8Array): Promise<void> {
  await Bun.write(Bun.stdout, contents);
}
