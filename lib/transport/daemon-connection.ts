// Finding the daemon: check the socket's safety, connect, and start the daemon if asked to.
// The client's version travels in every request envelope; the daemon refuses a mismatch
// before running anything, so there is no handshake round trip.
import { TuiwrightError } from "../protocol/errors.ts";
import { stateLocation } from "../runtime/paths.ts";
import { ensureOwnedDir } from "../runtime/owned-dir.ts";
import { spawnDetached } from "../runtime/spawn-detached.ts";
import { selfCommand, version } from "../runtime/self.ts";
import { RpcClient } from "./rpc-client.ts";
import { checkSocketDir, checkSocketFile } from "./socket-security.ts";
import { checkSocketPathLength } from "./socket-path-length.ts";
import { setting } from "../runtime/settings.ts";

export type DaemonTarget = { namespace: string; socketPath: string };

const START_TIMEOUT_MS = 10_000;
/** A daemon that answers no ping for this long is taken as stopped or wedged (exit 69). */
const ANSWER_TIMEOUT_MS = 15_000;

function answerTimeout(): number {
  return setting("answerTimeoutMs") ?? ANSWER_TIMEOUT_MS;
}

function isNobodyListening(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === "ENOENT" || code === "ECONNREFUSED";
}

async function connectChecked(target: DaemonTarget, checkVersion: boolean): Promise<RpcClient> {
  checkSocketPathLength(target.socketPath);
  checkSocketDir(target.socketPath, { create: false });
  checkSocketFile(target.socketPath);
  const answerTimeoutMs = answerTimeout();
  return RpcClient.connect(target.socketPath, checkVersion ? { clientVersion: version(), answerTimeoutMs } : { answerTimeoutMs });
}

/** `checkVersion: false` for the library, which checks the protocol version itself;
 * `daemonCommand`: what to run as `… daemon run` (default: this program). */
export async function connectDaemon(target: DaemonTarget, options: { autoStart: boolean; checkVersion?: boolean; daemonCommand?: string[] }): Promise<RpcClient> {
  const checkVersion = options.checkVersion ?? true;
  let client: RpcClient;
  try {
    client = await connectChecked(target, checkVersion);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EACCES" || code === "EPERM") {
      throw new TuiwrightError("permission", `cannot connect to ${target.socketPath}: permission denied (it belongs to another user)`);
    }
    if (!isNobodyListening(error)) throw error;
    if (!options.autoStart) {
      throw new TuiwrightError("daemon-unavailable", `no daemon is running for namespace ${JSON.stringify(target.namespace)} (socket ${target.socketPath})`, {
        hint: "`tuiwright spawn` starts it, or `tuiwright daemon start`",
      });
    }
    await startDaemon(target, options.daemonCommand);
    client = await connectChecked(target, checkVersion);
  }
  return client;
}

/** Starts the daemon and returns once it prints its ready line (or another one won the race). */
export async function startDaemon(target: DaemonTarget, command: string[] = selfCommand()): Promise<void> {
  const state = ensureOwnedDir(stateLocation(target.namespace), "state directory");
  const logPath = `${state}/daemon.log`;
  const child = spawnDetached(
    [...command, "daemon", "run"],
    { ...process.env, TUIWRIGHT_NS: target.namespace, TUIWRIGHT_SOCKET: target.socketPath },
    logPath,
  );
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let output = "";
  const timer = setTimeout(() => void reader.cancel(), START_TIMEOUT_MS);
  try {
    while (!output.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      output += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
    child.unref();
  }
  if (output.startsWith("ready") || output.startsWith("already-running")) return;
  throw new TuiwrightError("daemon-unavailable", `the daemon did not start${output ? `: ${output.trim()}` : ""}`, {
    hint: `see its log: ${logPath}`,
  });
}
