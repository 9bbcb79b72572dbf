// Every CLI entry point (verbs, streaming and offline tools) with its usage and flags: the
// single source for `help`, `help --markdown` and `agent-context`.
import { COMMAND_HELP, type HelpEntry } from "./command-help.ts";
import { VERBS } from "./verbs.ts";

export type { HelpEntry };

export const HELP: HelpEntry[] = [...VERBS, ...COMMAND_HELP];
