// execve(2) takes C strings: a NUL inside an argument or environment entry cannot be passed
// (Bun reports it as an I/O error). It is bad data from the caller, refused before spawning.
import { TuiwrightError } from "../protocol/errors.ts";

export function refuseNul(argv: readonly string[], env: Record<string, string> | undefined, cwd?: string): void {
  const bad = (text: string) => text.includes("\0");
  const at = argv.findIndex(bad);
  if (at >= 0) throw new TuiwrightError("bad-data", `argument ${at} (${JSON.stringify(argv[at])}) contains a NUL byte, which no program can receive`);
  for (const [key, value] of Object.entries(env ?? {})) {
    if (bad(key) || bad(value)) throw new TuiwrightError("bad-data", `environment variable ${JSON.stringify(key)} contains a NUL byte, which no program can receive`);
  }
  if (cwd !== undefined && bad(cwd)) throw new TuiwrightError("bad-data", `the working directory ${JSON.stringify(cwd)} contains a NUL byte`);
}
