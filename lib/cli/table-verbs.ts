// The CLI verbs the method table declares (`cli` in a method's definition, generated into
// TABLE_VERBS as plain data): the params the words and flags set, each flag's help and default
// the param's own, the renderer the method's (lib/present/result-text.ts). A method added with
// a `cli` entry is a verb with no edit here.
// Making a verb runs on every CLI start, so it is written with loops: the first call of each
// Array builtin (flatMap, filter, some…) costs a start 20-90 µs to compile (bench/RESULTS.md).
import { resolve as resolvePath } from "node:path";
import { paramFactsOf, TABLE_VERBS, TAKES_SESSION, type TableVerb } from "../protocol/generated/method-facts.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import type { MethodName } from "../protocol/methods.ts";
import type { FlagSpec, ParsedArgs } from "./flags.ts";
import { aimFlags, waitFlags, waitSpec } from "./flag-groups.ts";
import { docFlag, paramFlag } from "./param-flags.ts";
import { VERB_HOOKS } from "./verb-hooks.ts";
import { readWordFile } from "./read-word-file.ts";
import type { ClientEnv } from "./spawn-params.ts";
import type { Verb } from "./verbs.ts";

const wordName = (param: string) => (param.endsWith("?") ? param.slice(0, -1) : isList(param) ? param.slice(0, -3) : param);
/** The last word may take all the words left (`apps...`). */
const isList = (word: string) => word.endsWith("...");
function hasList(entry: TableVerb): boolean {
  for (const word of entry.words) if (isList(word)) return true;
  return false;
}

function usageOf(entry: TableVerb, flags: Verb["flags"]): string {
  const session = TAKES_SESSION.has(entry.method) ? ["[--session NAME]"] : [];
  const flagWords = flags.map((flag) => `[${flag.name}${flag.type === "bool" ? "" : ` ${flag.value}`}]`);
  const words = entry.words.map((word) => {
    // A word with choices shows them (title|cwd|…); a file the CLI reads, NAME_FILE; any other its param's name.
    const param = wordName(word);
    const shown = paramFactsOf(entry.method)?.[param]?.choices?.join("|") ?? (entry.files?.[param] === "json" ? `${param.toUpperCase()}_FILE` : param.toUpperCase());
    return isList(word) ? `[${shown}...]` : word.endsWith("?") ? `[${shown}]` : shown;
  });
  return [entry.verb, ...session, ...flagWords, ...words].join(" ");
}

/** A file param's value as the daemon takes it, from the word or flag value that names it. */
function fileValue(kind: "path" | "json", param: string, word: string, client: ClientEnv): unknown {
  if (kind === "path") return resolvePath(client.cwd, word);
  // A JSON file param (a desktop state) may name code to run: read like code, ours alone.
  const { path, text } = readWordFile(client.cwd, word, { what: `${param} file`, trusted: true });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TuiwrightError("bad-data", `${path} is not JSON: ${(error as Error).message}`);
  }
}

/** The params the words and flags set that are not taken as given: a list word's words, and
 * files (each word of a list). Undefined when the verb has none. */
function builtParams(entry: TableVerb, flags: Verb["flags"]): Verb["params"] {
  const files = entry.files ?? {};
  if (Object.keys(files).length === 0 && !hasList(entry)) return undefined;
  return (args, client) => {
    const params: Record<string, unknown> = {};
    const set = (param: string, value: string | string[]) => {
      const kind = files[param];
      params[param] = !kind ? value : Array.isArray(value) ? value.map((word) => fileValue(kind, param, word, client)) : fileValue(kind, param, value, client);
    };
    entry.words.forEach((word, i) => {
      if (isList(word) && args.positionals.length > i) set(wordName(word), args.positionals.slice(i));
      else if (files[wordName(word)] && i < args.positionals.length) set(wordName(word), args.positionals[i]!);
    });
    for (const flag of flags) {
      if (flag.param !== undefined && files[flag.param] && args.flags.has(flag.name)) set(flag.param, args.flags.get(flag.name) as string | string[]);
    }
    return params;
  };
}

/** The row's flags in help's order: param flags, the flag groups it names, the CLI's own. */
function flagsOf(entry: TableVerb): FlagSpec[] {
  const flags: FlagSpec[] = [];
  for (const [key, flag] of entry.flags) {
    if (key === "@wait") flags.push(...waitFlags());
    else if (key === "@aim") flags.push(...aimFlags(entry.method));
    else if (typeof flag === "object" && "type" in flag) flags.push({ name: key, ...flag }); // "--name": the CLI's own
    else {
      const { names, value, description, built } = typeof flag === "string" ? { names: flag } : flag;
      const [name, ...aliases] = names.split("|");
      const extra = { ...(aliases.length > 0 ? { aliases } : {}), ...(value ? { value } : {}), ...(description ? { description } : {}) };
      flags.push(built ? docFlag(entry.method, key, name!, extra) : paramFlag(entry.method, key, name!, extra));
    }
  }
  return flags;
}

/** The params the CLI sends when their flags are absent (a row flag's `fill`). */
function filled(entry: TableVerb, args: ParsedArgs): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [key, flag] of entry.flags) {
    if (typeof flag !== "object" || !("fill" in flag) || flag.fill === undefined) continue;
    if (!args.flags.has(flag.names.split("|")[0]!)) params[key] = flag.fill;
  }
  return params;
}

/** The verb's own params: the files and list words, the "@wait" group's `wait`, the fills, then its hook's. */
function paramsOf(entry: TableVerb, flags: FlagSpec[]): Verb["params"] {
  const built = builtParams(entry, flags);
  let wait = false;
  let fills = false;
  for (const [key, flag] of entry.flags) {
    if (key === "@wait") wait = paramFactsOf(entry.method)?.wait !== undefined;
    if (typeof flag === "object" && "fill" in flag) fills = true;
  }
  const hook = VERB_HOOKS[entry.verb]?.params;
  if (!built && !wait && !fills && !hook) return undefined;
  return (args, client) => {
    const spec = wait ? waitSpec(args, entry.verb) : undefined;
    return { ...built?.(args, client), ...(fills ? filled(entry, args) : {}), ...hook?.(args, client), ...(spec ? { wait: spec } : {}) };
  };
}

const arityOf = (entry: TableVerb): [number, number] => {
  if (entry.arity) return [entry.arity[0], entry.arity[1] === "many" ? Infinity : entry.arity[1]];
  let required = 0;
  for (const word of entry.words) if (!word.endsWith("?") && !isList(word)) required++;
  return [required, hasList(entry) ? Infinity : entry.words.length];
};

/** The params the positional words set, in order (a list word's are built: builtParams). */
function positionalParamsOf(entry: TableVerb): string[] {
  const params: string[] = [];
  for (const word of entry.words) if (!isList(word)) params.push(wordName(word));
  return params;
}

export function tableVerb(entry: TableVerb): Verb {
  const flags = flagsOf(entry);
  const params = paramsOf(entry, flags);
  const { params: _, ...hooks } = VERB_HOOKS[entry.verb] ?? {};
  return {
    name: entry.verb,
    summary: entry.summary,
    get usage() { return entry.usage ?? usageOf(entry, flags); },
    method: entry.method as MethodName,
    ...(entry.autoStart ? { autoStart: true } : {}),
    positionals: arityOf(entry),
    ...(entry.rest ? { wantsRest: true } : {}),
    positionalParams: positionalParamsOf(entry),
    flags,
    ...(params ? { params } : {}),
    ...hooks,
  };
}

/** The table verbs made so far, by name: one object per verb however it was asked for. */
const made = new Map<string, Verb>();
const madeVerb = (entry: TableVerb): Verb => made.get(entry.verb) ?? made.set(entry.verb, tableVerb(entry)).get(entry.verb)!;

/** The table's verbs (help, docs): made on first call; a CLI start makes only its own verb. */
export const tableVerbs = (): Verb[] => TABLE_VERBS.map(madeVerb);

/** The table verb with this name, or null. */
export function tableVerbNamed(name: string): Verb | null {
  for (const entry of TABLE_VERBS) if (entry.verb === name) return madeVerb(entry);
  return null;
}
