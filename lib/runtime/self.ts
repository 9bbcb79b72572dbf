// How this program refers to itself: the command that re-runs it (to start the daemon) and
// where the session worker's entry point is, both in the compiled binary and from source.
// The one place the version lives: `bun run release --version X` stamps package.json.
import packageJson from "../../package.json" with { type: "json" };

declare const TUIWRIGHT_BUILD_ID: string | undefined;

const PACKAGE_VERSION: string = packageJson.version;

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
  return [process.execPath, Bun.fileURLToPath(new URL("../../main.ts", import.meta.url))];
}

/** A separate entry point (a worker, the daemon) by its path from the project root. In the
 * binary each is its own bundle in the embedded filesystem; a non-literal specifier keeps the
 * bundler from inlining it into the caller. */
export function entryPoint(path: string): string {
  if (isCompiled()) return `./${path}`;
  return new URL(`../../${path}`, import.meta.url).href;
}

export function sessionWorkerUrl(): string {
  return entryPoint("workers/session.ts");
}

export function appWorkerUrl(): string {
  return entryPoint("workers/app.ts");
}
