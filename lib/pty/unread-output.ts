// Is output the program wrote still on its way to us? A poll of the PTY's master (no wait) says
// so: the kernel first moves what waits between the two ends into the master's read queue, so
// "not readable" means every byte written before the poll has been read off the master — and,
// as Bun delivers what it reads on this thread at once, has reached our output handler.
// Bun's terminal does not expose its master descriptor: it is found among this process's
// descriptors by the pty index the kernel reports for it (/proc/self/fdinfo: "tty-index"),
// matched to the terminal the program runs on, and checked again at every use (a closed
// descriptor's number may be reused). null when that cannot be known (not Linux, no libc).
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { libc } from "../runtime/libc.ts";

const POLLIN = 0x1;
/** Unix98 pty slaves have majors 136–143 (256 minors each). */
const PTS_MAJOR_FIRST = 136;
const PTS_MAJOR_LAST = 143;

/** N of /dev/pts/N that `pid` runs on (tty_nr in /proc), or null. */
export function ptsIndexOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const device = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[4]);
    const major = (device >> 8) & 0xfff;
    const minor = (device & 0xff) | ((device >> 12) & 0xfff00);
    return major >= PTS_MAJOR_FIRST && major <= PTS_MAJOR_LAST ? (major - PTS_MAJOR_FIRST) * 256 + minor : null;
  } catch {
    return null;
  }
}

/** The pty index of this process's descriptor `fd` when it is a pty master, else null. */
function masterIndexOf(fd: number): number | null {
  try {
    const index = /^tty-index:\s*(\d+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1];
    return index === undefined ? null : Number(index);
  } catch {
    return null;
  }
}

/** This process's descriptor for the master of /dev/pts/`index`, or null. */
export function masterDescriptor(index: number): number | null {
  let names: string[];
  try {
    names = readdirSync("/proc/self/fd");
  } catch {
    return null;
  }
  for (const name of names) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${name}`);
    } catch {
      continue;
    }
    if (target !== "/dev/ptmx" && target !== "/dev/pts/ptmx") continue;
    if (masterIndexOf(Number(name)) === index) return Number(name);
  }
  return null;
}

/** A probe for the terminal `pid` runs on: true while output is unread, false when all of it
 * has been read, null when unknown. */
export function unreadOutputProbe(pid: number): () => boolean | null {
  let index: number | null = null;
  let fd: number | null = null;
  return () => {
    const lib = libc();
    if (!lib) return null;
    if (fd === null || masterIndexOf(fd) !== index) {
      // Looked up when first needed (the program has its terminal by then) and again if lost.
      index = ptsIndexOf(pid);
      fd = index === null ? null : masterDescriptor(index);
      if (fd === null) return null;
    }
    const revents = lib.pollNow(fd, POLLIN);
    return revents === null ? null : (revents & POLLIN) !== 0;
  };
}
