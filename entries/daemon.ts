// Entry point of `tuiwright daemon run [--ns NAME] [--idle-timeout MS]`: the daemon in the
// foreground (the CLI starts it this way; it can also run under a supervisor). It is its own
// entry point in the binary so that the CLI never loads the daemon, xterm or valibot.
import { TuiwrightError } from "../lib/protocol/errors.ts";
import { defaultSocketPath, namespaceFromEnv } from "../lib/runtime/paths.ts";
import { parseFlags } from "../lib/cli/flags.ts";
import { runDaemon } from "../lib/daemon/daemon.ts";
import { stateDir } from "../lib/runtime/paths.ts";
import { applyRetention, DEFAULT_RETENTION, type RetentionPolicy } from "../lib/record/retention.ts";
import { retentionPolicy } from "../lib/record/retention-config.ts";
import { configFilePath } from "../lib/runtime/config-file.ts";
import { setting } from "../lib/runtime/settings.ts";

/** The retention policy in force. A bad one is logged, not fatal: sessions matter more than
 * cleaning up; retention is then not applied, and recordings keep the default size cap. */
function policyAtStart(flags: Partial<RetentionPolicy>): RetentionPolicy | null {
  try {
    return retentionPolicy(configFilePath(), flags);
  } catch (error) {
    process.stderr.write(`tuiwright daemon: retention not applied: ${(error as Error).message}\n`);
    return null;
  }
}

/** The retention policy, applied before any session exists (so nothing live is touched). */
function retainAtStart(namespace: string, policy: RetentionPolicy | null, lostSessions: string[]): void {
  if (!policy) return;
  try {
    const result = applyRetention(stateDir(namespace), policy, { live: new Set(lostSessions) });
    if (result.removed.length > 0) {
      process.stderr.write(`tuiwright daemon: retention removed ${result.removed.length} old recording(s)/transcript(s), ${result.bytesFreed} bytes (keep ${result.policy.keep}, keep-days ${result.policy.keepDays})\n`);
    }
  } catch (error) {
    process.stderr.write(`tuiwright daemon: retention not applied: ${(error as Error).message}\n`);
  }
}

const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;

export async function runDaemonFromArgs(args: string[]): Promise<number> {
  const flags = [
    { name: "--ns", type: "string", value: "NAME", description: "namespace" },
    { name: "--idle-timeout", type: "int", value: "MS", description: "exit after MS ms with no sessions and no clients (0: never)" },
    { name: "--keep", type: "int", value: "N", description: "retention: keep the newest N recordings (0: no limit)" },
    { name: "--keep-days", type: "int", value: "D", description: "retention: delete recordings older than D days (0: no limit)" },
    { name: "--max-cast-bytes", type: "int", value: "N", description: "cap each recording at N bytes (0: no limit; default 256 MiB)" },
  ] as const;
  if (args.includes("--help") || args.includes("-h")) {
    // The daemon is started by the CLI; run by hand, it says what it is and takes.
    const lines = flags.map((flag) => `  ${`${flag.name} ${flag.value}`.padEnd(22)}${flag.description}`);
    process.stdout.write(`usage: tuiwright daemon run [--ns NAME] [--idle-timeout MS] [--keep N] [--keep-days D] [--max-cast-bytes N]\n\nruns the daemon in the foreground (the CLI starts it on first use; \`tuiwright daemon start\` does too)\n\n${lines.join("\n")}\n`);
    return 0;
  }
  try {
    const parsed = parseFlags(args, [...flags], "daemon run");
    if (parsed.positionals.length > 0) throw new TuiwrightError("usage", `daemon run takes no arguments; got ${JSON.stringify(parsed.positionals[0])}`);
    const namespace = namespaceFromEnv(parsed.flags.get("--ns") as string | undefined);
    const idleTimeoutMs = (parsed.flags.get("--idle-timeout") as number | undefined) ?? setting("idleTimeoutMs") ?? DEFAULT_IDLE_TIMEOUT_MS;
    const policy = policyAtStart({
      keep: parsed.flags.get("--keep") as number | undefined,
      keepDays: parsed.flags.get("--keep-days") as number | undefined,
      maxCastBytes: parsed.flags.get("--max-cast-bytes") as number | undefined,
    });
    return await runDaemon({
      atStart: (lost) => retainAtStart(namespace, policy, lost),
      maxCastBytes: policy?.maxCastBytes ?? DEFAULT_RETENTION.maxCastBytes,
      namespace,
      socketPath: defaultSocketPath(namespace),
      idleTimeoutMs,
      debug: setting("debug") === true,
    });
  } catch (error) {
    const failure = error instanceof TuiwrightError ? error : new TuiwrightError("internal", String(error));
    process.stderr.write(`tuiwright daemon: ${failure.message}\n`);
    process.stdout.write(`error ${failure.message}\n`);
    return failure.exitCode;
  }
}
