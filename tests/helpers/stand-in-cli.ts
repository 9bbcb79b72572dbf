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
