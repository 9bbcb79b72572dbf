// Discarding what waits unread in a terminal's input queue (tcflush TCIFLUSH), before we type a
// command into a shell: bytes nobody asked for — a terminal reply to a program that has gone,
// input for a program that exited before reading it — must not prefix what we type. Bun's
// terminal does not expose its master descriptor, so the slave is opened by its device (the
// tty the shell runs on, from /proc), checked to be that device, flushed and closed again.
// tcflush comes through libc.ts, which finds glibc or musl; without either nothing is flushed.
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { libc, TCIFLUSH } from "./libc.ts";

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
export function flushTerminalInput(pid: number): boolean {
  const device = terminalOf(pid);
  const path = device === null ? null : ptsPath(device);
  const lib = libc();
  if (path === null || lib === null) return false;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    if (fstatSync(fd).rdev !== device) return false; // not the terminal we looked up
    return lib.tcflush(fd, TCIFLUSH);
  } finally {
    closeSync(fd);
  }
}
