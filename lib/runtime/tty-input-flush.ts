// Discarding what waits unread in a terminal's input queue (tcflush TCIFLUSH), before we type a
// command into a shell: bytes nobody asked for — a terminal reply to a program that has gone,
// input for a program that exited before reading it — must not prefix what we type. Bun's
// terminal does not expose its master descriptor, so the slave is opened by its device (the
// tty the shell runs on, from /proc), checked to be that device, flushed and closed again.
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";

const TCIFLUSH = 0;

type Libc = { symbols: { tcflush(fd: number, queue: number): number } };
let libc: Libc | null | undefined;

async function loadLibc(): Promise<Libc | null> {
  if (libc !== undefined) return libc;
  try {
    const ffi = await import("bun:ffi");
    libc = ffi.dlopen("libc.so.6", { tcflush: { args: [ffi.FFIType.i32, ffi.FFIType.i32], returns: ffi.FFIType.i32 } }) as unknown as Libc;
  } catch {
    libc = null; // no glibc: nothing is flushed (the caller is told)
  }
  return libc;
}

/** The device number of the controlling terminal `pid` runs on (tty_nr in /proc), or null. */
function terminalOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ttyNr = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[4]);
    return Number.isInteger(ttyNr) && ttyNr > 0 ? ttyNr : null;
  } catch {
    return null;
  }
}

/** /dev/pts/N for a pseudo-terminal's device number (major 136, minor N), or null. */
function ptsPath(device: number): string | null {
  const major = (device >> 8) & 0xfff;
  const minor = (device & 0xff) | ((device >> 12) & 0xfff00);
  return major === 136 ? `/dev/pts/${minor}` : null;
}

/** Flushes the input queue of the terminal `pid` runs on; false when it could not be done. */
export async function flushTerminalInput(pid: number): Promise<boolean> {
  const device = terminalOf(pid);
  const path = device === null ? null : ptsPath(device);
  const lib = await loadLibc();
  if (path === null || lib === null) return false;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    if (fstatSync(fd).rdev !== device) return false; // not the terminal we looked up
    return lib.symbols.tcflush(fd, TCIFLUSH) === 0;
  } finally {
    closeSync(fd);
  }
}
