// The socket path's length is counted in UTF-8 bytes, as the kernel's sun_path holds it: an ASCII
// path by its length (no encoder on a CLI start), any other by its encoding, both as Buffer counts.
import { expect, test } from "bun:test";
import { checkSocketPathLength, MAX_SOCKET_PATH_BYTES } from "../../../lib/transport/socket-path-length.ts";
import { thrown } from "../../helpers/errors.ts";

/** A path of exactly `bytes` UTF-8 bytes made mostly of `unit`. */
function pathOf(unit: string, bytes: number): string {
  let path = "/";
  while (Buffer.byteLength(path + unit) <= bytes) path += unit;
  return path.padEnd(path.length + bytes - Buffer.byteLength(path), "x");
}

test("a path of exactly the limit passes and one byte more is a usage error giving its UTF-8 length", () => {
  for (const unit of ["a", "é", "€", "😀", "\ud800"]) {
    const path = pathOf(unit, MAX_SOCKET_PATH_BYTES);
    expect(Buffer.byteLength(path)).toBe(MAX_SOCKET_PATH_BYTES);
    expect(() => checkSocketPathLength(path)).not.toThrow();
    const long = `${path}x`;
    const error = thrown(() => checkSocketPathLength(long));
    expect(error.errorName).toBe("usage");
    expect(error.message).toContain(`is ${MAX_SOCKET_PATH_BYTES + 1} bytes`);
  }
});
