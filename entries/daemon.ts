// Entry point of `tuiwright daemon run [--ns NAME] [--idle-timeout MS]`: the daemon in the
// foreground (the CLI starts it this way; it can also run under a supervisor). It is its own
// entry point in the binary so that the CLI never loads the daemon, xterm or valibot.
import { TuiwrightError } from "../lib/protocol/errors.ts";
import { defaultSocketPath, namespaceFromEnv } from "../lib/runtime/paths.ts";
import { parseFlags } from "../lib/cli/flags.ts";
import { runDaemon } from "../lib/daemon/daemon.ts";

const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;

export async function runDaemonFromArgs(args: string[]): Promise<number> {
  try {
    const parsed = parseFlags(args, [
      { name: "--ns", type: "string", value: "NAME", description: "namespace" },
      { name: "--idle-timeout", type: "int", value: "MS", description: "exit after MS ms with no sessions and no clients (0: never)" },
    ], "daemon run");
    if (parsed.positionals.length > 0) throw new TuiwrightError("usage", `daemon run takes no arguments; got ${JSON.stringify(parsed.positionals[0])}`);
    const namespace = namespaceFromEnv(parsed.flags.get("--ns") as string | undefined);
    const envIdle = process.env.TUIWRIGHT_IDLE_TIMEOUT_MS;
    if (envIdle && /^\d+$/.test(envIdle) && Number(envIdle) > 2 ** 31 - 1) {
      throw new TuiwrightError("usage", `TUIWRIGHT_IDLE_TIMEOUT_MS must be at most 2147483647 ms (the timer limit), got ${envIdle}`);
    }
    const idleTimeoutMs = (parsed.flags.get("--idle-timeout") as number | undefined) ?? (envIdle && /^\d+$/.test(envIdle) ? Number(envIdle) : DEFAULT_IDLE_TIMEOUT_MS);
    return await runDaemon({
      namespace,
      socketPath: defaultSocketPath(namespace),
      idleTimeoutMs,
      debug: process.env.TUIWRIGHT_DEBUG === "1",
    });
  } catch (error) {
    const failure = error instanceof TuiwrightError ? error : new TuiwrightError("internal", String(error));
    process.stderr.write(`tuiwright daemon: ${failure.message}\n`);
    process.stdout.write(`error ${failure.message}\n`);
    return failure.exitCode;
  }
}
