// `tuiwright batch`: many commands from stdin — one command line per line, or a JSON array of
// command lines (strings) or argument lists — in one process over one connection. Each prints
// one JSON line: {"line", "ok": true, "result"} or {"line", "ok": false, "exit", "error"}.
import { asTuiwrightError, TuiwrightError } from "../protocol/errors.ts";
import { printOut, readStdin } from "../runtime/stdio.ts";
import { inertJson } from "../present/inert-text.ts";
import { connectDaemon } from "../transport/daemon-connection.ts";
import type { RpcClient } from "../transport/rpc-client.ts";
import { BATCH_HELP } from "./command-help.ts";
import { parseFlags } from "./flags.ts";
import { perform } from "./perform.ts";
import { daemonTarget, extractGlobals, type Globals, prepare, usage } from "./invocation.ts";
import { splitWords } from "./words.ts";

type Command = { line: number; words: string[] };

function parseCommands(input: string): Command[] {
  const trimmed = input.trim();
  if (trimmed.startsWith("[")) {
    let items: unknown;
    try {
      items = JSON.parse(trimmed);
    } catch (error) {
      throw new TuiwrightError("bad-data", `batch: stdin is not valid JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(items)) throw new TuiwrightError("bad-data", "batch: the JSON must be an array");
    return items.map((item, i) => {
      const where = `batch item ${i + 1}`;
      if (typeof item === "string") return { line: i + 1, words: splitWords(item, where) };
      if (Array.isArray(item) && item.every((word) => typeof word === "string")) return { line: i + 1, words: item as string[] };
      throw new TuiwrightError("bad-data", `${where}: expected a command line string or an array of strings`);
    });
  }
  return input.split("\n").flatMap((text, i) => {
    const words = splitWords(text, `batch line ${i + 1}`);
    return words.length > 0 ? [{ line: i + 1, words }] : [];
  });
}

/** Which local command (not a daemon call) the words name, if any. */
export type LocalCommandName = (words: string[]) => string | null;

/** The line's JSON result and its exit code (non-zero for `exec --propagate` of a failed command):
 * the same prepare-and-perform a single command runs. */
async function runOne(rpc: () => Promise<RpcClient>, command: Command, globals: Globals, localName: LocalCommandName): Promise<{ result: unknown; exitCode: number }> {
  const { globals: lineGlobals, rest } = extractGlobals(command.words, globals);
  if (lineGlobals.namespace !== globals.namespace) throw usage("a batch line cannot change --ns");
  const local = localName(rest);
  if (local !== null) throw usage(`${local} is not a daemon call and cannot run inside a batch; run \`tuiwright ${local}\` as a command of its own`);
  const prepared = prepare(rest, lineGlobals);
  const { output, exitCode } = await perform(await rpc(), prepared, "json");
  return { result: JSON.parse(output), exitCode };
}

export async function runBatch(args: string[], globals: Globals, localName: LocalCommandName): Promise<number> {
  const parsed = parseFlags(args, BATCH_HELP.flags, "batch");
  if (parsed.positionals.length > 0) throw usage(`batch takes no arguments; got ${JSON.stringify(parsed.positionals[0])}`);
  const bail = parsed.flags.has("--bail");
  const commands = parseCommands(await readStdin());
  if (commands.length === 0) throw usage("batch: no commands on stdin");

  const spawns = commands.some((command) => extractGlobals(command.words, globals).rest[0] === "spawn");
  // Connected at the first line that needs the daemon: lines refused before that cost nothing.
  const daemon: { connection: Promise<RpcClient> | null } = { connection: null };
  const rpc = () => (daemon.connection ??= connectDaemon(daemonTarget(globals), { autoStart: spawns }));
  let firstFailure = 0;
  try {
    for (const command of commands) {
      try {
        const { result, exitCode } = await runOne(rpc, command, globals, localName);
        await printOut(inertJson({ line: command.line, ok: true, result, ...(exitCode !== 0 ? { exit: exitCode } : {}) }));
        firstFailure ||= exitCode;
        if (bail && exitCode !== 0) break;
      } catch (error) {
        const failure = asTuiwrightError(error);
        firstFailure ||= failure.exitCode;
        await printOut(inertJson({ line: command.line, ok: false, exit: failure.exitCode, error: failure.toJsonRpc() }));
        if (bail) break;
      }
    }
  } finally {
    if (daemon.connection) (await daemon.connection.catch(() => null))?.close();
  }
  return firstFailure;
}
