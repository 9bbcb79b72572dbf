// Finding the Carbonyl browser (Chromium rendered into terminal cells): $CARBONYL, then PATH,
// then the npm package installed beside tuiwright (an optional dependency), then the one the
// install hint puts under the data directory.
import { accessSync, constants } from "node:fs";
import { fileURLToPath } from "node:url";
import { TuiwrightError } from "../protocol/errors.ts";
import { dataDir } from "../runtime/paths.ts";
import { isCompiled } from "../runtime/self.ts";

/** The npm package that carries this platform's binary. */
export function carbonylPackage(): string {
  const os = process.platform === "darwin" ? "macos" : "linux";
  const cpu = process.arch === "arm64" ? "arm64" : "amd64";
  return `@fathyb/carbonyl-${os}-${cpu}`;
}

export function installCommand(): string {
  return `npm install --prefix ${dataDir()}/carbonyl ${carbonylPackage()}`;
}

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** node_modules directories a bundled install could be in: beside the binary's project or the source tree. */
function packageRoots(): string[] {
  const project = isCompiled() ? `${process.execPath.slice(0, process.execPath.lastIndexOf("/"))}/..` : fileURLToPath(new URL("../..", import.meta.url));
  return [`${project}/node_modules`, `${dataDir()}/carbonyl/node_modules`];
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
  const tried = packageRoots().map((root) => `${root}/${carbonylPackage()}/build/carbonyl`);
  const found = tried.find(executable);
  if (found) return found;
  throw new TuiwrightError("no-browser", `Carbonyl is not installed (looked at $CARBONYL, PATH and ${tried.join(", ")})`, {
    hint: `install it: ${installCommand()}, or set CARBONYL=/path/to/carbonyl`,
  });
}

/** How to start it: Chromium refuses to run as root inside its sandbox. */
export function carbonylArgv(binary: string, url: string): string[] {
  return [binary, ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []), url];
}
