// Where the tuiwright executable is, for the npm package (its `tuiwright` command and its
// library): $TUIWRIGHT_BIN, else the per-platform package npm installed beside this one
// (@tuiwright/linux-x64, …-musl, darwin-arm64, …), else `tuiwright` on PATH.
// Node APIs only, so it runs unchanged on Node, Deno and Bun.
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { setting } from "../runtime/settings.ts";

/** The platform package's name part for this machine, or null where none is built. */
export function platformName(): string | null {
  const os = process.platform === "linux" ? "linux" : process.platform === "darwin" ? "darwin" : null;
  const cpu = process.arch === "x64" ? "x64" : process.arch === "arm64" ? "arm64" : null;
  if (!os || !cpu) return null;
  return `${os}-${cpu}${os === "linux" && isMusl() ? "-musl" : ""}`;
}

/** Node and Bun report the glibc they run on; without that report (or with no glibc in it),
 * musl's loader /lib/ld-musl-<arch>.so.1 decides. (A glibc system may carry musl's loader too.) */
function isMusl(): boolean {
  try {
    const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
    if (header?.glibcVersionRuntime) return false;
  } catch {
    // no process.report here
  }
  try {
    return readdirSync("/lib").some((name) => name.startsWith("ld-musl-"));
  } catch {
    return false;
  }
}

/** An absolute path, or the bare name `tuiwright` to look up on PATH. */
export function binaryPath(): string {
  const fromEnv = setting("bin");
  if (fromEnv) return fromEnv;
  const platform = platformName();
  if (platform) {
    try {
      const manifest = createRequire(import.meta.url).resolve(`@tuiwright/${platform}/package.json`);
      const bin = join(dirname(manifest), "bin", "tuiwright");
      if (existsSync(bin)) return bin;
    } catch {
      // not installed (another platform, or --no-optional): fall back to PATH
    }
  }
  return "tuiwright";
}
