// Every TUIWRIGHT_* environment variable, and the few other tools' conventions that change what
// tuiwright does (CI), in one table: its name, the flag that overrides it,
// the config.toml key it overrides, its default, how its text is parsed and what it is for.
// Code reads a variable only through `setting(key)`, so a bad value is the same clear usage
// error (exit 64) wherever it is read. `tuiwright doctor` prints the table with the values in
// force, and docs/settings.md is generated from it (`bun scripts/gen-settings-doc.ts`).
//
// Audience: "user" settings are for people and scripts; "test" knobs exist so tests need not
// wait for production timeouts (a user has no reason to set them); "internal" variables are
// set by tuiwright itself in the programs it runs and read there, never by tuiwright;
// "ambient" variables are other tools' conventions (CI=true from CI services), read as they
// mean them and never refused: a value we do not recognise is off, not a usage error.
// This file is plain data (no Bun, no valibot): the thin CLI and the npm launcher import it.
import { TuiwrightError } from "../protocol/errors.ts";

type Environment = Record<string, string | undefined>;

export type Audience = "user" | "test" | "internal" | "ambient";

export type Setting<T> = {
  env: string;
  audience: Audience;
  /** The flag that wins over the variable, where there is one. */
  flag?: string;
  /** The config.toml key the variable wins over. */
  configKey?: string;
  /** The value when unset, as the docs say it. */
  defaultText: string;
  doc: string;
  /** Text → value; throws a usage error naming the variable. Never called on "" (= unset). */
  parse: (text: string, env: string) => T;
};

const TIMER_LIMIT_MS = 2 ** 31 - 1;

const text = (value: string) => value;

const absolutePath = (value: string, env: string) => {
  if (!value.startsWith("/")) throw new TuiwrightError("usage", `${env} must be an absolute path, got ${JSON.stringify(value)}`);
  return value;
};

/** A whole number least..most (a count, or milliseconds); `says` is that in words. */
const wholeNumber = (least: number, most: number, says: string, example: string) => (value: string, env: string) => {
  if (!/^\d+$/.test(value) || Number(value) < least || Number(value) > most) {
    throw new TuiwrightError("usage", `${env} must be ${says}; got ${JSON.stringify(value)}`, { hint: `unset ${env} or set it to e.g. ${example}` });
  }
  return Number(value);
};
const count = (example: string) => wholeNumber(0, Number.MAX_SAFE_INTEGER, "a whole number ≥ 0", example);
const milliseconds = (least: number, example: string, zero = "") => wholeNumber(least, TIMER_LIMIT_MS, `${least}..${TIMER_LIMIT_MS} ms${zero}`, example);

/** "1" turns it on; anything else is off. */
const on = (value: string) => value === "1";

function define<T>(setting: Setting<T>): Setting<T> {
  return setting;
}

export const SETTINGS = {
  namespace: define({ env: "TUIWRIGHT_NS", audience: "user", flag: "--ns", defaultText: "default", parse: text, doc: "the namespace: its own daemon, socket, sessions and state directory" }),
  socket: define({ env: "TUIWRIGHT_SOCKET", audience: "user", defaultText: "$XDG_RUNTIME_DIR/tuiwright/NS.sock, else /tmp/tuiwright-UID/NS.sock", parse: text, doc: "the daemon's socket path (its directory must be yours, mode 0700)" }),
  session: define({ env: "TUIWRIGHT_SESSION", audience: "user", flag: "--session", defaultText: "none (the daemon picks the only session, if there is one)", parse: text, doc: "the session a verb acts on (spawn ignores it)" }),
  lease: define({ env: "TUIWRIGHT_LEASE", audience: "user", flag: "--lease", defaultText: "none", parse: text, doc: "a write-lease token passed with every request" }),
  config: define({ env: "TUIWRIGHT_CONFIG", audience: "user", defaultText: "$XDG_CONFIG_HOME/tuiwright/config.toml", parse: text, doc: "the config file (retention settings)" }),
  adaptersDir: define({ env: "TUIWRIGHT_ADAPTERS_DIR", audience: "user", defaultText: "$XDG_CONFIG_HOME/tuiwright/adapters", parse: absolutePath, doc: "the folder of user manifests (*.toml); they override built-ins of the same name" }),
  keep: define({ env: "TUIWRIGHT_KEEP", audience: "user", flag: "--keep", configKey: "retention.keep", defaultText: "1000", parse: count("100"), doc: "recordings kept per namespace (0: no limit)" }),
  keepDays: define({ env: "TUIWRIGHT_KEEP_DAYS", audience: "user", flag: "--keep-days", configKey: "retention.keep_days", defaultText: "30", parse: count("14"), doc: "days a recording is kept (0: no limit)" }),
  maxCastBytes: define({ env: "TUIWRIGHT_MAX_CAST_BYTES", audience: "user", flag: "--max-cast-bytes", configKey: "retention.max_cast_bytes", defaultText: "268435456 (256 MiB)", parse: count("268435456"), doc: "the size at which a recording stops growing (0: no limit)" }),
  idleTimeoutMs: define({ env: "TUIWRIGHT_IDLE_TIMEOUT_MS", audience: "user", flag: "--idle-timeout (daemon run)", defaultText: "900000 (15 min)", parse: milliseconds(0, "900000"), doc: "how long the daemon waits with no sessions and no clients before it exits" }),
  mcpTools: define({ env: "TUIWRIGHT_MCP_TOOLS", audience: "user", flag: "--tools (mcp), --mcp-tools (serve)", defaultText: "core,shell", parse: text, doc: "the MCP tool profiles offered (core, shell, browser, …; `tuiwright help mcp`)" }),
  mcpIdleMs: define({ env: "TUIWRIGHT_MCP_IDLE_MS", audience: "user", flag: "--mcp-idle (serve)", defaultText: "1800000 (30 min)", parse: milliseconds(0, "600000 (10 min)", " (0: never)"), doc: "how long an idle MCP-over-HTTP session lives (0: never ends)" }),
  serveTokenFile: define({ env: "TUIWRIGHT_SERVE_TOKEN_FILE", audience: "user", flag: "--token-file (serve)", defaultText: "none (a new token each start)", parse: text, doc: "a file holding serve --http's bearer token, created 0600 if missing, so a static MCP client config keeps working across restarts" }),
  bin: define({ env: "TUIWRIGHT_BIN", audience: "user", defaultText: "the packaged binary, else dist/tuiwright, else tuiwright on PATH", parse: text, doc: "the tuiwright binary the library and the npm launcher run" }),
  updateSnapshots: define({ env: "TUIWRIGHT_UPDATE_SNAPSHOTS", audience: "user", defaultText: "0", parse: on, doc: "1: the library's toMatchScreen rewrites its golden files" }),
  workerThreads: define({ env: "TUIWRIGHT_WORKER_THREADS", audience: "user", defaultText: "the number of cores, 2..4", parse: wholeNumber(1, 64, "a whole number 1..64", "2"), doc: "the daemon's threads that host program and shell sessions, shared among them (each browser has one of its own)" }),
  debug: define({ env: "TUIWRIGHT_DEBUG", audience: "test", defaultText: "0", parse: on, doc: "1: the daemon accepts debug.* methods (crash a worker, read memory) and logs more" }),
  answerTimeoutMs: define({ env: "TUIWRIGHT_ANSWER_TIMEOUT_MS", audience: "test", defaultText: "15000", parse: milliseconds(1, "15000"), doc: "how long the CLI waits for a daemon to answer a ping before taking it as wedged (exit 69)" }),
  frameIdleMs: define({ env: "TUIWRIGHT_FRAME_IDLE_MS", audience: "test", defaultText: "30000", parse: milliseconds(1, "30000"), doc: "how long the daemon keeps a half-sent request frame before dropping its connection" }),
  mcpProgressMs: define({ env: "TUIWRIGHT_MCP_PROGRESS_MS", audience: "test", defaultText: "5000", parse: milliseconds(1, "5000"), doc: "how often a long MCP call reports progress" }),
  historyFlag: define({ env: "TUIWRIGHT_HISTORY_FLAG", audience: "internal", defaultText: "set per shell session", parse: text, doc: "a shell session's rc file reads it once (then unsets it): the file that says whether history is kept" }),
  userZdotdir: define({ env: "TUIWRIGHT_USER_ZDOTDIR", audience: "internal", defaultText: "set per zsh session", parse: text, doc: "a zsh session's rc file sources the user's own startup files from here" }),
  ci: define({ env: "CI", audience: "ambient", defaultText: "unset", parse: (value) => value === "1" || value === "true", doc: "1 or true (as CI services set it): the library's toMatchScreen fails on a missing golden instead of writing it" }),
  sessionMark: define({ env: "TUIWRIGHT_SESSION_MARK", audience: "internal", defaultText: "set per session", parse: text, doc: "marks a session's processes so kill finds every one, even those that left its process group" }),
};

export type SettingKey = keyof typeof SETTINGS;
type ValueOf<K extends SettingKey> = ReturnType<(typeof SETTINGS)[K]["parse"]>;

/** The variable's value, parsed; undefined when unset or empty (the caller's default, or the
 * flag's, applies). `env` is the process's unless given (a façade reading another's). */
export function setting<K extends SettingKey>(key: K, env: Environment = process.env): ValueOf<K> | undefined {
  const spec = SETTINGS[key] as Setting<ValueOf<K>>;
  const value = env[spec.env];
  return value === undefined || value === "" ? undefined : spec.parse(value, spec.env);
}

/** Each variable that is set: its text, and its problem when its text does not parse. */
export function settingsInForce(env: Environment = process.env): { key: SettingKey; setting: Setting<unknown>; value: string | undefined; problem?: string }[] {
  return (Object.keys(SETTINGS) as SettingKey[]).map((key) => {
    const spec = SETTINGS[key] as Setting<unknown>;
    const value = env[spec.env] || undefined;
    try {
      if (value !== undefined) spec.parse(value, spec.env);
      return { key, setting: spec, value };
    } catch (error) {
      return { key, setting: spec, value, problem: (error as Error).message };
    }
  });
}
