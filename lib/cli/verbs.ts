// The CLI's verbs: how each one's words and flags become a method call, and how its result is
// shown. Nearly every verb is a row of the method table (lib/cli/table-verbs.ts builds it, with
// its hooks in verb-hooks.ts); the few written here have no row. Plain data and functions only — the thin client must not load valibot or xterm; the
// daemon validates params against the method table and its errors come back with a path.
import type { MethodName } from "../protocol/methods.ts";
import type { AwiTtyName } from "../protocol/compat/awi-tty.ts";
import { type FlagSpec, type ParsedArgs, usage } from "./flags.ts";
import type { ClientEnv } from "./spawn-params.ts";
import { tableVerbNamed, tableVerbs } from "./table-verbs.ts";

export type { OutputMode } from "../present/result-text.ts";
import type { OutputMode } from "../present/result-text.ts";

export type Verb = {
  name: string;
  summary: string;
  usage: string;
  /** A core method, or (for the AWI-TTY-style verbs) the document's alias. */
  method: MethodName | AwiTtyName;
  flags: FlagSpec[];
  /** Whether the daemon is started when it is not running. */
  autoStart?: boolean;
  /** Positional words the verb takes: [min, max] (max Infinity for lists). */
  positionals: [number, number];
  /** The verb wants `-- ARGV...`. */
  wantsRest?: boolean;
  /** Params the verb builds itself; flags with `param` and `positionalParams` set theirs as given. */
  params?(args: ParsedArgs, client: ClientEnv): Record<string, unknown>;
  /** The params the positional words set, in order. */
  positionalParams?: string[];
  /** How the result reads; default: its method's renderer (lib/present/result-text.ts). */
  show?(result: any, mode: OutputMode): string;
  /** The CLI's exit code for a successful call (exec --propagate). */
  exitCode?(result: any, args: ParsedArgs): number;
  /** For `snapshot --out`: write the result's image/text to this file instead of printing. */
  out?(args: ParsedArgs, cwd: string): string | null;
  /** For `snapshot --save`: the file the CLI writes instead of printing. */
  save?(args: ParsedArgs, cwd: string): { file: string; masks: string[]; outline: boolean } | null;
};

export type { ClientEnv } from "./spawn-params.ts";

/** COLS ROWS as whole numbers; the daemon judges the size (invalid-viewport). */
function viewportWords(args: ParsedArgs): { cols: number; rows: number } {
  const [cols, rows] = args.positionals.map((word, i) => {
    if (!/^-?\d+$/.test(word)) throw usage(`${i === 0 ? "COLS" : "ROWS"} must be a whole number, got ${JSON.stringify(word)}`, "set-viewport");
    return Number(word);
  });
  return { cols: cols!, rows: rows! };
}

/** The verbs written here (the method table's are in table-verbs.ts), by name, each made when first
 * asked for: a CLI start makes only its own verb. `set-viewport` calls an AWI-TTY alias, which has
 * no row in the method table. */
const WRITTEN: Record<string, () => Verb> = {
  "set-viewport": () => ({
    name: "set-viewport",
    summary: "resize the terminal, AWI-TTY style (invalid sizes: invalid-viewport, exit 65)",
    usage: "set-viewport [--session NAME] COLS ROWS",
    method: "set_viewport",
    positionals: [2, 2],
    flags: [],
    params: viewportWords,
    show: (r: { session: string; cols: number; rows: number }, mode) => (mode === "plain" ? `${r.cols}x${r.rows}` : `${r.session}: ${r.cols}x${r.rows}`),
  }),
};

const madeWritten = new Map<string, Verb>();
/** The written verb with this name, or null; one object per verb however it was asked for. */
function writtenVerb(name: string): Verb | null {
  const make = Object.hasOwn(WRITTEN, name) ? WRITTEN[name] : undefined;
  return make ? (madeWritten.get(name) ?? madeWritten.set(name, make()).get(name)!) : null;
}
const writtenVerbs = (): Verb[] => Object.keys(WRITTEN).map((name) => writtenVerb(name)!);

/** The order `help` lists the verbs in. */
const HELP_ORDER = [
  "spawn", "list", "kill", "signal", "resize", "snapshot", "type", "press", "click", "get",
  "browse", "navigate", "back", "forward", "reload", "scroll", "mouse", "set-viewport",
  "desktop create", "desktop destroy", "desktop list", "desktop snapshot", "desktop exec", "desktop say", "desktop install",
  "desktop open-session", "desktop save", "desktop restore",
  "exec", "send", "end", "reset", "status", "blocks", "block", "mark", "wait", "capabilities", "ping",
  "adapter list", "adapter check", "lease acquire", "lease release", "daemon status", "daemon start", "daemon stop",
];
const rank = (verb: Verb) => {
  const at = HELP_ORDER.indexOf(verb.name);
  return at === -1 ? HELP_ORDER.length : at; // a verb not listed: last
};

let all: Verb[] | null = null;
/** Every verb, in help's order (help, docs, completion): built on first call. */
export const allVerbs = (): Verb[] => (all ??= [...tableVerbs(), ...writtenVerbs()].sort((a, b) => rank(a) - rank(b)));

/** The verb the words name (one word, or two: `daemon stop`). Verb names are unique and none is the
 * first word of another (tests/unit/cli/table-verbs.test.ts), so a lookup by name is the same as the
 * first match in help's order — and builds only the one table verb it finds. */
export function findVerb(words: string[], verbs?: Verb[]): { verb: Verb; consumed: number } | null {
  if (verbs === undefined) {
    for (const consumed of [1, 2]) {
      if (words.length < consumed) break;
      const name = words.slice(0, consumed).join(" ");
      const verb = writtenVerb(name) ?? tableVerbNamed(name);
      if (verb) return { verb, consumed };
    }
    return null;
  }
  for (const verb of verbs) {
    const parts = verb.name.split(" ");
    if (parts.every((part, i) => words[i] === part)) return { verb, consumed: parts.length };
  }
  return null;
}
