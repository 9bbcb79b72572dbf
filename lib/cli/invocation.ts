// From command-line words to a method call: global flags, the verb, its flags and params.
// Shared by single commands and by `batch`, whose lines are command lines too.
import { paramsFromFlags } from "./param-flags.ts";
import { paramFactsOf, TAKES_LEASE, TAKES_SESSION } from "../protocol/generated/method-facts.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import { defaultSocketPath, namespaceFromEnv } from "../runtime/paths.ts";
import type { DaemonTarget } from "../transport/daemon-connection.ts";
import { parseFlags, type ParsedArgs } from "./flags.ts";
import { findVerb, type OutputMode, type Verb } from "./verbs.ts";
import { setting } from "../runtime/settings.ts";

export type Globals = { namespace?: string; session?: string; lease?: string; mode: OutputMode; help: boolean; version: boolean };

/** `snapshot --save FILE`: written by the CLI itself, relative paths against its cwd. */
export type SaveRequest = { file: string; masks: string[]; outline: boolean };

export type Prepared = { verb: Verb; params: Record<string, unknown>; mode: OutputMode; save?: SaveRequest; out?: string; args: ParsedArgs };

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const GLOBAL_FLAGS: { name: string; aliases?: string[]; value?: string; description: string }[] = [
  { name: "--ns", value: "NAME", description: "namespace: a separate daemon and socket (env TUIWRIGHT_NS)" },
  { name: "--session", aliases: ["-s"], value: "NAME", description: "the session to act on (default: the most recently used; env TUIWRIGHT_SESSION)" },
  { name: "--lease", value: "TOKEN", description: "the write lease's token, when you hold the session's lease (env TUIWRIGHT_LEASE)" },
  { name: "--json", description: "print the JSON-RPC result (errors as {\"error\": ...} on stdout)" },
  { name: "--plain", description: "print bare values: snapshot text, scalar getters" },
  { name: "--help", aliases: ["-h"], description: "help for a verb" },
];

export const GLOBAL_HELP = `Global flags:
  --ns NAME         namespace: a separate daemon and socket (env TUIWRIGHT_NS)
  --session NAME    the session to act on (default: the most recently used; env TUIWRIGHT_SESSION)
  --lease TOKEN     the write lease's token, when you hold the session's lease (env TUIWRIGHT_LEASE)
  --json            print the JSON-RPC result (errors as {"error": ...})
  --plain           print bare values: snapshot text, scalar getters
  -h, --help        help for a verb`;

export function usage(message: string, hint = "run `tuiwright help` for the verbs"): TuiwrightError {
  return new TuiwrightError("usage", message, { hint });
}

/** Takes global flags out of the words before `--`; `defaults` come from an enclosing batch. */
export function extractGlobals(args: string[], defaults?: Globals): { globals: Globals; rest: string[] } {
  const globals: Globals = defaults ? { ...defaults, help: false, version: false } : { mode: "human", help: false, version: false };
  const rest: string[] = [];
  // After the verb, --version is the verb's text (`type --version`), not ours.
  let verbSeen = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") { rest.push(...args.slice(i)); break; }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const value = () => {
      if (eq !== -1) return arg.slice(eq + 1);
      if (i + 1 >= args.length) throw usage(`${flag} needs a value`);
      return args[++i]!;
    };
    if (flag === "--ns") globals.namespace = value();
    else if (flag === "--session" || flag === "-s") globals.session = value();
    else if (flag === "--lease") globals.lease = value();
    else if (arg === "--json") globals.mode = "json";
    else if (arg === "--plain") globals.mode = "plain";
    else if (arg === "--help" || arg === "-h") globals.help = true;
    else if ((arg === "--version" || arg === "-V") && !verbSeen) globals.version = true;
    else {
      if (!arg.startsWith("-")) verbSeen = true;
      rest.push(arg);
    }
  }
  return { globals, rest };
}

export function daemonTarget(globals: Globals): DaemonTarget {
  const namespace = namespaceFromEnv(globals.namespace);
  if (!NAME.test(namespace)) throw usage(`invalid namespace ${JSON.stringify(namespace)}: use 1-64 letters, digits, '_', '.' or '-'`);
  return { namespace, socketPath: defaultSocketPath(namespace) };
}

/** A positional word as its param's type: a whole number for an int param, else the word. */
function wordValue(verb: Verb, param: string, word: string, verbUsage: string): string | number {
  if (paramFactsOf(verb.method)?.[param]?.type !== "int") return word;
  if (!/^-?\d+$/.test(word)) throw usage(`${param.toUpperCase()} must be a whole number, got ${JSON.stringify(word)}`, verbUsage);
  return Number(word);
}

/** The verb's method and params for `rest` (the words left after the global flags). */
export function prepare(rest: string[], globals: Globals): Prepared {
  const found = findVerb(rest);
  if (!found) throw usage(`unknown verb ${JSON.stringify(rest[0] ?? "")}`);
  const { verb } = found;
  const verbUsage = `usage: tuiwright ${verb.usage}`;
  const [min, max] = verb.positionals;
  // Only this verb's flags are flags: another dash-word fills a free positional (text to
  // type), and `--` ends flags for every verb (after it, words are positionals unless the
  // verb runs a program).
  const parsed = parseFlags(rest.slice(found.consumed), verb.flags, verb.name, verb.wantsRest ? 0 : max);
  if (parsed.rest && !verb.wantsRest) {
    parsed.positionals.push(...parsed.rest);
    parsed.rest = null;
  }
  if (parsed.positionals.length < min) throw usage(`${verb.name} needs ${min === max ? min : `at least ${min}`} argument(s)`, verbUsage);
  if (parsed.positionals.length > max) {
    throw usage(`${verb.name} takes ${max === 0 ? "no" : `at most ${max}`} argument(s); got ${JSON.stringify(parsed.positionals[max])}`, verbUsage);
  }
  if (parsed.rest && !verb.wantsRest) throw usage(`${verb.name} takes nothing after --`, verbUsage);
  // Param flags and positionals set params as given; the verb builds the rest (and may refine).
  const params = paramsFromFlags(parsed, verb.flags);
  // A loop, not fromEntries/flatMap: their first calls cost every CLI start ~0.1 ms.
  const positionalParams = verb.positionalParams ?? [];
  for (let i = 0; i < positionalParams.length && i < parsed.positionals.length; i++) {
    params[positionalParams[i]!] = wordValue(verb, positionalParams[i]!, parsed.positionals[i]!, verbUsage);
  }
  Object.assign(params, verb.params?.(parsed, { cwd: process.cwd(), env: process.env as Record<string, string> }));
  const session = globals.session ?? (verb.method === "spawn" ? undefined : setting("session")); // empty = unset
  // A desktop method's `session` names a session to open as an app, never the default one.
  if (session !== undefined && TAKES_SESSION.has(verb.method) && !verb.method.startsWith("desktop.")) params.session = session;
  const lease = globals.lease ?? setting("lease");
  if (lease !== undefined && lease !== "" && TAKES_LEASE.has(verb.method)) params.lease = lease;
  if (verb.method === "lease.release" && params.lease === undefined) throw usage("lease release needs the lease's token: --lease TOKEN or TUIWRIGHT_LEASE", verbUsage);
  const save = verb.save?.(parsed, process.cwd());
  const out = verb.out?.(parsed, process.cwd());
  return { verb, params, mode: globals.mode, args: parsed, ...(save ? { save } : {}), ...(out ? { out } : {}) };
}
