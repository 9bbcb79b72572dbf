// The CLI verbs the method table declares (`cli` in a method's definition, generated into
// TABLE_VERBS as plain data): the params the words and flags set, each flag's help and default
// the param's own, the renderer the method's (lib/present/result-text.ts). A method added with
// a `cli` entry is a verb with no edit here.
import { paramFactsOf, TABLE_VERBS, TAKES_SESSION, type TableVerb } from "../protocol/generated/method-facts.ts";
import type { MethodName } from "../protocol/methods.ts";
import { paramFlag } from "./param-flags.ts";
import type { Verb } from "./verbs.ts";

const wordName = (param: string) => param.replace(/\?$/, "");

function usageOf(entry: TableVerb, flags: Verb["flags"]): string {
  const session = TAKES_SESSION.has(entry.method) ? ["[--session NAME]"] : [];
  const flagWords = flags.map((flag) => `[${flag.name}${flag.type === "bool" ? "" : ` ${flag.value}`}]`);
  const words = entry.words.map((word) => {
    // A word with choices shows them (title|cwd|…); any other its param's name.
    const shown = paramFactsOf(entry.method)?.[wordName(word)]?.choices?.join("|") ?? wordName(word).toUpperCase();
    return word.endsWith("?") ? `[${shown}]` : shown;
  });
  return [entry.verb, ...session, ...flagWords, ...words].join(" ");
}

export function tableVerb(entry: TableVerb): Verb {
  const flags = entry.flags.map(([param, names]) => {
    const [name, ...aliases] = names.split("|");
    return paramFlag(entry.method, param, name!, aliases.length > 0 ? { aliases } : {});
  });
  const required = entry.words.filter((word) => !word.endsWith("?")).length;
  return {
    name: entry.verb,
    summary: entry.summary,
    get usage() { return usageOf(entry, flags); },
    method: entry.method as MethodName,
    ...(entry.autoStart ? { autoStart: true } : {}),
    positionals: [required, entry.words.length],
    positionalParams: entry.words.map(wordName),
    flags,
  };
}

/** The table's verbs, by name. */
export const TABLE_VERB_LIST: Verb[] = TABLE_VERBS.map(tableVerb);
