// Where tuiwright keeps its socket, state, config and data, from the environment. State,
// config and data are never put in a shared directory: an XDG variable (absolute paths only,
// as the XDG spec says), else $HOME, else the passwd entry's home. With none of those the
// caller gets a permission error telling it what to set. (No node:path here: this runs on
// every CLI start; node:os is loaded only when HOME is unset.)
import { lstatSync } from "./node-fs.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import { setting } from "./settings.ts";

const TMP = () => process.env.TMPDIR || "/tmp";

export function uid(): number {
  return process.getuid?.() ?? 0;
}

export function namespaceFromEnv(flag: string | undefined): string {
  return flag ?? setting("namespace") ?? "default";
}

/** The socket may live under the temp directory: its directory is created 0700 and verified.
 * That name is guessable: if another user made it first (anything there that is not ours),
 * the socket lives in our own state directory instead — client and daemon decide alike. */
export function defaultSocketPath(namespace: string): string {
  const explicit = setting("socket");
  if (explicit) return explicit;
  const runtimeDir = absolute(process.env.XDG_RUNTIME_DIR);
  if (runtimeDir) return `${runtimeDir}/tuiwright/${namespace}.sock`;
  const shared = `${TMP()}/tuiwright-${uid()}`;
  if (!plantedByOthers(shared)) return `${shared}/${namespace}.sock`;
  return `${under("XDG_STATE_HOME", ".local/state", "tuiwright/run").path}/${namespace}.sock`;
}

/** Something at `path` that we did not make: another user's entry, or not a directory. (Ours
 * but too open is left to the socket check, which says so: that is the user's to fix.) */
function plantedByOthers(path: string): boolean {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return false;
  }
  return stat.uid !== uid() || !stat.isDirectory();
}

function absolute(value: string | undefined): string | null {
  return value && value.startsWith("/") ? value.replace(/\/+$/, "") || "/" : null;
}

/** $HOME, else the home directory in the passwd entry of our uid (cron, `env -i`). */
export function homeDir(): string {
  const fromEnv = absolute(process.env.HOME);
  if (fromEnv) return fromEnv;
  let fromPasswd: string | null = null;
  try {
    // Bun's userInfo() reads the passwd entry (getpwuid) when HOME is unset.
    const { userInfo } = require("node:os") as typeof import("node:os");
    fromPasswd = absolute(userInfo().homedir);
  } catch { /* no passwd entry for this uid */ }
  if (fromPasswd && fromPasswd !== "/") return fromPasswd;
  throw new TuiwrightError("permission", `no home directory for uid ${uid()}: HOME is unset and the passwd entry has none`, {
    hint: "set HOME or XDG_STATE_HOME / XDG_CONFIG_HOME / XDG_DATA_HOME to a directory only you can write",
  });
}

/** A trusted root and the path under it that tuiwright owns (created 0700, verified). */
export type OwnedPath = { base: string; path: string };

function under(xdgVariable: string, homeRelative: string, rest: string): OwnedPath {
  const xdg = absolute(process.env[xdgVariable]);
  if (xdg) return { base: xdg, path: `${xdg}/${rest}` };
  const home = homeDir();
  return { base: home, path: `${home}/${homeRelative}/${rest}` };
}

export function stateLocation(namespace: string): OwnedPath {
  return under("XDG_STATE_HOME", ".local/state", `tuiwright/${namespace}`);
}

export function stateDir(namespace: string): string {
  return stateLocation(namespace).path;
}

/** Where user manifests live; they override built-ins of the same name. */
export function userAdaptersLocation(): OwnedPath {
  const explicit = setting("adaptersDir");
  if (explicit) return { base: explicit, path: explicit };
  return under("XDG_CONFIG_HOME", ".config", "tuiwright/adapters");
}

/** tuiwright's own config directory (config.toml; adapters/ below it unless named elsewhere). */
export function configLocation(): OwnedPath {
  return under("XDG_CONFIG_HOME", ".config", "tuiwright");
}

export function userAdaptersDir(): string {
  return userAdaptersLocation().path;
}

/** Where `tuiwright` finds helpers the user installed for it (the Carbonyl browser). */
export function dataLocation(): OwnedPath {
  return under("XDG_DATA_HOME", ".local/share", "tuiwright");
}

export function dataDir(): string {
  return dataLocation().path;
}
