// The AWI-TTY CLI façade (the Carbonyl agent-socket document, section 9A): the same binary run
// as `awi-tty` (a symlink or hard link) or as `tuiwright awi …` speaks that document's commands,
// flags, output and exit codes, and nothing of tuiwright's own CLI. One JSON-RPC call per
// command over the socket; JSON (the call's result) by default, --plain for bare values.
import { existsSync, lstatSync } from "node:fs";
import { ERRORS, TuiwrightError, asTuiwrightError } from "../protocol/errors.ts";
import { defaultSocketPath, namespaceFromEnv, uid } from "../runtime/paths.ts";
import { writeOutputFile } from "../runtime/output-file.ts";
import { printErr, printOut } from "../runtime/stdio.ts";
import { RpcClient } from "../transport/rpc-client.ts";
import { checkSocketDir, checkSocketFile } from "../transport/socket-security.ts";
import { setting } from "../runtime/settings.ts";

/** The document's exit codes (sysexits-inspired); 73 is its rate-limited (our busy). */
const EXIT = { ok: 0, usage: 64, data: 65, unavailable: 69, software: 70, rateLimited: 73, io: 74, noPerm: 77 } as const;

type Output = "json" | "plain";
type Parsed = { command: string; args: string[]; flags: Map<string, string | true> };
type Command = {
  args: [number, number];
  /** Flags with a value; the rest are switches. */
  valued?: string[];
  switches?: string[];
  build(args: string[], flags: Parsed["flags"]): { method: string; params: Record<string, unknown> };
  plain?(result: any, flags: Parsed["flags"]): string;
};

const USAGE = `usage: awi-tty COMMAND [ARGS] [--socket PATH] [--session NAME] [--plain|--json|--quiet]

Commands (the AWI-TTY document's CLI):
  navigate <url>
  send-key <Tab|Enter|Up|Down|Left|Right|Space|Char:<char>> [--alt] [--meta] [--shift] [--ctrl]
  scroll <delta>
  snapshot [--format text|ansi] [--include-meta] [--trim] [--out FILE]
  get-title | get-url | get-nav-state | get-capabilities
  set-viewport <cols> <rows>
  type-text <string> | paste <string>
  wait-for-frame-quiescence <idle_ms>
  wait-for-title-contains <substring> [--timeout-ms N]
  click <row> <col> | mouse-move <row> <col> | mouse-down <row> <col> | mouse-up <row> <col>
  ping | subscribe-events

Socket: --socket PATH, else $AWI_SOCK, else $XDG_RUNTIME_DIR/carbonyl/agent.sock or
/tmp/carbonyl-$UID/agent.sock if present, else tuiwright's own daemon socket.
Session: --session NAME, else $TUIWRIGHT_SESSION, else the current browser session (or the most
recently started one); a session that is not a browser is refused.
Exit codes: 0 ok, 64 usage, 65 data, 69 unavailable, 70 internal, 73 rate-limited, 74 io,
77 permission, 124 timed out.`;

const usage = (message: string) => new TuiwrightError("usage", message, { hint: "run `awi-tty --help`" });

function integer(text: string, what: string): number {
  if (!/^-?\d+$/.test(text)) throw usage(`${what} must be an integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

const cell = (method: string): Command => ({
  args: [2, 2],
  build: ([row, col]) => ({ method, params: { row: integer(row!, "row"), col: integer(col!, "col") } }),
  plain: () => "ok",
});

const COMMANDS: Record<string, Command> = {
  navigate: { args: [1, 1], build: ([url]) => ({ method: "awi.navigate", params: { url } }), plain: (r) => r.url },
  "send-key": {
    args: [1, 1],
    switches: ["alt", "meta", "shift", "ctrl"],
    build: ([key], flags) => {
      const modifiers = ["alt", "meta", "shift", "ctrl"].filter((m) => flags.has(m));
      const params: Record<string, unknown> = key!.startsWith("Char:") ? { key: "Char", char: key!.slice(5) } : { key };
      if (modifiers.length > 0) params.modifiers = modifiers;
      return { method: "send_key", params };
    },
    plain: () => "ok",
  },
  scroll: { args: [1, 1], build: ([delta]) => ({ method: "awi.scroll", params: { delta: integer(delta!, "delta") } }), plain: () => "ok" },
  snapshot: {
    args: [0, 0],
    valued: ["format", "out"],
    switches: ["include-meta", "trim"],
    build: (_args, flags) => {
      const format = flags.get("format") ?? "text";
      if (format !== "text" && format !== "ansi") throw usage(`--format is text or ansi, not ${JSON.stringify(format)}`);
      return { method: "awi.snapshot", params: { format, include_meta: flags.has("include-meta") } };
    },
    plain: (r) => (r.lines as string[]).join("\n"),
  },
  "get-title": { args: [0, 0], build: () => ({ method: "get_title", params: {} }), plain: (r) => r.title ?? "" },
  "get-url": { args: [0, 0], build: () => ({ method: "get_url", params: {} }), plain: (r) => r.url },
  "get-nav-state": {
    args: [0, 0],
    build: () => ({ method: "get_nav_state", params: {} }),
    plain: (r) => `can_go_back=${r.can_go_back} can_go_forward=${r.can_go_forward}`,
  },
  "set-viewport": {
    args: [2, 2],
    build: ([cols, rows]) => ({ method: "set_viewport", params: { cols: integer(cols!, "cols"), rows: integer(rows!, "rows") } }),
    plain: (r) => `${r.cols}x${r.rows}`,
  },
  "get-capabilities": { args: [0, 0], build: () => ({ method: "get_capabilities", params: {} }), plain: (r) => (r.features as string[]).join("\n") },
  "type-text": { args: [1, 1], build: ([text]) => ({ method: "type_text", params: { text } }), plain: () => "ok" },
  paste: { args: [1, 1], build: ([text]) => ({ method: "paste", params: { text } }), plain: () => "ok" },
  "wait-for-frame-quiescence": {
    args: [1, 1],
    valued: ["timeout-ms"],
    build: ([idle], flags) => ({
      method: "wait_for_frame_quiescence",
      params: { idle_ms: integer(idle!, "idle_ms"), ...(flags.has("timeout-ms") ? { timeout_ms: integer(String(flags.get("timeout-ms")), "--timeout-ms") } : {}) },
    }),
    plain: () => "ok",
  },
  "wait-for-title-contains": {
    args: [1, 1],
    valued: ["timeout-ms"],
    build: ([substring], flags) => ({
      method: "wait_for_title_contains",
      params: { substring, ...(flags.has("timeout-ms") ? { timeout_ms: integer(String(flags.get("timeout-ms")), "--timeout-ms") } : {}) },
    }),
    plain: (r) => r.title,
  },
  click: cell("awi.click"),
  "mouse-move": cell("mouse_move"),
  "mouse-down": cell("mouse_down"),
  "mouse-up": cell("mouse_up"),
  ping: { args: [0, 0], build: () => ({ method: "ping", params: {} }), plain: () => "pong" },
  "subscribe-events": { args: [0, 0], build: () => ({ method: "subscribe_events", params: {} }) },
};
// The issue's shorter spelling of the quiescence wait.
COMMANDS["wait-for-quiescence"] = COMMANDS["wait-for-frame-quiescence"]!;

const GLOBAL_VALUED = ["socket", "session"];
const GLOBAL_SWITCHES = ["plain", "json", "quiet", "help"];

function parse(argv: string[]): Parsed {
  const flags = new Map<string, string | true>();
  const words: string[] = [];
  const commandName = argv.find((word) => !word.startsWith("--"));
  const command = commandName === undefined ? undefined : COMMANDS[commandName];
  const valued = new Set([...GLOBAL_VALUED, ...(command?.valued ?? [])]);
  const switches = new Set([...GLOBAL_SWITCHES, ...(command?.switches ?? [])]);
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") { words.push(...argv.slice(i + 1)); break; }
    if (!word.startsWith("--") || word === "-") { words.push(word); continue; }
    const [name, inline] = word.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (valued.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw usage(`--${name} needs a value`);
      flags.set(name, value);
    } else if (switches.has(name) && inline === undefined) {
      flags.set(name, true);
    } else {
      throw usage(`unknown flag --${name}${commandName ? ` for ${commandName}` : ""}`);
    }
  }
  const [name, ...args] = words;
  return { command: name ?? "", args, flags };
}

/** A document default path is taken only if a socket of ours is there, in a directory only we
 * can reach: one another user planted (/tmp/carbonyl-UID is guessable) is passed over. */
function ourSocketAt(path: string): boolean {
  if (!existsSync(path)) return false;
  try {
    checkSocketDir(path, { create: false });
    checkSocketFile(path);
    return true;
  } catch {
    return false;
  }
}

/** --socket, then $AWI_SOCK, then the document's default paths if a socket of ours is there, then ours. */
export function awiSocketPath(flag: string | undefined, env: Record<string, string | undefined>): string {
  if (flag) return flag;
  if (env.AWI_SOCK) return env.AWI_SOCK;
  const documentDefaults = [
    ...(env.XDG_RUNTIME_DIR ? [`${env.XDG_RUNTIME_DIR}/carbonyl/agent.sock`] : []),
    `/tmp/carbonyl-${uid()}/agent.sock`,
  ];
  const present = documentDefaults.find(ourSocketAt);
  if (present) return present;
  return setting("socket", env) ?? defaultSocketPath(namespaceFromEnv(setting("namespace", env)));
}

function exitFor(error: TuiwrightError): number {
  if (error.errorName === "busy") return EXIT.rateLimited;
  return ERRORS[error.errorName]?.exit ?? EXIT.software;
}

/** A socket in a directory that is not ours (the document's /tmp/carbonyl.sock) is trusted only
 * when the directory is sticky (nobody else can replace what is in it) and the socket is ours. */
function checkAgentSocket(path: string): void {
  const dir = path.slice(0, path.lastIndexOf("/")) || "/";
  let stat;
  try {
    stat = lstatSync(dir);
  } catch {
    return; // nothing there: connecting says so
  }
  // A root-owned sticky directory (/tmp): another user can create names there but never replace ours.
  const sharedSticky = stat.isDirectory() && (stat.mode & 0o1000) !== 0 && (stat.uid === 0 || stat.uid === uid());
  if (!sharedSticky) checkSocketDir(path, { create: false });
  checkSocketFile(path);
}

async function connect(path: string): Promise<RpcClient> {
  checkAgentSocket(path);
  try {
    return await RpcClient.connect(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EACCES" || code === "EPERM") throw new TuiwrightError("permission", `cannot connect to ${path}: permission denied`);
    throw new TuiwrightError("daemon-unavailable", `nothing listens at ${path} (${code ?? "error"})`, {
      hint: "start a browser (`tuiwright browse URL`), or point --socket / $AWI_SOCK at the agent socket",
    });
  }
}

/** The output, or with --out the file: through the one safe writer (never through a symlink
 * or into another user's file; a missing directory is exit 74, nothing is created on the way). */
async function emit(text: string, out: string | undefined): Promise<void> {
  if (out === undefined) return printOut(text);
  writeOutputFile(out, text.endsWith("\n") ? text : `${text}\n`);
}

/** Runs one façade command; returns the exit code. */
export async function runAwiTty(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  let output: Output = argv.includes("--plain") ? "plain" : "json";
  let client: RpcClient | null = null;
  try {
    const parsed = parse(argv);
    if (parsed.flags.has("help") || parsed.command === "help") {
      await printOut(USAGE);
      return EXIT.ok;
    }
    if ([..."plain json quiet".split(" ")].filter((mode) => parsed.flags.has(mode)).length > 1) throw usage("--plain, --json and --quiet are exclusive");
    output = parsed.flags.has("plain") ? "plain" : "json";
    const command = COMMANDS[parsed.command];
    if (!command) throw usage(parsed.command === "" ? "name a command" : `unknown command ${JSON.stringify(parsed.command)}`);
    const [min, max] = command.args;
    if (parsed.args.length < min || parsed.args.length > max) {
      throw usage(`${parsed.command} takes ${min === max ? min : `${min}..${max}`} argument(s), got ${parsed.args.length}`);
    }
    const { method, params } = command.build(parsed.args, parsed.flags);
    // The browser to act on: --session, else $TUIWRIGHT_SESSION (ping and subscribe-events are not a session's).
    const session = (parsed.flags.get("session") as string | undefined) ?? setting("session", env);
    if (session !== undefined && method !== "ping" && !(method === "subscribe_events" && params.session !== undefined)) params.session = session;
    const socket = awiSocketPath(parsed.flags.get("socket") as string | undefined, env);
    client = await connect(socket);
    const result: any = await client.call(method, params);
    if (parsed.command === "subscribe-events") {
      // One JSON line per event until the daemon goes away (or the caller stops us).
      await printOut(JSON.stringify(result));
      client.onNotification = (message) => { void printOut(JSON.stringify(message.params)); };
      await client.closed;
      return EXIT.ok;
    }
    if (parsed.command === "snapshot" && parsed.flags.has("trim")) result.lines = (result.lines as string[]).map((line) => line.trimEnd());
    // --quiet (the document's Quiet output mode, 9C): success or failure by exit code only.
    if (parsed.flags.has("quiet")) return EXIT.ok;
    const text = output === "plain" && command.plain ? command.plain(result, parsed.flags) : JSON.stringify(result);
    await emit(text, parsed.flags.get("out") as string | undefined);
    return EXIT.ok;
  } catch (caught) {
    const error = asTuiwrightError(caught);
    if (output === "json" && !argv.includes("--quiet")) await printOut(JSON.stringify({ error: error.toJsonRpc() }));
    await printErr(`awi-tty: ${error.message}\nhint: ${error.hint}`);
    return exitFor(error);
  } finally {
    client?.close();
  }
}
