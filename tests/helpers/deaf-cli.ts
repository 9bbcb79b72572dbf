// A stand-in AI CLI that ignores its first N Enters (N from argv[1]; argv[2]: seconds it thinks
// before each answer), and its manifest: how
// `turn` and the raw recipe (press Enter, wait --ref @deaf.done) meet an Enter the CLI did not
// take (tests/e2e/turn-enter-not-taken.test.ts, raw-enter-not-taken.test.ts).
import type { World } from "./harness.ts";
import { installStandInCli, standInManifest } from "./stand-in-cli.ts";

const MANIFEST = standInManifest("deaf", "a stand-in AI CLI that ignores its first Enters");

const CLI = `#!/usr/bin/env python3
import os, sys, time, tty
tty.setraw(0)
ignore = int(sys.argv[1])
# A slow model: seconds between taking a prompt (the input cleared) and its answer.
thinking = float(sys.argv[2]) if len(sys.argv) > 2 else 0
history, typed = [], ""
def draw():
    os.write(1, ("\\x1b[H\\x1b[2J" + "\\r\\n".join([*history, "> " + typed])).encode())
draw()
while True:
    key = os.read(0, 1).decode()
    if key == "\\x03":
        break
    if key != "\\r":
        typed += key
        draw()
        continue
    if ignore > 0:
        ignore -= 1
        continue
    history += ["you: " + typed]
    prompt, typed = typed, ""
    draw()
    time.sleep(thinking)
    history += ["answer to " + prompt, "END"]
    draw()
`;

/** Installs the manifest and the CLI in the world's dir; the env to run tuiwright with and the
 * CLI's path. */
export function installDeafCli(world: World): { env: Record<string, string>; cli: string } {
  return installStandInCli(world, "deaf", MANIFEST, CLI);
}
