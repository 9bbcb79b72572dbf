// The help of every CLI command that is not one method call (local, offline and docs commands;
// the verbs are in verbs.ts and the method table): name, summary, usage and flags, in the order
// `help` lists them after the verbs. Plain data, so `help` loads none of the commands; each
// command parses its flags from its entry here, so its help cannot drift from what it takes.
import type { FlagSpec } from "./flags.ts";

export type HelpEntry = { name: string; summary: string; usage: string; flags: FlagSpec[]; method?: string };

/** A command's help as declared: its usage line is made from its flags unless it says one
 * (exclusive or required flags, two forms): `globals` are the global flags it reads, `words`
 * what follows the flags. */
type Declared = Omit<HelpEntry, "usage"> & { usage?: string; globals?: ("--session" | "--ns")[]; words?: string };

/** `name [--session NAME] [--flag VALUE]... WORDS`; a flag with choices shows them (a|b|c). */
export function usageFrom(name: string, flags: FlagSpec[], globals: readonly string[] = [], words = ""): string {
  const flagWords = flags.map((flag) => `[${flag.name}${flag.type === "bool" ? "" : ` ${flag.choices?.join("|") ?? flag.value}`}]`);
  return [name, ...globals.map((flag) => `[${flag} NAME]`), ...flagWords, ...(words ? [words] : [])].join(" ");
}

/** The usage line is made when first read (help, a usage error): every CLI start loads this file. */
function declared({ globals, words, usage, ...entry }: Declared): HelpEntry {
  let line = usage;
  return { ...entry, get usage() { return (line ??= usageFrom(entry.name, entry.flags, globals, words)); } };
}

/** The event types `events --types` takes. */
export const EVENT_TYPES = ["screen", "title", "bell", "exit", "resize", "lease"];

/** The AI coding CLIs `ask` can use, in the order it looks for them on PATH. */
export const ASK_VIAS = ["claude", "codex", "pi", "opencode", "gemini"] as const;

/** Every desktop.* method but create takes `desktop`; the flag sets it as given. */
export const DESKTOP_FLAG: FlagSpec = { name: "--desktop", aliases: ["-d"], type: "string", value: "ID", description: "the desktop (default: the only one)", param: "desktop" };

export const EVENTS_HELP: HelpEntry = declared({
  name: "events",
  summary: "stream events (screen, title, bell, exit, resize, lease) as JSON lines until --count or Ctrl-C",
  globals: ["--session"],
  flags: [
    { name: "--types", type: "string", value: "LIST", description: `comma-separated, of ${EVENT_TYPES.join(",")} (default: all)` },
    { name: "--debounce", type: "int", value: "MS", description: "at most one screen event per session per MS ms (the latest)" },
    { name: "--count", type: "int", value: "N", description: "exit after N events" },
  ],
});

export const BATCH_HELP: HelpEntry = declared({
  name: "batch",
  summary: "run commands from stdin (one per line, or a JSON array) over one connection; one JSON result per line",
  words: "< COMMANDS",
  flags: [{ name: "--bail", type: "bool", description: "stop at the first command that fails" }],
});

export const CASTS_HELP: HelpEntry = declared({
  name: "casts",
  summary: "list the recordings (asciicast v3) of this namespace, newest first",
  globals: ["--session"],
  flags: [],
});

export const RUN_HELP: HelpEntry = {
  name: "run",
  summary: "run a non-interactive command with real pipes: stdout/stderr apart, exit code, timeout (no PTY, no daemon)",
  usage: "run [--stdin TEXT | --stdin-file FILE|-] [--timeout MS] -- PROGRAM [ARGS...]",
  flags: [
    { name: "--stdin", type: "string", value: "TEXT", description: "feed TEXT on stdin" },
    { name: "--stdin-file", type: "string", value: "FILE", description: "feed FILE's bytes on stdin (- for this command's own stdin)" },
    { name: "--timeout", type: "int", value: "MS", description: "kill the process group after MS (exit 124)" },
  ],
};

export const ASK_HELP: HelpEntry = declared({
  name: "ask",
  summary: "one answer from an AI coding CLI's non-interactive mode (claude -p, codex exec, pi -p, opencode run, gemini -p), as `run` does it",
  words: "PROMPT [-- CLI-ARGS...]",
  flags: [
    { name: "--via", type: "string", value: "CLI", description: "which CLI answers (default: the first of claude, codex, pi, opencode, gemini on PATH)", choices: [...ASK_VIAS] },
    { name: "--timeout", type: "int", value: "MS", description: "kill the CLI after MS (exit 124; default 300000, 0: no limit)" },
  ],
});

export const REPLAY_VERB: HelpEntry = {
  name: "replay",
  summary: "replay a cast (v3 or v2) into a fresh screen and print it, or check it against a snapshot file (exit 1 + diff); a folder of casts against a folder of goldens, in parallel, for CI",
  usage: "replay CAST [--at-marker N|LABEL] [--format text|ansi|cells|outline] [--raw] [--expect-snapshot FILE [--update [--mask RE]... [--outline]]]\n       replay DIR --expect-snapshot GOLDENS [--jobs N] [--retries N] [--junit FILE] [--annotations github] [--update …]",
  flags: [
    { name: "--at-marker", type: "string", value: "N|LABEL", description: "stop at the Nth marker (1-based) or the first with this label" },
    { name: "--format", type: "string", value: "FMT", description: "text (default), ansi, cells or outline", default: "text", choices: ["text", "ansi", "cells", "outline"] },
    { name: "--raw", type: "bool", description: "text: keep the glyphs a manifest marks as pixels (a browser page's ▄ half-blocks), as snapshot --raw" },
    { name: "--expect-snapshot", type: "string", value: "FILE", description: "compare with a snapshot file: exit 0, or 1 with a diff" },
    { name: "--update", type: "bool", description: "with --expect-snapshot: write FILE from this replay instead" },
    { name: "--mask", type: "list", value: "RE", description: "with --update: blank RE's matches on both sides (clocks, pids)" },
    { name: "--outline", type: "bool", description: "with --update: include the outline in FILE (then it is compared too)" },
    { name: "--jobs", type: "int", value: "N", description: "a folder: check N casts at once (default: one per core)" },
    { name: "--retries", type: "int", value: "N", description: "a folder: try a cast that does not pass N more times; one that passes then is counted flaky (default 0)" },
    { name: "--junit", type: "string", value: "FILE", description: "a folder: write the results as JUnit XML to FILE (never through a symlink)" },
    { name: "--annotations", type: "string", value: "FORMAT", description: "a folder: also print each failure as a CI annotation: github (GitHub Actions ::error commands)", choices: ["github"] },
  ],
};

export const REPORT_VERB: HelpEntry = {
  name: "report",
  summary: "write one self-contained HTML page that plays a cast, with its markers listed (click to seek)",
  usage: "report CAST -o FILE [--title TITLE] [--idle-limit S]",
  flags: [
    { name: "--out", aliases: ["-o"], type: "string", value: "FILE", description: "the HTML file to write" },
    { name: "--idle-limit", type: "string", value: "S", description: "play pauses longer than S seconds as S seconds (e.g. 2 or 0.5)" },
    { name: "--title", type: "string", value: "TITLE", description: "the page title (default: the cast's file name)" },
  ],
};

export const ADAPTER_TEST_VERB: HelpEntry = {
  name: "adapter test",
  summary: "run a manifest against a recording and print (or check) the outline it gives",
  usage: "adapter test MANIFEST --cast CAST [--at-marker N|LABEL] [--expect-outline FILE [--update]]",
  flags: [
    { name: "--cast", type: "string", value: "CAST", description: "the recording" },
    { name: "--at-marker", type: "string", value: "N|LABEL", description: "stop at a marker first" },
    { name: "--expect-outline", type: "string", value: "FILE", description: "compare with a compact outline file: exit 0, or 1 with a diff" },
    { name: "--update", type: "bool", description: "with --expect-outline: write FILE instead" },
  ],
};

export const MCP_HELP: HelpEntry = declared({
  name: "mcp",
  summary: "serve the methods as MCP tools on stdio (for agents); shares the daemon with the CLI",
  globals: ["--ns"],
  flags: [
    { name: "--tools", type: "string", value: "PROFILES", default: "core,shell", description: "the tool profiles to serve, comma-separated: core, shell, browser, ai (turn, for AI coding CLIs), desktop, admin (daemon_stop and the like), interactive-pty (the document's names), or all (default: $TUIWRIGHT_MCP_TOOLS or core,shell)" },
    { name: "--output-schemas", type: "bool", description: "give every tool its outputSchema (results are structured either way; the schemas cost a model tokens, so only interactive-pty's are on by default)" },
  ],
});

export const SERVE_HELP: HelpEntry = {
  name: "serve",
  summary: "serve the methods over HTTP: POST /rpc (JSON-RPC) and POST /mcp (MCP), loopback, bearer token",
  usage: "serve --http HOST:PORT [--token-file PATH] [--allow-remote] [--mcp-idle MS] [--mcp-tools PROFILES] [--mcp-output-schemas]",
  flags: [
    { name: "--http", type: "string", value: "HOST:PORT", description: "listen for HTTP here: POST /rpc (JSON-RPC) and POST /mcp (MCP Streamable HTTP); port 0 picks a free one" },
    { name: "--token-file", type: "string", value: "PATH", description: "the bearer token from PATH, the same at every start (a missing file is created with a fresh one, 0600; it must be yours and readable by nobody else); default: $TUIWRIGHT_SERVE_TOKEN_FILE, else a new token each start" },
    { name: "--allow-remote", type: "bool", description: "allow a non-loopback address (the bearer token is then all that guards your programs)" },
    { name: "--mcp-tools", type: "string", value: "PROFILES", default: "core,shell", description: "the MCP tool profiles /mcp serves, as `mcp --tools` (default: $TUIWRIGHT_MCP_TOOLS or core,shell)" },
    { name: "--mcp-output-schemas", type: "bool", description: "give every /mcp tool its outputSchema, as `mcp --output-schemas`" },
    { name: "--mcp-idle", type: "int", value: "MS", default: 1_800_000, description: "end an MCP client's session, and the sessions it started without keep, after MS with no request and no call running — as its DELETE would (0: never; default: $TUIWRIGHT_MCP_IDLE_MS or 30 min)" },
  ],
};

export const AGENT_CONTEXT_HELP: HelpEntry = declared({
  name: "agent-context",
  summary: "print versioned JSON describing every verb, flag, method, exit code and error (for agents)",
  flags: [],
});

export const SKILL_HELP: HelpEntry = declared({
  name: "skill",
  summary: "print SKILL.md: how an agent drives a terminal program with tuiwright in few tokens; --install DIR puts it in a skills directory",
  flags: [{ name: "--install", type: "string", value: "DIR", description: "write DIR/tuiwright/SKILL.md (an Agent Skills directory, e.g. ~/.claude/skills) instead of printing" }],
});

export const NEW_APP_VERB: HelpEntry = declared({
  name: "desktop new-app",
  summary: "write a minimal working HTML5 app (aoapp.json, a view with a list and operations) into a new directory",
  words: "DIR",
  flags: [],
});

export const INSPECT_VERB: HelpEntry = declared({
  name: "desktop inspect",
  summary: "the AOTUI Inspector: a terminal UI with the desktop's live Markdown and its signal/command log (: runs a command)",
  flags: [DESKTOP_FLAG],
});

export const COMPLETION_HELP: HelpEntry = declared({
  name: "completion",
  summary: "print a shell completion script: source <(tuiwright completion bash); zsh; tuiwright completion fish | source",
  words: "bash|zsh|fish",
  flags: [],
});

export const MAN_HELP: HelpEntry = declared({
  name: "man",
  summary: "print the tuiwright(1) manual page (roff): tuiwright man > ~/.local/share/man/man1/tuiwright.1",
  flags: [],
});

export const GC_HELP: HelpEntry = declared({
  name: "gc",
  summary: "delete old recordings, shell transcripts and rc directories of this namespace (the retention policy; the daemon applies it at start), and the token files of serve --http servers that are gone",
  flags: [
    { name: "--keep", type: "int", value: "N", description: "keep the newest N of each kind (0: no limit; default: config, $TUIWRIGHT_KEEP or 1000)" },
    { name: "--keep-days", type: "int", value: "D", description: "delete what is older than D days (0: no limit; default: config, $TUIWRIGHT_KEEP_DAYS or 30)" },
    { name: "--dry-run", type: "bool", description: "list what would be deleted; delete nothing" },
  ],
});

export const DOCTOR_HELP: HelpEntry = declared({
  name: "doctor",
  summary: "check the socket directory, daemon, versions, state directory, shells, Carbonyl, manifests and config; each problem with its fix (exit 1 if any)",
  flags: [
    { name: "--browser", type: "bool", description: "you want browser sessions: a missing or unusable Carbonyl is a problem (exit 1), not a warning" },
  ],
});

export const CAST_CONVERT_VERB: HelpEntry = {
  name: "cast convert",
  summary: "convert a recording between asciicast v3 and v2 (asciinema 2.x plays only v2); OUT is created, never overwritten (- for stdout)",
  usage: "cast convert --to v2|v3 IN OUT",
  flags: [
    { name: "--to", type: "string", value: "VERSION", description: "v2 or v3", choices: ["v2", "v3"] },
  ],
};

export const ATTACH_HELP: HelpEntry = declared({
  name: "attach",
  summary: "watch a session live in this terminal (read-only; --write takes the write lease and forwards your keys); Ctrl-] detaches",
  globals: ["--session"],
  flags: [
    { name: "--write", type: "bool", description: "take the session's write lease and send what you type to it (others are refused until you detach)" },
  ],
});

/** In the order `help` lists them (after the verbs). */
export const COMMAND_HELP: HelpEntry[] = [
  EVENTS_HELP, BATCH_HELP, CASTS_HELP, RUN_HELP, ASK_HELP, REPLAY_VERB, REPORT_VERB, ADAPTER_TEST_VERB, MCP_HELP, SERVE_HELP, AGENT_CONTEXT_HELP,
  SKILL_HELP, NEW_APP_VERB, INSPECT_VERB, COMPLETION_HELP, MAN_HELP, GC_HELP, DOCTOR_HELP, CAST_CONVERT_VERB, ATTACH_HELP,
];
