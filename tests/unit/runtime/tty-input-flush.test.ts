// flushTerminalInput discards what waits unread in a program's terminal, through the libc that
// libc.ts found (glibc or musl). A shell that has not read its input yet is given a stale line,
// the queue is flushed, a fresh line is typed, and the shell is told to read: it must read the
// fresh one. Without the flush the same shell reads the stale line, so the check can fail.
import { afterEach, expect, test } from "bun:test";
import { spawnPty, type Pty } from "../../../lib/pty/pty.ts";
import { libc, TCIFLUSH } from "../../../lib/runtime/libc.ts";
import { flushTerminalInput } from "../../../lib/runtime/tty-input-flush.ts";

// Sleep in a loop a trapped USR1 interrupts; on USR1 read one line and show it. The terminal
// echoes a line as it enters the input queue, so its echo says it is there to be flushed.
const READ_ON_SIGNAL = `trap 'IFS= read -r line; printf "got[%s]" "$line"; exit' USR1; printf ready; while :; do sleep 5 & wait $!; done`;

let pty: Pty | null = null;
afterEach(() => {
  try {
    if (pty) process.kill(-pty.pid, "SIGKILL"); // the shell's group: its background sleep too
  } catch {
    // already gone
  }
  pty?.close();
  pty = null;
});

/** Starts the shell; `until(text)` resolves once its output contains text (or rejects after 10 s). */
function start(): { until(text: string): Promise<string> } {
  let output = "";
  const waiters: Array<() => void> = [];
  pty = spawnPty({
    argv: ["sh", "-c", READ_ON_SIGNAL],
    cwd: "/",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm" },
    cols: 80,
    rows: 24,
    onData: (bytes) => {
      output += new TextDecoder().decode(bytes);
      for (const wake of waiters.splice(0)) wake();
    },
    onClose: () => {},
  });
  return {
    until: (text) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${JSON.stringify(text)} in ${JSON.stringify(output)}`)), 10_000);
        const check = () => {
          if (output.includes(text)) {
            clearTimeout(timer);
            resolve(output);
          } else waiters.push(check);
        };
        check();
      }),
  };
}

async function readAfter(flush: boolean): Promise<string> {
  const shell = start();
  await shell.until("ready");
  pty!.write("stale\n");
  await shell.until("stale"); // echoed: in the queue
  if (flush) expect(flushTerminalInput(pty!.pid)).toBe(true);
  pty!.write("fresh\n");
  process.kill(pty!.pid, "SIGUSR1");
  const output = await shell.until("got[");
  return /got\[([^\]]*)/.exec(output)![1]!;
}

test("libc.ts loads tcflush (glibc or musl); on a descriptor that is no terminal it fails", () => {
  const lib = libc();
  expect(lib).not.toBeNull();
  expect(lib!.tcflush(0x7fff_fff0, TCIFLUSH)).toBe(false); // no such descriptor
});

test("a flushed terminal's stale line is gone: the shell reads the line typed after the flush", async () => {
  expect(await readAfter(true)).toBe("fresh");
});

test("without the flush the shell reads the stale line (the check above can fail)", async () => {
  expect(await readAfter(false)).toBe("stale");
});

test("a process that does not exist is not flushed", () => {
  expect(flushTerminalInput(0x3fff_fff0)).toBe(false);
});
