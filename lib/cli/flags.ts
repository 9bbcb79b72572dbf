// A small, strict flag parser driven by each verb's flag specs: unknown flags, missing values
// and malformed numbers are usage errors (exit 64) naming the flag.
import { TuiwrightError } from "../protocol/errors.ts";
import { didYouMean } from "./suggest.ts";

export type FlagType = "string" | "int" | "bool" | "list";

export type FlagSpec = {
  name: string;
  aliases?: string[];
  type: FlagType;
  value?: string;
  description: string;
  /** The value used when the flag is absent (documentation; agent-context reports it). */
  default?: string | number | boolean;
  /** The only values a string flag accepts; anything else is a usage error naming them. */
  choices?: string[];
  /** The method param this flag sets as it is (lib/cli/param-flags.ts builds such flags from the
   * method table); flags without one are turned into params by their verb. */
  param?: string;
};

export type ParsedArgs = { flags: Map<string, string | number | boolean | string[]>; positionals: string[]; rest: string[] | null };

/** Global flags (taken out before a verb's flags are parsed), for "did you mean". */
const GLOBAL_FLAG_NAMES = ["--ns", "--session", "--lease", "--json", "--plain", "--help", "--version"];

/** A usage error (exit 64) that points at the verb's help. */
export function usage(message: string, verb: string): TuiwrightError {
  return new TuiwrightError("usage", message, { hint: `run \`tuiwright help ${verb}\` for the flags` });
}

function parseInt10(text: string, flag: string, verb: string): number {
  if (!/^-?\d+$/.test(text)) throw usage(`${flag} needs a whole number, got ${JSON.stringify(text)}`, verb);
  return Number(text);
}

/** Timers hold at most 2^31-1 ms (about 24.8 days); a larger value would fire at once. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

function parseDuration(text: string, flag: string, verb: string): number {
  const ms = parseInt10(text, flag, verb);
  if (ms < 0 || ms > MAX_DURATION_MS) throw usage(`${flag} must be 0..${MAX_DURATION_MS} ms (the timer limit), got ${text}`, verb);
  return ms;
}

/** Parses `args`; everything after `--` is returned untouched as `rest`. */
/** `freePositionals`: how many positionals the verb takes; a word that is not one of its flags
 * fills one of them (so `type --version` types it) instead of being an unknown flag. */
export function parseFlags(args: string[], specs: FlagSpec[], verb: string, freePositionals = 0): ParsedArgs {
  // Made at the first dash-word: reading a flag's aliases builds it from the method table, which
  // a command with no flags (most snapshots, after the global flags are taken out) never needs.
  let names: Map<string, FlagSpec> | null = null;
  const byNameOf = (): Map<string, FlagSpec> => {
    if (names) return names;
    names = new Map<string, FlagSpec>();
    for (const spec of specs) for (const name of [spec.name, ...(spec.aliases ?? [])]) names.set(name, spec);
    return names;
  };
  const flags = new Map<string, string | number | boolean | string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return { flags, positionals, rest: args.slice(i + 1) };
    // A single-dash word is a flag only when the verb declares it as one (`-o`, `-d`); every
    // flag name starts with a dash (tests/unit/cli/flags.test.ts).
    if (!arg.startsWith("-") || arg === "-" || (!arg.startsWith("--") && !byNameOf().has(arg))) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const flagName = eq === -1 ? arg : arg.slice(0, eq);
    const byName = byNameOf();
    const spec = byName.get(flagName);
    if (!spec) {
      if (positionals.length < freePositionals) { positionals.push(arg); continue; }
      throw usage(`unknown flag ${flagName} for \`${verb}\`${didYouMean(flagName, [...byName.keys(), ...GLOBAL_FLAG_NAMES])}`, verb);
    }
    if (spec.type === "bool") {
      if (eq !== -1) throw usage(`${flagName} takes no value`, verb);
      flags.set(spec.name, true);
      continue;
    }
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      if (i + 1 >= args.length) throw usage(`${flagName} needs a value${spec.value ? ` (${spec.value})` : ""}`, verb);
      value = args[++i]!;
    }
    if (spec.type === "int") flags.set(spec.name, spec.value === "MS" ? parseDuration(value, flagName, verb) : parseInt10(value, flagName, verb));
    else if (spec.type === "list") flags.set(spec.name, [...((flags.get(spec.name) as string[] | undefined) ?? []), value]);
    else if (spec.choices && !spec.choices.includes(value)) {
      throw usage(`${flagName} is one of ${spec.choices.join(", ")}; got ${JSON.stringify(value)}`, verb);
    } else flags.set(spec.name, value);
  }
  return { flags, positionals, rest: null };
}

export function describeFlags(specs: FlagSpec[]): string {
  const rows = specs.map((spec) => {
    const names = [spec.name, ...(spec.aliases ?? [])].join(", ");
    const left = spec.type === "bool" ? names : `${names} ${spec.value ?? spec.type.toUpperCase()}`;
    return [left, spec.description + (spec.type === "list" ? " (repeatable)" : "")] as const;
  });
  const width = Math.min(34, Math.max(...rows.map(([left]) => left.length), 0));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join("\n");
}
