// How this program refers to itself: the command that re-runs it (to start the daemon) and
// where the session worker's entry point is, both in the compiled binary and from source.
import { fileURLToPath } from "node:url";

declare const TUIWRIGHT_BUILD_ID: string | undefined;

const PACKAGE_VERSION = "0.1.0";

export function isCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs/");
}

/** Version plus build id: a rebuilt binary never silently talks to an old daemon. */
export function version(): string {
  const build = typeof TUIWRIGHT_BUILD_ID === "string" ? TUIWRIGHT_BUILD_ID : "dev";
  return `${PACKAGE_VERSION}+${build}`;
}

export function selfCommand(): string[] {
  if (isCompiled()) return [process.execPath];
  return [process.execPath, fileURLToPath(new URL("../../main.ts", import.meta.url))];
}

export function sessionWorkerUrl(): string {
  // In the binary every worker is its own entry point, resolved inside the embedded filesystem.
  if (isCompiled()) return "./workers/session.ts";
  return new URL("../../workers/session.ts", import.meta.url).href;
}
