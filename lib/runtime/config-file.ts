// config.toml: $TUIWRIGHT_CONFIG, else in tuiwright's config directory
// (~/.config/tuiwright/config.toml). Read like a manifest: only from a directory that is ours
// alone, only a regular file (a FIFO never blocks the daemon at start), at most 1 MiB.
import { readTrustedFile } from "./trusted-file.ts";
import { ownedDirExists } from "./owned-dir.ts";
import { configLocation } from "./paths.ts";
import { setting } from "./settings.ts";

const MAX_CONFIG_BYTES = 1 << 20;

export function configFilePath(): string {
  const explicit = setting("config");
  if (explicit) return explicit;
  return `${configLocation().path}/config.toml`;
}

/** The config file's text, or null when there is none. */
export function readConfigFile(path: string): string | null {
  if (!setting("config") && !ownedDirExists(configLocation(), "config directory")) return null;
  try {
    return readTrustedFile(path, { what: "config file", maxBytes: MAX_CONFIG_BYTES }).toString("utf8");
  } catch (error) {
    if ((error as { errorName?: string }).errorName === "no-such-file") return null;
    throw error;
  }
}
