// Every CLI entry point (verbs, streaming and offline tools) with its usage and flags: the
// single source for `help`, `help --markdown` and `agent-context`.
import { BATCH_HELP } from "./batch-command.ts";
import { CASTS_HELP } from "./casts-command.ts";
import { EVENTS_HELP } from "./events-command.ts";
import type { FlagSpec } from "./flags.ts";
import { ADAPTER_TEST_VERB, REPLAY_VERB, REPORT_VERB } from "./offline-verbs.ts";
import { RUN_HELP } from "./run-command.ts";
import { ASK_HELP } from "./ask-command.ts";
import { VERBS } from "./verbs.ts";

export type HelpEntry = { name: string; summary: string; usage: string; flags: FlagSpec[]; method?: string };

export const MCP_HELP: HelpEntry = {
  name: "mcp",
  summary: "serve the methods as MCP tools on stdio (for agents); shares the daemon with the CLI",
  usage: "mcp [--ns NAME]",
  flags: [],
};

export const AGENT_CONTEXT_HELP: HelpEntry = {
  name: "agent-context",
  summary: "print versioned JSON describing every verb, flag, method, exit code and error (for agents)",
  usage: "agent-context",
  flags: [],
};

export const SKILL_HELP: HelpEntry = {
  name: "skill",
  summary: "print SKILL.md: how an agent drives a terminal program with tuiwright in few tokens",
  usage: "skill",
  flags: [],
};

export const HELP: HelpEntry[] = [
  ...VERBS, EVENTS_HELP, BATCH_HELP, CASTS_HELP, RUN_HELP, ASK_HELP, REPLAY_VERB, REPORT_VERB, ADAPTER_TEST_VERB, MCP_HELP, AGENT_CONTEXT_HELP, SKILL_HELP,
];
