// A private byte channel to a child over two extra descriptors: the child reads its fd 3 and
// writes its fd 4 (Chromium's --remote-debugging-pipe). Bun gives each extra "pipe" entry as a
// socketpair, non-blocking on our side: a write the kernel cannot take now (EAGAIN) is queued
// and tried again shortly, so a child that stops reading never blocks the worker's thread.
import { closeSync, writeSync } from "node:fs";

/** How long a queued write waits before it is tried again after EAGAIN. */
const RETRY_MS = 5;

export type FdChannel = {
  /** Queues bytes for the child's fd 3. */
  write(bytes: Uint8Array): void;
  /** Bytes the child writes to its fd 4, as they come; onClose once it closed it (or died). */
  read(onData: (bytes: Uint8Array) => void, onClose: (reason: string) => void): void;
  /** Bytes queued and not yet taken by the kernel. */
  readonly queued: number;
  /** Closes our ends (the reading end once its stream has ended: Bun leaves both open). */
  close(): void;
};

export function fdChannel(writeFd: number, readFd: number): FdChannel {
  const pending: Uint8Array[] = [];
  let queued = 0;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let broken: string | null = null;
  let reading = false;
  let closed = false;
  let readClosed = false;

  const closeRead = () => {
    if (readClosed) return;
    readClosed = true;
    try { closeSync(readFd); } catch { /* already gone */ }
  };

  const flush = () => {
    retry = null;
    while (pending.length > 0 && broken === null) {
      const head = pending[0]!;
      let written: number;
      try {
        written = writeSync(writeFd, head);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "EAGAIN" || code === "EWOULDBLOCK") { retry = setTimeout(flush, RETRY_MS); return; }
        broken = `${code ?? "error"}: ${(error as Error).message}`;
        pending.length = 0;
        queued = 0;
        return;
      }
      queued -= written;
      if (written === head.length) pending.shift();
      else pending[0] = head.subarray(written);
    }
  };

  return {
    write(bytes) {
      if (broken !== null || bytes.length === 0) return;
      pending.push(bytes);
      queued += bytes.length;
      if (retry === null) flush();
    },
    read(onData, onClose) {
      reading = true;
      void (async () => {
        let reason = "the channel was closed";
        try {
          for await (const chunk of Bun.file(readFd).stream()) onData(chunk);
        } catch (error) {
          reason = `reading the channel failed: ${(error as Error).message}`;
        }
        reading = false;
        if (closed) closeRead();
        onClose(reason);
      })();
    },
    get queued() { return queued; },
    close() {
      if (closed) return;
      closed = true;
      broken ??= "closed";
      if (retry !== null) clearTimeout(retry);
      pending.length = 0;
      try { closeSync(writeFd); } catch { /* already gone */ }
      if (!reading) closeRead();
    },
  };
}
