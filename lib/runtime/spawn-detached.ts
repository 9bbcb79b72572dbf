// Starting the daemon detached from the client that needed it (its own session, so it
// outlives the client); kept apart from process.ts so the CLI loads nothing else.
import { fsConstants, openSync } from "./node-fs.ts";

export type DetachedProcess = { pid: number; stdout: ReadableStream<Uint8Array>; exited: Promise<number>; unref(): void };

/** Starts a process in its own session, stderr appended to a log file, stdout piped to us. */
export function spawnDetached(argv: string[], env: Record<string, string | undefined>, logPath: string): DetachedProcess {
  // Never through a symlink: the log is in our verified state directory, and stays ours.
  const constants = fsConstants();
  const log = openSync(logPath, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: log, env, detached: true });
  return { pid: proc.pid, stdout: proc.stdout, exited: proc.exited, unref: () => proc.unref() };
}
