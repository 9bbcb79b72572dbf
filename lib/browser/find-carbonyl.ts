// Finding the Carbonyl browser (Chromium rendered into terminal cells): $CARBONYL, then PATH,
// then the npm package the install hint puts under our own data directory — and only if that
// directory verifies as ours alone. Never a path relative to the binary or under a shared
// directory: whoever can write there could make us run their program.
import { accessSync, constants } from "node:fs";
import { TuiwrightError } from "../protocol/errors.ts";
import { ownedDirExists } from "../runtime/owned-dir.ts";
import { dataDir, dataLocation } from "../runtime/paths.ts";

/** The npm package that carries this platform's binary. */
export function carbonylPackage(): string {
  const os = process.platform === "darwin" ? "macos" : "linux";
  const cpu = process.arch === "arm64" ? "arm64" : "amd64";
  return `@fathyb/carbonyl-${os}-${cpu}`;
}

export function installCommand(): string {
  let dir = "~/.local/share/tuiwright";
  try { dir = dataDir(); } catch { /* no home: show the usual place */ }
  return `npm install --prefix ${dir}/carbonyl ${carbonylPackage()}`;
}

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The data directory's install, when every directory down to the package's is ours alone. */
function dataDirInstall(): { path: string; trusted: boolean } {
  let location;
  try {
    location = dataLocation();
  } catch {
    return { path: "~/.local/share/tuiwright/carbonyl (no home directory)", trusted: false };
  }
  const packageDir = `${location.path}/carbonyl/node_modules/${carbonylPackage()}/build`;
  let trusted = false;
  try {
    trusted = ownedDirExists({ base: location.base, path: packageDir }, "Carbonyl directory");
  } catch (error) {
    throw new TuiwrightError("permission", `${(error as Error).message}; refusing to run a browser from it`);
  }
  return { path: `${packageDir}/carbonyl`, trusted };
}

/** The carbonyl executable for a session started with this environment. */
export function findCarbonyl(env: Record<string, string | undefined>): string {
  const chosen = env.CARBONYL;
  if (chosen) {
    if (executable(chosen)) return chosen;
    throw new TuiwrightError("no-browser", `CARBONYL=${chosen} is not an executable file`);
  }
  const onPath = Bun.which("carbonyl", { PATH: env.PATH ?? "" });
  if (onPath) return onPath;
  const installed = dataDirInstall();
  if (installed.trusted && executable(installed.path)) return installed.path;
  throw new TuiwrightError("no-browser", `Carbonyl is not installed (looked at $CARBONYL, PATH and ${installed.path})`, {
    hint: `install it: ${installCommand()}, or set CARBONYL=/path/to/carbonyl`,
  });
}

/** How to start it: Chromium refuses to run as root inside its sandbox. */
export function carbonylArgv(binary: string, url: string): string[] {
  return [binary, ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []), url];
}
