// A test World's daemon, started through `sh` so that it is not a child of the test process:
// when one test of a file times out, bun kills every process the file has started — the daemon
// its beforeAll started included (oven-sh/bun#38774) — and every later test of the file then
// fails for want of a socket. `sh` ignores that SIGTERM, starts the daemon in the background,
// reports its pid, waits for it and reports its exit status, all on the daemon's own stdout
// pipe (whose end also tells us the daemon is gone, should `sh` be killed outright).
import type { Subprocess } from "bun";

const WRAPPER = `trap '' TERM; "$0" daemon run & echo "pid $!"; wait $!; echo "exit $?"`;

export class DaemonProcess {
  readonly pid: number;
  /** null while it runs; its exit status after (128 + N for signal N, as sh reports it). */
  exitCode: number | null = null;
  /** Resolves with the exit status once the daemon is gone (null if `sh` was killed first). */
  readonly exited: Promise<number | null>;

  private constructor(pid: number, exited: Promise<number | null>) {
    this.pid = pid;
    this.exited = exited.then((code) => (this.exitCode = code));
  }

  kill(signal: NodeJS.Signals = "SIGTERM"): void {
    process.kill(this.pid, signal);
  }

  /** Starts `bin daemon run` with `env` (stderr to `logFd`); resolves at its first line (`ready …`
   * when it started) with the daemon, or null and that line when it did not. */
  static async start(bin: string, env: Record<string, string>, logFd: number): Promise<{ daemon: DaemonProcess | null; line: string }> {
    const shell: Subprocess<"ignore", "pipe", number> = Bun.spawn(["sh", "-c", WRAPPER, bin], { env, stdin: "ignore", stdout: "pipe", stderr: logFd });
    const lines = readLines(shell.stdout);
    // Read by hand: leaving a for-await loop early would close the stream the exit status comes on.
    let pid: number | null = null;
    let line: string | null = null;
    while (pid === null || line === null) {
      const next = await lines.next();
      if (next.done) break;
      const started = /^pid (\d+)$/.exec(next.value);
      if (started && pid === null) pid = Number(started[1]);
      else line ??= next.value;
    }
    if (pid === null || line === null || !line.startsWith("ready")) {
      await shell.exited;
      return { daemon: null, line: line ?? "" };
    }
    const exited = (async () => {
      let code: number | null = null;
      for await (const next of lines) {
        const ended = /^exit (\d+)$/.exec(next);
        if (ended) code = Number(ended[1]);
      }
      return code;
    })();
    return { daemon: new DaemonProcess(pid, exited), line };
  }
}

async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
    }
  }
  if (buffered !== "") yield buffered;
}
