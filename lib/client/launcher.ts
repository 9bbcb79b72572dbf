// The npm package's `tuiwright` command (npx tuiwright, bunx tuiwright): runs the platform
// package's binary with the same arguments, stdio and exit status. Node APIs only.
import { spawnSync } from "node:child_process";
import { binaryPath, platformName } from "./binary-path.ts";
import { setting } from "../runtime/settings.ts";

const binary = binaryPath();
const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  const missing = (result.error as NodeJS.ErrnoException).code === "ENOENT";
  process.stderr.write(missing && setting("bin")
    ? `tuiwright: TUIWRIGHT_BIN is ${JSON.stringify(binary)}, which does not exist\nhint: point it at a tuiwright executable, or unset it to use the packaged one\n`
    : missing
    ? `tuiwright: no binary for ${platformName() ?? `${process.platform}-${process.arch}`}: the package @tuiwright/${platformName() ?? "<platform>"} was not installed.\n` +
      "hint: reinstall without --no-optional (npm install tuiwright), or use the installer: curl -fsSL https://github.com/tuiwright/tuiwright/releases/latest/download/install.sh | sh\n"
    : `tuiwright: could not run ${binary}: ${result.error.message}\n`);
  process.exit(69);
}
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 1);
