// Why the `cat` throughput row is where it is (issue 30), and what would move it: the kernel PTY
// moves data only while its reader reads (cat blocks within a few KB), and Bun reads the PTY on
// the thread that owns it, so reading and parsing take turns: the wall time is the kernel's
// transfer PLUS our parse. With the PTY read on another thread, the two overlap. Both modes feed
// the same Screen (as the session worker does: one synchronous parse per chunk) with `cat FILE`
// through a PTY, and stop when the output has ended and is parsed.
// `bun bench/pty-read-thread.ts [ROUNDS]` (interleaved pairs, medians). Measured (2 shared cores,
// 5 rounds): one thread 5.14 s, reader thread 3.46 s (1.49×); tmux takes ~4.4 s on the same file.
import { unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";
import { Screen } from "../lib/terminal/screen.ts";

/** Runs `cat file` on a PTY, handing each chunk to `data`; resolves at the program's exit. */
function catOnPty(file: string, data: (bytes: Uint8Array) => void): Promise<void> {
  return new Promise((resolve) => {
    Bun.spawn(["cat", file], { terminal: { cols: 140, rows: 45, data: (_terminal: unknown, bytes: Uint8Array) => data(bytes), exit: () => resolve() } });
  });
}

if (!isMainThread) {
  // The reader thread: forwards every chunk (transferred, not copied twice), then "exit".
  self.onmessage = async (event: MessageEvent<string>) => {
    await catOnPty(event.data, (bytes) => { const chunk = bytes.slice(); postMessage(chunk, [chunk.buffer]); });
    postMessage("exit");
  };
} else {
  const rounds = Number(process.argv[2] ?? 5);
  const file = join(tmpdir(), `pty-read-thread-${process.pid}.txt`);
  writeFileSync(file, Array.from({ length: 6_000_000 }, (_, i) => String(i + 1)).join("\n") + "\n");

  const parseInto = (screen: Screen) => (bytes: Uint8Array) => void screen.write(bytes);
  const sameThread = async (): Promise<number> => {
    const screen = new Screen({ cols: 140, rows: 45, scrollback: 1000 });
    const started = performance.now();
    await catOnPty(file, parseInto(screen));
    await screen.write("");
    screen.dispose();
    return performance.now() - started;
  };
  const readerThread = async (): Promise<number> => {
    const screen = new Screen({ cols: 140, rows: 45, scrollback: 1000 });
    const reader = new Worker(import.meta.url);
    const feed = parseInto(screen);
    const started = performance.now();
    await new Promise<void>((resolve) => {
      reader.onmessage = (event: MessageEvent<Uint8Array | string>) => (typeof event.data === "string" ? resolve() : feed(event.data));
      reader.postMessage(file);
    });
    await screen.write("");
    const elapsed = performance.now() - started;
    reader.terminate();
    screen.dispose();
    return elapsed;
  };

  const same: number[] = [];
  const split: number[] = [];
  for (let round = 0; round < rounds; round++) {
    same.push(await sameThread());
    split.push(await readerThread());
  }
  unlinkSync(file);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  console.log(`read and parse on one thread (as now): ${(median(same) / 1000).toFixed(2)} s  [${same.map((ms) => (ms / 1000).toFixed(2)).join(" ")}]`);
  console.log(`PTY read on its own thread:            ${(median(split) / 1000).toFixed(2)} s  [${split.map((ms) => (ms / 1000).toFixed(2)).join(" ")}]`);
  console.log(`speed-up: ${(median(same) / median(split)).toFixed(2)}×`);
}
