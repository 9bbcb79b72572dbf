// A stand-in program and its manifest, installed in a world's directory: the manifest as a user
// manifest (under XDG_CONFIG_HOME), the program as an executable under bin/.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { World } from "./harness.ts";

/** Installs `manifest` as NAME.toml and `script` as bin/NAME; the env to run tuiwright with and
 * the program's path. */
export function installStandInCli(world: World, name: string, manifest: string, script: string): { env: Record<string, string>; cli: string } {
  const config = join(world.dir, "config");
  mkdirSync(join(config, "tuiwright/adapters"), { recursive: true, mode: 0o700 });
  writeFileSync(join(config, `tuiwright/adapters/${name}.toml`), manifest);
  const bin = join(world.dir, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, name), script);
  chmodSync(join(bin, name), 0o755);
  return { env: { XDG_CONFIG_HOME: config }, cli: join(bin, name) };
}

/**
 * The manifest of a stand-in AI CLI that draws its history, then "> " and what is typed: the
 * answer is the rows after "you: " down to its end line (`endLine`, a regex source for the whole
 * row), and with `busy` a "working" row is @NAME.busy.
 */
export function standInManifest(name: string, description: string, { endLine = "END", busy = false } = {}): string {
  const region = (regionName: string, role: string, range: string) => `[[regions]]\nname = "${regionName}"\nrole = "${role}"\n${range}\n`;
  return [
    `name = "${name}"\nroot = "${name}"\ndescription = "${description}"\nturns = true\n`,
    `[detect]\nargv0 = ["${name}"]\nconfidence = 0.9\n`,
    region("input", "input", "last = true\nfrom = '/^>/'\nuntil = '/^>/'"),
    ...(busy ? [region("busy", "status", "from = '/^working/'\nuntil = '/^working/'")] : []),
    region("response", "document", `last = true\nafter = '/^you: /'\nuntil = '/^${endLine}$/'`),
    region("done", "status", `last = true\nafter = '/^you: /'\nuntil = '/^${endLine}$/'`),
    `[[values]]\nregion = "response"\nregex = '/^\\s*(?<value>[\\s\\S]*?)\\s*\\n\\s*${endLine}$/'\n`,
    `[[values]]\nregion = "input"\nregex = '/^> ?(?<value>.*?)\\s*$/'\n`,
  ].join("\n");
}

/**
 * A stand-in AI CLI's script (Python): raw keys, its history, then "> " and what is typed, all
 * redrawn on each key; Ctrl-C ends it. `onEnter` is the body run when Enter is pressed (Python at
 * the loop's indent of 4 spaces; `typed` holds the prompt, `draw(extra)` redraws with rows under
 * the input); `setup` runs before the first draw.
 */
export function standInScript(onEnter: string, { imports = [] as string[], setup = "" } = {}): string {
  return `#!/usr/bin/env python3
import ${["os", ...imports, "sys", "tty"].join(", ")}
tty.setraw(0)
${setup}history, typed = [], ""
def draw(extra=()):
    os.write(1, ("\\x1b[H\\x1b[2J" + "\\r\\n".join([*history, "> " + typed, *extra])).encode())
draw()
while True:
    key = os.read(0, 1).decode()
    if key == "\\x03":
        break
    if key != "\\r":
        typed += key
        draw()
        continue
${onEnter}`;
}
