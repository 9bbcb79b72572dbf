// Every CLI entry point (verbs, streaming and offline tools) with its usage and flags: the
// single source for `help`, `help --markdown` and `agent-context`.
import { BATCH_HELP } from "./batch-command.ts";
import { CASTS_HELP } from "./casts-command.ts";
import { EVENTS_HELP } from "./events-command.ts";
import { ATTACH_HELP } from "./attach-help.ts";
import { GC_HELP } from "./gc-help.ts";
import { DOCTOR_HELP } from "./doctor-help.ts";
import type { FlagSpec } from "./flags.ts";
import { ADAPTER_TEST_VERB, CAST_CONVERT_VERB, REPLAY_VERB, REPORT_VERB } from "./offline-verbs.ts";
import { RUN_HELP } from "./run-command.ts";
import { ASK_HELP } from "./ask-help.ts";
import { VERBS } from "./verbs.ts";
import { INSPECT_VERB, NEW_APP_VERB } from "./desktop-verbs.ts";

export type HelpEntry = { name: string; summary: string; usage: string; flags: FlagSpec[]; method?: string };

export const MCP_HELP: HelpEntry = {
  name: "mcp",
  summary: "serve the methods as MCP tools on stdio (for agents); shares the daemon with the CLI",
  usage: "mcp [--ns NAME]",
  flags: [],
};

export const SERVE_HELP: HelpEntry = {
  name: "serve",
  summary: "serve the methods over HTTP: POST /rpc (JSON-RPC) and POST /mcp (MCP), loopback, bearer token",
  usage: "serve --http HOST:PORT [--allow-remote] [--mcp-idle MS]",
  flags: [
    { name: "--http", type: "string", value: "HOST:PORT", description: "listen for HTTP here: POST /rpc (JSON-RPC) and POST /mcp (MCP Streamable HTTP); port 0 picks a free one" },
    { name: "--allow-remote", type: "bool", description: "allow a non-loopback address (the bearer token is then all that guards your programs)" },
    { name: "--mcp-idle", type: "int", value: "MS", default: 1_800_000, description: "end an MCP client's session, and the sessions it started without keep, after MS with no request and no call running — as its DELETE would (0: never; default: $TUIWRIGHT_MCP_IDLE_MS or 30 min)" },
  ],
};

export const AGENT_CONTEXT_HELP: HelpEntry = {
  name: "agent-context",
  summary: "print versioned JSON describing every verb, flag, method, exit code and error (for agents)",
  usage: "agent-context",
  flags: [],
};

export const SKILL_HELP: HelpEntry = {
  name: "skill",
  summary: "print SKILL.md: how an agent drives a terminal program with tuiwright in few tokens; --install DIR puts it in a skills directory",
  usage: "skill [--install DIR]",
  flags: [{ name: "--install", type: "string", value: "DIR", description: "write DIR/tuiwright/SKILL.md (an Agent Skills directory, e.g. ~/.claude/skills) instead of printing" }],
};

export const COMPLETION_HELP: HelpEntry = {
  name: "completion",
  summary: "print a shell completion script: source <(tuiwright completion bash); zsh; tuiwright completion fish | source",
  usage: "completion bash|zsh|fish",
  flags: [],
};

export const MAN_HELP: HelpEntry = {
  name: "man",
  summary: "print the tuiwright(1) manual page (roff): tuiwright man > ~/.local/share/man/man1/tuiwright.1",
  usage: "man",
  flags: [],
};

export const HELP: HelpEntry[] = [
  ...VERBS, EVENTS_HELP, BATCH_HELP, CASTS_HELP, RUN_HELP, ASK_HELP, REPLAY_VERB, REPORT_VERB, ADAPTER_TEST_VERB, MCP_HELP, SERVE_HELP, AGENT_CONTEXT_HELP,
  SKILL_HELP, NEW_APP_VERB, INSPECT_VERB, COMPLETION_HELP, MAN_HELP, GC_HELP, DOCTOR_HELP, CAST_CONVERT_VERB, ATTACH_HELP,
];
