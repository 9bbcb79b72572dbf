// A Unix socket's path must fit sockaddr_un.sun_path: 108 bytes with its NUL, so 107. A longer
// TUIWRIGHT_SOCKET or XDG_RUNTIME_DIR cannot work; say so instead of "Failed to connect".
import { TuiwrightError } from "../protocol/errors.ts";

export const MAX_SOCKET_PATH_BYTES = 107;

export function checkSocketPathLength(path: string): void {
  // Its UTF-8 length as Buffer.byteLength counts it, without Buffer's or TextEncoder's first-use
  // cost on every CLI start when the path is ASCII.
  const bytes = /^[\x00-\x7f]*$/.test(path) ? path.length : new TextEncoder().encode(path).length;
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new TuiwrightError("usage", `socket path ${JSON.stringify(path)} is ${bytes} bytes; a Unix socket path may have at most ${MAX_SOCKET_PATH_BYTES}`, {
      hint: "set TUIWRIGHT_SOCKET (or XDG_RUNTIME_DIR) to a shorter path",
    });
  }
}
