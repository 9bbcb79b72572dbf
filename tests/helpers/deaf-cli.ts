// A stand-in AI CLI that ignores its first N Enters (N from argv[1]; argv[2]: seconds it thinks
// before each answer), and its manifest: how
// `turn` and the raw recipe (press Enter, wait --ref @deaf.done) meet an Enter the CLI did not
// take (tests/e2e/turn-enter-not-taken.test.ts, raw-enter-not-taken.test.ts).
import type { World } from "./harness.ts";
import { installStandInCli, standInManifest, standInScript } from "./stand-in-cli.ts";

const MANIFEST = standInManifest("deaf", "a stand-in AI CLI that ignores its first Enters");

const CLI = standInScript(`    if ignore > 0:
        ignore -= 1
        continue
    history += ["you: " + typed]
    prompt, typed = typed, ""
    draw()
    time.sleep(thinking)
    history += ["answer to " + prompt, "END"]
    draw()
`, {
  imports: ["time"],
  // A slow model: seconds between taking a prompt (the input cleared) and its answer.
  setup: "ignore = int(sys.argv[1])\nthinking = float(sys.argv[2]) if len(sys.argv) > 2 else 0\n",
});

/** Installs the manifest and the CLI in the world's dir; the env to run tuiwright with and the
 * CLI's path. */
export function installDeafCli(world: World): { env: Record<string, string>; cli: string } {
  return installStandInCli(world, "deaf", MANIFEST, CLI);
}
