// The thin CLI: global flags, verb lookup, one call to the daemon, output and exit code.
// It loads neither xterm nor valibot, so a snapshot costs little more than process start.
import { asTuiwrightError, type TuiwrightError } from "../protocol/errors.ts";
import { version } from "../runtime/self.ts";
import { printErr, printOut } from "../runtime/stdio.ts";
import { connectDaemon } from "../transport/daemon-connection.ts";
import { peekLost } from "../daemon/session-ledger.ts";
import { formatList } from "./output.ts";
import { runBatch } from "./batch-command.ts";
import { runEvents } from "./events-command.ts";
import { runCasts } from "./casts-command.ts";
import { runRun } from "./run-command.ts";
import { runAsk } from "./ask-command.ts";
import { entryPoint } from "../runtime/self.ts";
import { saveSnapshot, writeSnapshotOut } from "./save-snapshot.ts";
import type { Result } from "../protocol/methods.ts";
import { describeFlags } from "./flags.ts";
import { HELP, type HelpEntry } from "./help-entries.ts";
import { TOPICS } from "./help-topics.ts";
import { daemonTarget, extractGlobals, GLOBAL_HELP, prepare, usage } from "./invocation.ts";
import type { OutputMode, Verb } from "./verbs.ts";

const STOP_WAIT_MS = 5000;

function verbHelp(verb: HelpEntry): string {
  const flags = describeFlags(verb.flags);
  return `usage: tuiwright ${verb.usage}\n\n${verb.summary}\n${flags ? `\nFlags:\n${flags}\n` : ""}\n${GLOBAL_HELP}`;
}

function findHelp(words: string[]): HelpEntry | null {
  return HELP.find((entry) => entry.name.split(" ").every((part, i) => words[i] === part)) ?? null;
}

function generalHelp(): string {
  const width = Math.max(...HELP.map((v) => v.name.length));
  return [
    `tuiwright ${version()}: drive terminal programs on pseudo-terminals, for agents and CI`,
    "",
    "usage: tuiwright VERB [FLAGS] [ARGS]",
    "",
    "Verbs:",
    ...HELP.map((v) => `  ${v.name.padEnd(width)}  ${v.summary}`),
    `  ${"help VERB".padEnd(width)}  flags of one verb`,
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
    await printOut(JSON.stringify({ error: error.toJsonRpc() }));
    return;
  }
  const lines = [`tuiwright: ${error.message}`];
  const excerpt = error.details.excerpt;
  if (typeof excerpt === "string" && excerpt.trim() !== "") lines.push("screen (last rows):", ...excerpt.split("\n").map((row) => `  | ${row}`));
  lines.push(`hint: ${error.hint}`);
  if (error.errorName === "usage" && verb) lines.push(`usage: tuiwright ${verb.usage}`);
  await printErr(lines.join("\n"));
}

/** Answers that need no daemon: listing or stopping when none runs. A daemon that died without
 * shutting down left its ledger: `list` names those sessions as lost (the next daemon kills
 * their leftover programs). */
function withoutDaemon(verb: Verb, mode: OutputMode, socketPath: string): string | null {
  if (verb.method === "list") {
    const lost = peekLost(socketPath);
    if (mode === "json") return JSON.stringify({ sessions: [], current: null, lost });
    if (mode === "plain") return "";
    return formatList({ sessions: [], current: null, lost }).replace(/^no sessions/, "no sessions (no daemon running)");
  }
  if (verb.method === "daemon.stop") return mode === "json" ? JSON.stringify({ stopped: true, sessionsKilled: 0 }) : mode === "plain" ? "" : "no daemon running";
  return null;
}

export async function runCli(args: string[]): Promise<number> {
  let mode: OutputMode = "human";
  let helpEntry: HelpEntry | null = null;
  try {
    const { globals, rest } = extractGlobals(args);
    mode = globals.mode;
    if (globals.version || rest[0] === "version") { await printOut(version()); return 0; }
    if (rest[0] === "help" && rest.length === 2 && TOPICS[rest[1]!]) { await printOut(TOPICS[rest[1]!]!); return 0; }
    if (rest[0] === "agent-context" || rest[0] === "skill" || (rest[0] === "help" && rest[1] === "--markdown")) {
      if (rest.length > (rest[0] === "help" ? 2 : 1)) throw usage(`${rest[0]} takes no arguments`);
      const docs: typeof import("../../entries/docs.ts") = await import(entryPoint("entries/docs.ts"));
      await printOut(rest[0] === "agent-context" ? docs.agentContext() : rest[0] === "skill" ? docs.skill() : docs.markdownHelp());
      return 0;
    }
    if (rest.length === 0 || rest[0] === "help") {
      const named = rest.length > 1 ? findHelp(rest.slice(1)) : null;
      if (rest.length > 1 && !named) throw usage(`no verb named ${JSON.stringify(rest.slice(1).join(" "))}`);
      const help = named ? verbHelp(named) : generalHelp();
      if (rest.length === 0 && !globals.help) { await printErr(help); return 64; }
      await printOut(help);
      return 0;
    }
    helpEntry = findHelp(rest);
    if (globals.help && helpEntry) { await printOut(verbHelp(helpEntry)); return 0; }
    if (rest[0] === "events") return await runEvents(rest.slice(1), globals);
    if (rest[0] === "casts") return await runCasts(rest.slice(1), globals);
    if (rest[0] === "run") return await runRun(rest.slice(1), globals);
    if (rest[0] === "ask") return await runAsk(rest.slice(1), globals);
    if (rest[0] === "mcp") {
      if (rest.length > 1) throw usage(`mcp takes no arguments; got ${JSON.stringify(rest[1])}`);
      if (globals.namespace) process.env.TUIWRIGHT_NS = globals.namespace;
      const mcp: typeof import("../../entries/mcp.ts") = await import(entryPoint("entries/mcp.ts"));
      return await mcp.runMcp();
    }
    if (rest[0] === "replay" || rest[0] === "report" || (rest[0] === "adapter" && rest[1] === "test")) {
      const offline: typeof import("../../entries/replay.ts") = await import(entryPoint("entries/replay.ts"));
      if (rest[0] === "replay") return await offline.runReplay(rest.slice(1), mode);
      if (rest[0] === "report") return await offline.runReport(rest.slice(1), mode);
      return await offline.runAdapterTest(rest.slice(2), mode);
    }
    if (rest[0] === "batch") return await runBatch(rest.slice(1), globals);

    const { verb, params, save, out, args: parsedArgs } = prepare(rest, globals);
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
      if (save) {
        await printOut(await saveSnapshot(rpc, params, save, mode));
        return 0;
      }
      const result = await rpc.call(verb.method, params);
      // `daemon stop` returns once the daemon has exited: its connections close as it dies.
      if (verb.method === "daemon.stop") await Promise.race([rpc.closed, new Promise((r) => setTimeout(r, STOP_WAIT_MS))]);
      if (out) {
        await printOut(writeSnapshotOut(out, result as Result<"snapshot">, mode));
        return 0;
      }
      await printOut(mode === "json" ? JSON.stringify(result) : verb.show(result, mode));
      return verb.exitCode?.(result, parsedArgs) ?? 0;
    } finally {
      rpc.close();
    }
  } catch (error) {
    const failure = asTuiwrightError(error);
    await printError(failure, mode, helpEntry);
    return failure.exitCode;
  }
}
