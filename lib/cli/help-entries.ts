// Every CLI entry point (verbs, streaming and offline tools) with its usage and flags: the
// single source for `help`, `help --markdown` and `agent-context`.
import { COMMAND_HELP, type HelpEntry } from "./command-help.ts";
import { allVerbs } from "./verbs.ts";

export type { HelpEntry };

let help: HelpEntry[] | null = null;
/** Made on first call: a verb's run needs its own verb, not all of them. */
export const helpEntries = (): HelpEntry[] => (help ??= [...allVerbs(), ...COMMAND_HELP]);
