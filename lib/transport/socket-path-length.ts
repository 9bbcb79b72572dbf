// A Unix socket's path must fit sockaddr_un.sun_path: 108 bytes with its NUL, so 107. A longer
// TUIWRIGHT_SOCKET or XDG_RUNTIME_DIR cannot work; say so instead of "Failed to connect".
import { TuiwrightError } from "../protocol/errors.ts";

export const MAX_SOCKET_PATH_BYTES = 107;

export function checkSocketPathLength(path: string): void {
  const bytes = Buffer.byteLength(path);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new TuiwrightError("usage", `socket path ${JSON.stringify(path)} is ${bytes} bytes; a Unix socket path may have at most ${MAX_SOCKET_PATH_BYTES}`, {
      hint: "set TUIWRIGHT_SOCKET (or XDG_RUNTIME_DIR) to a shorter path",
    });
  }
}
