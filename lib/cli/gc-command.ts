// `tuiwright gc [--keep N] [--keep-days D] [--dry-run]`: applies the retention policy to this
// namespace's recordings, shell transcripts and rc directories now (the daemon also applies it
// when it starts). Sessions a running daemon still has are left alone. Also removes the token
// files of `serve --http` servers that are no longer running (killed before they could).
import { stateDir } from "../runtime/paths.ts";
import { removeStaleServeTokens } from "../runtime/serve-token-file.ts";
import { printOut } from "../runtime/stdio.ts";
import { asTuiwrightError } from "../protocol/errors.ts";
import { connectDaemon } from "../transport/daemon-connection.ts";
import { applyRetention } from "../record/retention.ts";
import { retentionPolicy } from "../record/retention-config.ts";
import { configFilePath } from "../runtime/config-file.ts";
import { parseFlags } from "./flags.ts";
import { GC_HELP } from "./command-help.ts";
import { daemonTarget, type Globals, usage } from "./invocation.ts";

/** The names of the sessions a running daemon has (none when no daemon runs). */
async function liveSessions(globals: Globals): Promise<Set<string>> {
  let rpc;
  try {
    rpc = await connectDaemon(daemonTarget(globals), { autoStart: false });
  } catch (error) {
    if (asTuiwrightError(error).errorName === "daemon-unavailable" && /no daemon is running/.test(asTuiwrightError(error).message)) return new Set();
    throw error;
  }
  try {
    const listed = (await rpc.call("list", {})) as { sessions: { name: string }[] };
    return new Set(listed.sessions.map((s) => s.name));
  } finally {
    rpc.close();
  }
}

function megabytes(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}

export async function runGc(args: string[], globals: Globals): Promise<number> {
  const parsed = parseFlags(args, GC_HELP.flags, "gc");
  if (parsed.positionals.length > 0 || parsed.rest) throw usage(`gc takes no arguments; got ${JSON.stringify(parsed.positionals[0] ?? "--")}`, "run `tuiwright help gc`");
  const policy = retentionPolicy(configFilePath(), {
    keep: parsed.flags.get("--keep") as number | undefined,
    keepDays: parsed.flags.get("--keep-days") as number | undefined,
  });
  for (const [flag, value] of [["--keep", policy.keep], ["--keep-days", policy.keepDays]] as const) {
    if (value < 0) throw usage(`${flag} must be ≥ 0 (0: no limit); got ${value}`, "run `tuiwright help gc`");
  }
  const state = stateDir(daemonTarget(globals).namespace);
  const dryRun = parsed.flags.get("--dry-run") === true;
  const result = applyRetention(state, policy, { live: await liveSessions(globals), dryRun });
  const staleTokens = removeStaleServeTokens(state, dryRun);
  if (globals.mode === "json") {
    await printOut(JSON.stringify({ dir: state, dryRun, config: configFilePath(), ...result, staleServeTokens: staleTokens }));
  } else if (globals.mode === "plain") {
    await printOut([...result.removed.map((r) => r.path), ...staleTokens].join("\n"));
  } else {
    const verb = dryRun ? "would remove" : "removed";
    const limits = `keep ${policy.keep || "all"}, keep-days ${policy.keepDays || "no limit"}`;
    await printOut([
      ...staleTokens.map((path) => `${verb} ${path} (serve token; its server is no longer running)`),
      ...result.removed.map((r) => `${verb} ${r.path} (${r.kind}, ${megabytes(r.bytes)}, ${r.reason === "count" ? "beyond the newest" : "older than the limit"})`),
      `${verb} ${result.removed.length} item(s), ${megabytes(result.bytesFreed)}; kept ${result.kept} in ${state} (${limits})`,
    ].join("\n"));
  }
  return 0;
}
