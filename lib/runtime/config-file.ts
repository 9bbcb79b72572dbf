// Where config.toml is: $TUIWRIGHT_CONFIG, else beside the user's adapters directory
// (~/.config/tuiwright/config.toml; the config directory is resolved by paths.ts).
import { userAdaptersDir } from "./paths.ts";

export function configFilePath(): string {
  if (process.env.TUIWRIGHT_CONFIG) return process.env.TUIWRIGHT_CONFIG;
  const adapters = userAdaptersDir();
  return `${adapters.slice(0, adapters.lastIndexOf("/")) || "/"}/config.toml`;
}
