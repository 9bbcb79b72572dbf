// The thin CLI: global flags, verb lookup, one call to the daemon, output and exit code.
// It loads neither xterm nor valibot, so a snapshot costs little more than process start.
import { asTuiwrightError, TuiwrightError } from "../protocol/errors.ts";
import { defaultSocketPath, namespaceFromEnv } from "../runtime/paths.ts";
import { version } from "../runtime/self.ts";
import { printErr, printOut } from "../runtime/stdio.ts";
import { connectDaemon, type DaemonTarget } from "../transport/daemon-connection.ts";
import { describeFlags, parseFlags } from "./flags.ts";
import { findVerb, VERBS, type OutputMode, type Verb } from "./verbs.ts";

type Globals = { namespace?: string; session?: string; mode: OutputMode; help: boolean; version: boolean };

const STOP_WAIT_MS = 5000;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const SESSIONLESS = new Set(["ping", "capabilities", "list", "daemon.status", "daemon.stop"]);

const GLOBAL_HELP = `Global flags:
  --ns NAME         namespace: a separate daemon and socket (env TUIWRIGHT_NS)
  --session NAME    the session to act on (default: the most recently used; env TUIWRIGHT_SESSION)
  --json            print the JSON-RPC result (errors as {"error": ...})
  --plain           print bare values: snapshot text, scalar getters
  -h, --help        help for a verb`;

function usage(message: string, hint = "run `tuiwright help` for the verbs"): TuiwrightError {
  return new TuiwrightError("usage", message, { hint });
}

/** Takes global flags out of the words before `--`. */
function extractGlobals(args: string[]): { globals: Globals; rest: string[] } {
  const globals: Globals = { mode: "human", help: false, version: false };
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") { rest.push(...args.slice(i)); break; }
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= args.length) throw usage(`${flag} needs a value`);
      return args[++i]!;
    };
    if (flag === "--ns") globals.namespace = value();
    else if (flag === "--session" || flag === "-s") globals.session = value();
    else if (arg === "--json") globals.mode = "json";
    else if (arg === "--plain") globals.mode = "plain";
    else if (arg === "--help" || arg === "-h") globals.help = true;
    else if (arg === "--version") globals.version = true;
    else rest.push(arg);
  }
  return { globals, rest };
}

function verbHelp(verb: Verb): string {
  const flags = describeFlags(verb.flags);
  return `usage: tuiwright ${verb.usage}\n\n${verb.summary}\n${flags ? `\nFlags:\n${flags}\n` : ""}\n${GLOBAL_HELP}`;
}

function generalHelp(): string {
  const width = Math.max(...VERBS.map((v) => v.name.length));
  return [
    `tuiwright ${version()}: drive terminal programs on pseudo-terminals, for agents and CI`,
    "",
    "usage: tuiwright VERB [FLAGS] [ARGS]",
    "",
    "Verbs:",
    ...VERBS.map((v) => `  ${v.name.padEnd(width)}  ${v.summary}`),
    `  ${"help VERB".padEnd(width)}  flags of one verb`,
    "",
    GLOBAL_HELP,
    "",
    "Exit codes: 0 ok, 1 expectation not met, 64 usage, 65 bad data, 66 no such session/file,",
    "69 unavailable/exited, 70 internal, 74 I/O, 75 busy (retry), 77 permission, 124 wait timed out.",
  ].join("\n");
}

async function printError(error: TuiwrightError, mode: OutputMode, verb: Verb | undefined): Promise<void> {
  if (mode === "json") {
    await printOut(JSON.stringify({ error: error.toJsonRpc() }));
    return;
  }
  const lines = [`tuiwright: ${error.message}`];
  const excerpt = error.details.excerpt;
  if (typeof excerpt === "string" && excerpt.trim() !== "") lines.push("screen (last rows):", ...excerpt.split("\n").map((row) => `  | ${row}`));
  lines.push(`hint: ${error.hint}`);
  if (error.errorName === "usage" && verb) lines.push(`usage: tuiwright ${verb.usage}`);
  await printErr(lines.join("\n"));
}

function target(globals: Globals): DaemonTarget {
  const namespace = namespaceFromEnv(globals.namespace);
  if (!NAME.test(namespace)) throw usage(`invalid namespace ${JSON.stringify(namespace)}: use 1-64 letters, digits, '_', '.' or '-'`);
  return { namespace, socketPath: defaultSocketPath(namespace) };
}

/** Answers that need no daemon: listing or stopping when none runs. */
function withoutDaemon(verb: Verb, mode: OutputMode): string | null {
  if (verb.method === "list") return mode === "json" ? JSON.stringify({ sessions: [], current: null }) : mode === "plain" ? "" : "no sessions (no daemon running)";
  if (verb.method === "daemon.stop") return mode === "json" ? JSON.stringify({ stopped: true, sessionsKilled: 0 }) : mode === "plain" ? "" : "no daemon running";
  return null;
}

export async function runCli(args: string[]): Promise<number> {
  let mode: OutputMode = "human";
  let verb: Verb | undefined;
  try {
    const { globals, rest } = extractGlobals(args);
    mode = globals.mode;
    if (globals.version || rest[0] === "version") { await printOut(version()); return 0; }
    if (rest.length === 0 || rest[0] === "help") {
      const named = rest.length > 1 ? findVerb(rest.slice(1)) : null;
      if (rest.length > 1 && !named) throw usage(`no verb named ${JSON.stringify(rest.slice(1).join(" "))}`);
      const help = named ? verbHelp(named.verb) : generalHelp();
      await (rest.length === 0 && !globals.help ? printErr(help) : printOut(help));
      return rest.length === 0 && !globals.help ? 64 : 0;
    }
    const found = findVerb(rest);
    if (!found) throw usage(`unknown verb ${JSON.stringify(rest[0])}`);
    verb = found.verb;
    if (globals.help) { await printOut(verbHelp(verb)); return 0; }

    const parsed = parseFlags(rest.slice(found.consumed), verb.flags, verb.name);
    const [min, max] = verb.positionals;
    if (parsed.positionals.length < min) throw usage(`${verb.name} needs ${min === max ? min : `at least ${min}`} argument(s)`, `usage: tuiwright ${verb.usage}`);
    if (parsed.positionals.length > max) throw usage(`${verb.name} takes ${max === 0 ? "no" : `at most ${max}`} argument(s); got ${JSON.stringify(parsed.positionals.slice(max)[0])}`, `usage: tuiwright ${verb.usage}`);
    if (parsed.rest && !verb.wantsRest) throw usage(`${verb.name} takes nothing after --`);

    const client = { cwd: process.cwd(), env: process.env as Record<string, string> };
    const params = verb.params(parsed, client);
    const session = globals.session ?? (verb.method === "spawn" ? undefined : process.env.TUIWRIGHT_SESSION);
    if (session !== undefined && !SESSIONLESS.has(verb.method)) params.session = session;

    const daemon = target(globals);
    let rpc;
    try {
      rpc = await connectDaemon(daemon, { autoStart: verb.autoStart ?? false });
    } catch (error) {
      const fallback = asTuiwrightError(error).errorName === "daemon-unavailable" ? withoutDaemon(verb, mode) : null;
      if (fallback === null) throw error;
      await printOut(fallback);
      return 0;
    }
    try {
      const result = await rpc.call(verb.method, params);
      // `daemon stop` returns once the daemon has exited: its connections close as it dies.
      if (verb.method === "daemon.stop") await Promise.race([rpc.closed, new Promise((r) => setTimeout(r, STOP_WAIT_MS))]);
      await printOut(mode === "json" ? JSON.stringify(result) : verb.show(result, mode));
      return 0;
    } finally {
      rpc.close();
    }
  } catch (error) {
    const failure = asTuiwrightError(error);
    await printError(failure, mode, verb);
    return failure.exitCode;
  }
}
