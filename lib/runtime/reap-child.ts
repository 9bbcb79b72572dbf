// Reaping a session's program after its worker crashed: the worker that spawned it (and would
// have waited for it) is gone, so its exit leaves a zombie in the daemon and no exit status.
// waitpid(2) through libc (bun:ffi), non-blocking, for that one pid only — never for a
// program whose worker is alive, which reaps its own children.
import { constants } from "node:os";

const WNOHANG = 1;

type Libc = { symbols: { waitpid(pid: number, status: unknown, options: number): number } };
let libc: Libc | null | undefined;

async function loadLibc(): Promise<Libc | null> {
  if (libc !== undefined) return libc;
  try {
    const ffi = await import("bun:ffi");
    libc = ffi.dlopen("libc.so.6", { waitpid: { args: [ffi.FFIType.i32, ffi.FFIType.ptr, ffi.FFIType.i32], returns: ffi.FFIType.i32 } }) as unknown as Libc;
  } catch {
    libc = null; // no glibc: the zombie stays until the daemon exits
  }
  return libc;
}

export type Reaped = { code: number | null; signal: string | null };

/** The child's exit status if it has exited (and is now reaped); null if it has not. */
export async function reapChild(pid: number): Promise<Reaped | null> {
  const lib = await loadLibc();
  if (!lib) return null;
  const status = new Int32Array(1);
  if (lib.symbols.waitpid(pid, status, WNOHANG) !== pid) return null;
  const raw = status[0]!;
  const termsig = raw & 0x7f;
  if (termsig === 0) return { code: (raw >> 8) & 0xff, signal: null };
  const name = Object.entries(constants.signals as Record<string, number>).find(([, n]) => n === termsig)?.[0] ?? `signal ${termsig}`;
  return { code: null, signal: name };
}
