// The SDK's StdioServerTransport reads and writes Node streams, and setting up process.stdout's
// stream machinery costs ~12 ms of start-up (lib/runtime/stdio.ts). These stand-ins give it the
// few calls it makes — on/off "data" and "error", listenerCount, pause; write, once "drain" —
// over Bun's native stdin and writer. Writes keep their order; `flushed()` waits for the last.
import { EventEmitter } from "node:events";
import type { Readable, Writable } from "node:stream";
import { stdinChunks, writeRaw } from "../runtime/stdio.ts";

export type NativeStdio = { stdin: Readable; stdout: Writable; ended: Promise<void>; flushed(): Promise<void> };

export function nativeStdio(): NativeStdio {
  const input = Object.assign(new EventEmitter(), { pause() {} });
  const ended = (async () => {
    try {
      for await (const chunk of stdinChunks()) input.emit("data", Buffer.from(chunk));
    } catch (error) {
      input.emit("error", error);
    }
  })();
  let written: Promise<void> = Promise.resolve();
  const output = Object.assign(new EventEmitter(), {
    write(text: string): boolean {
      // A client that went away (EPIPE) is noticed by stdin's end; nothing to tell here.
      written = written.then(() => writeRaw("stdout", text)).catch(() => undefined);
      return true;
    },
  });
  return { stdin: input as unknown as Readable, stdout: output as unknown as Writable, ended, flushed: () => written };
}
