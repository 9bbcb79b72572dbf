// Where tuiwright keeps its socket and state, from the environment. (No node:os/node:path:
// this runs on every CLI start.)

const TMP = () => process.env.TMPDIR || "/tmp";

export function uid(): number {
  return process.getuid?.() ?? 0;
}

export function namespaceFromEnv(flag: string | undefined): string {
  return flag ?? process.env.TUIWRIGHT_NS ?? "default";
}

export function defaultSocketPath(namespace: string): string {
  if (process.env.TUIWRIGHT_SOCKET) return process.env.TUIWRIGHT_SOCKET;
  const runtimeDir = process.env.XDG_RUNTIME_DIR;
  if (runtimeDir) return `${runtimeDir}/tuiwright/${namespace}.sock`;
  return `${TMP()}/tuiwright-${uid()}/${namespace}.sock`;
}

export function stateDir(namespace: string): string {
  const base = process.env.XDG_STATE_HOME || `${process.env.HOME || TMP()}/.local/state`;
  return `${base}/tuiwright/${namespace}`;
}

/** Where user manifests live; they override built-ins of the same name. */
export function userAdaptersDir(): string {
  if (process.env.TUIWRIGHT_ADAPTERS_DIR) return process.env.TUIWRIGHT_ADAPTERS_DIR;
  const config = process.env.XDG_CONFIG_HOME || `${process.env.HOME || TMP()}/.config`;
  return `${config}/tuiwright/adapters`;
}

/** Where `tuiwright` installs helpers it downloads (the Carbonyl browser). */
export function dataDir(): string {
  const base = process.env.XDG_DATA_HOME || `${process.env.HOME || TMP()}/.local/share`;
  return `${base}/tuiwright`;
}
