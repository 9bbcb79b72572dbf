// The thin CLI: global flags, verb lookup, one call to the daemon, output and exit code.
// It loads neither xterm nor valibot, so a snapshot costs little more than process start.
import { asTuiwrightError, type TuiwrightError } from "../protocol/errors.ts";
import { version } from "../runtime/self.ts";
import { printErr, printOut } from "../runtime/stdio.ts";
import { inertJson } from "../present/inert-text.ts";
import { forTerminal } from "./for-terminal.ts";
import { connectDaemon } from "../transport/daemon-connection.ts";
import { peekLost } from "../transport/session-ledger.ts";
import { cleanUpDeadDaemon } from "../transport/dead-daemon-cleanup.ts";
import { formatList } from "../present/result-text.ts";
import { findLocalCommand } from "./local-commands.ts";
import { entryPoint } from "../runtime/self.ts";
import { perform } from "./perform.ts";
import { describeFlags } from "./flags.ts";
import { helpEntries, type HelpEntry } from "./help-entries.ts";
import { TOPICS } from "./help-topics.ts";
import { daemonTarget, extractGlobals, GLOBAL_FLAGS, GLOBAL_HELP, type Globals, prepare, usage } from "./invocation.ts";
import { findVerb, type OutputMode, type Verb } from "./verbs.ts";
import { didYouMean } from "./suggest.ts";
import { parseFlags } from "./flags.ts";

/** The less common commands, loaded by path only when one is asked for (entries/commands.ts). */
const commands = (): Promise<typeof import("../../entries/commands.ts")> => import(entryPoint("entries/commands.ts"));

function verbHelp(verb: HelpEntry): string {
  const flags = describeFlags(verb.flags);
  return `usage: tuiwright ${verb.usage}\n\n${verb.summary}\n${flags ? `\nFlags:\n${flags}\n` : ""}\n${GLOBAL_HELP}`;
}

function findHelp(words: string[]): HelpEntry | null {
  return helpEntries().find((entry) => entry.name.split(" ").every((part, i) => words[i] === part)) ?? null;
}

/** The entries of a group: `help daemon` → daemon status, daemon start, daemon stop. */
function groupEntries(word: string): HelpEntry[] {
  return helpEntries().filter((entry) => entry.name.startsWith(`${word} `));
}

function groupHelp(word: string, entries: HelpEntry[]): string {
  const parts = entries.map((entry) => {
    const flags = describeFlags(entry.flags);
    return `usage: tuiwright ${entry.usage}\n  ${entry.summary}${flags ? `\n${flags}` : ""}`;
  });
  return `tuiwright ${word}: ${entries.map((e) => e.name.slice(word.length + 1)).join(", ")}\n\n${parts.join("\n\n")}\n\n${GLOBAL_HELP}`;
}

/** The first words of every command, for "did you mean". */
const topWords = () => [...new Set([...helpEntries().map((entry) => entry.name.split(" ")[0]!), "help", "version"])];

/** A usage error for words that name no verb, with the closest verb when it looks like a typo. */
function unknownVerb(words: string[]): Error {
  const group = groupEntries(words[0] ?? "");
  if (group.length > 0) {
    const subs = group.map((e) => e.name.split(" ")[1]!);
    return usage(`unknown ${words[0]} verb ${JSON.stringify(words[1] ?? "")}: one of ${subs.join(", ")}${words[1] ? didYouMean(words[1], subs) : ""}`, `run \`tuiwright help ${words[0]}\``);
  }
  return usage(`unknown verb ${JSON.stringify(words[0] ?? "")}${didYouMean(words[0] ?? "", topWords())}`);
}

function helpJson(entry: HelpEntry): Record<string, unknown> {
  return { name: entry.name, summary: entry.summary, usage: `tuiwright ${entry.usage}`, method: entry.method ?? null, flags: entry.flags };
}

function generalHelp(): string {
  const width = Math.max(...helpEntries().map((v) => v.name.length));
  return [
    `tuiwright ${version()}: drive terminal programs on pseudo-terminals, for agents and CI`,
    "",
    "usage: tuiwright VERB [FLAGS] [ARGS]",
    "",
    "Verbs:",
    ...helpEntries().map((v) => `  ${v.name.padEnd(width)}  ${v.summary}`),
    `  ${"help VERB".padEnd(width)}  flags of one verb (help GROUP: every daemon, adapter or lease verb)`,
    `  ${"help selectors".padEnd(width)}  the selector language`,
    `  ${"help --markdown".padEnd(width)}  all of this as Markdown (docs/CLI.md)`,
    "",
    GLOBAL_HELP,
    "",
    "Exit codes: 0 ok, 1 expectation not met, 64 usage, 65 bad data, 66 no such session/file,",
    "69 unavailable/exited, 70 internal, 74 I/O, 75 busy (retry), 77 permission, 124 wait timed out.",
  ].join("\n");
}

async function printError(error: TuiwrightError, mode: OutputMode, verb: HelpEntry | null): Promise<void> {
  if (mode === "json") {
    await printOut(inertJson({ error: error.toJsonRpc() }));
    return;
  }
  const lines = [`tuiwright: ${error.message}`];
  const excerpt = error.details.excerpt;
  if (typeof excerpt === "string" && excerpt.trim() !== "") lines.push("screen (last rows):", ...excerpt.split("\n").map((row) => `  | ${row}`));
  lines.push(`hint: ${error.hint}`);
  if (error.errorName === "usage" && verb) lines.push(`usage: tuiwright ${verb.usage}`);
  // A message may quote what a program printed: inert on a terminal, like stdout.
  await printErr(forTerminal(lines.join("\n"), "stderr"));
}

/** The façade's words with the global flags that were taken out of them put back, before any `--`. */
function awiWords(words: string[], globals: Globals): string[] {
  const flags = [
    ...(globals.mode === "json" ? ["--json"] : globals.mode === "plain" ? ["--plain"] : []),
    ...(globals.help ? ["--help"] : []),
    ...(globals.session !== undefined ? ["--session", globals.session] : []),
    ...(globals.lease !== undefined ? ["--lease", globals.lease] : []),
  ];
  const end = words.indexOf("--");
  return end === -1 ? [...words, ...flags] : [...words.slice(0, end), ...flags, ...words.slice(end)];
}

/** Answers that need no daemon: listing or stopping when none runs. A daemon that died without
 * shutting down left its ledger: `list` names those sessions as lost (the next daemon kills
 * their leftover programs). */
function withoutDaemon(verb: Verb, mode: OutputMode, socketPath: string): string | null {
  if (verb.method === "list") {
    cleanUpDeadDaemon(socketPath, false);
    const lost = peekLost(socketPath);
    if (mode === "json") return JSON.stringify({ sessions: [], current: null, lost });
    if (mode === "plain") return "";
    return formatList({ sessions: [], current: null, lost }).replace(/^no sessions/, "no sessions (no daemon running)");
  }
  if (verb.method === "daemon.stop") {
    const { staleSocket, lost } = cleanUpDeadDaemon(socketPath, true);
    const killed = lost.filter((s) => s.killed).length;
    if (mode === "json") return JSON.stringify({ stopped: true, sessionsKilled: killed, ...(staleSocket || lost.length > 0 ? { cleanedUp: { staleSocket, lost } } : {}) });
    if (mode === "plain") return "";
    if (!staleSocket && lost.length === 0) return "no daemon running";
    return `no daemon running; cleaned up after a dead one: ${staleSocket ? "stale socket removed" : "no socket"}, ${lost.length} lost session(s), ${killed} leftover program(s) killed`;
  }
  return null;
}

export async function runCli(args: string[]): Promise<number> {
  let mode: OutputMode = "human";
  // The words naming the verb whose usage a usage error shows: its help entry is looked up then,
  // so a call that succeeds never builds the help table.
  let usageOf: string[] | null = null;
  try {
    const { globals, rest } = extractGlobals(args);
    mode = globals.mode;
    if (globals.version || rest[0] === "version") { await printOut(version()); return 0; }
    if (rest[0] === "help" && rest.length === 2 && TOPICS[rest[1]!]) { await printOut(TOPICS[rest[1]!]!); return 0; }
    if (rest[0] === "completion" || rest[0] === "man" || (rest[0] === "skill" && rest.length > 1)) {
      const docs: typeof import("../../entries/docs.ts") = await import(entryPoint("entries/docs.ts"));
      if (rest[0] === "completion") {
        const shell = rest[1];
        if (rest.length !== 2 || (shell !== "bash" && shell !== "zsh" && shell !== "fish")) {
          throw usage(`completion needs one shell: bash, zsh or fish${shell ? `; got ${JSON.stringify(rest.slice(1).join(" "))}` : ""}`, "run `tuiwright help completion`");
        }
        await printOut(docs.completion(shell));
        return 0;
      }
      if (rest[0] === "man") {
        if (rest.length > 1) throw usage(`man takes no arguments; got ${JSON.stringify(rest[1])}`);
        await printOut(docs.man());
        return 0;
      }
      usageOf = ["skill"];
      const parsed = parseFlags(rest.slice(1), findHelp(usageOf)!.flags, "skill");
      if (parsed.positionals.length > 0 || parsed.rest) throw usage(`skill takes no arguments; got ${JSON.stringify(parsed.positionals[0] ?? "--")}`, "usage: tuiwright skill [--install DIR]");
      const file = docs.installSkill(parsed.flags.get("--install") as string);
      await printOut(mode === "json" ? JSON.stringify({ installed: file }) : mode === "plain" ? file : `installed ${file}`);
      return 0;
    }
    if (rest[0] === "agent-context" || rest[0] === "skill" || (rest[0] === "help" && rest[1] === "--markdown")) {
      if (rest.length > (rest[0] === "help" ? 2 : 1)) throw usage(`${rest[0]} takes no arguments`);
      const docs: typeof import("../../entries/docs.ts") = await import(entryPoint("entries/docs.ts"));
      await printOut(rest[0] === "agent-context" ? docs.agentContext() : rest[0] === "skill" ? docs.skill() : docs.markdownHelp());
      return 0;
    }
    if (rest[0] === "help" && rest.length === 2 && !findHelp(rest.slice(1)) && groupEntries(rest[1]!).length > 0) {
      const group = groupEntries(rest[1]!);
      await printOut(mode === "json" ? JSON.stringify({ group: rest[1], verbs: group.map(helpJson) }) : groupHelp(rest[1]!, group));
      return 0;
    }
    if (rest[0] === "help" && mode === "json") {
      const named = rest.length > 1 ? findHelp(rest.slice(1)) : null;
      if (rest.length > 1 && !named) throw usage(`no verb named ${JSON.stringify(rest.slice(1).join(" "))}${didYouMean(rest[1]!, topWords())}`);
      await printOut(JSON.stringify(named ? helpJson(named) : { version: version(), globalFlags: GLOBAL_FLAGS, verbs: helpEntries().map(helpJson), topics: Object.keys(TOPICS) }));
      return 0;
    }
    if (rest.length === 0 || rest[0] === "help") {
      const named = rest.length > 1 ? findHelp(rest.slice(1)) : null;
      if (rest.length > 1 && !named) throw usage(`no verb named ${JSON.stringify(rest.slice(1).join(" "))}${didYouMean(rest[1]!, topWords())}`);
      const help = named ? verbHelp(named) : generalHelp();
      if (rest.length === 0 && !globals.help) { await printErr(help); return 64; }
      await printOut(help);
      return 0;
    }
    // `tuiwright --ns X awi …`: the façade, on that namespace's daemon, with the global flags
    // it shares (--json, --plain, --help) handed back to it.
    if (rest[0] === "awi") return (await commands()).runAwiTty(awiWords(rest.slice(1), globals), { ...process.env, TUIWRIGHT_NS: daemonTarget(globals).namespace });
    usageOf = rest;
    const asked = globals.help ? findHelp(rest) : null;
    if (asked) { await printOut(verbHelp(asked)); return 0; }
    const local = findLocalCommand(rest);
    if (local) return await local.command.run(rest.slice(local.width), globals);

    if (!findVerb(rest)) throw unknownVerb(rest);
    const prepared = prepare(rest, globals);
    const { verb } = prepared;
    let rpc;
    try {
      rpc = await connectDaemon(daemonTarget(globals), { autoStart: verb.autoStart ?? false });
    } catch (error) {
      const fallback = asTuiwrightError(error).errorName === "daemon-unavailable" ? withoutDaemon(verb, mode, daemonTarget(globals).socketPath) : null;
      if (fallback === null) throw error;
      await printOut(fallback);
      return 0;
    }
    try {
      const { output, exitCode } = verb.method === "exec" && prepared.args.flags.has("--follow") ? await (await commands()).execFollow(rpc, prepared) : await perform(rpc, prepared, mode);
      await printOut(output);
      return exitCode;
    } finally {
      rpc.close();
    }
  } catch (error) {
    const failure = asTuiwrightError(error);
    await printError(failure, mode, usageOf && failure.errorName === "usage" ? findHelp(usageOf) : null);
    return failure.exitCode;
  }
}
