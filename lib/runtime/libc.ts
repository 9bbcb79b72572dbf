// The few libc calls Bun does not offer (bun:ffi): waitpid for one pid, prctl (the child
// subreaper), prlimit (a child's process limit), poll and tcflush (a terminal's input queue). glibc names its library libc.so.6, musl
// libc.musl-<arch>.so.1 (libc.so where the development files are installed); null when none
// loads (another platform), and every caller then does without.
import { dlopen, FFIType } from "bun:ffi";
import { constants } from "node:os";

export type Libc = {
  waitpid(pid: number, status: Int32Array, options: number): number;
  prctl(option: number, arg: number): number;
  /** RLIMIT_* `resource` of process `pid`: sets soft and hard to `limit`. */
  setLimit(pid: number, resource: number, limit: bigint): boolean;
  /** [soft, hard] of `resource` for process `pid` (0 = this process); null on failure. */
  getLimit(pid: number, resource: number): [bigint, bigint] | null;
  /** poll(2) of one descriptor without waiting: its revents, or null on failure. */
  pollNow(fd: number, events: number): number | null;
  /** tcflush(3): discards a terminal's queued input (TCIFLUSH) or output; true on success. */
  tcflush(fd: number, queue: number): boolean;
};

export const WNOHANG = 1;
export const PR_SET_CHILD_SUBREAPER = 36;
export const RLIMIT_NPROC = 6;
export const RLIM_INFINITY = 0xffff_ffff_ffff_ffffn;
export const TCIFLUSH = 0;

const MUSL_ARCH: Record<string, string> = { x64: "x86_64", arm64: "aarch64", arm: "armhf", ia32: "i386", ppc64: "powerpc64le", s390x: "s390x", riscv64: "riscv64" };

/** The library names to try, glibc's first. */
export function libcNames(arch: string = process.arch): string[] {
  return ["libc.so.6", ...(MUSL_ARCH[arch] ? [`libc.musl-${MUSL_ARCH[arch]}.so.1`] : []), "libc.so"];
}

let loaded: Libc | null | undefined;

export function libc(): Libc | null {
  if (loaded === undefined) loaded = load();
  return loaded;
}

function load(): Libc | null {
  if (process.platform !== "linux") return null;
  const { i32, u64, ptr } = FFIType;
  for (const name of libcNames()) {
    try {
      const { symbols } = dlopen(name, {
        waitpid: { args: [i32, ptr, i32], returns: i32 },
        prctl: { args: [i32, u64, u64, u64, u64], returns: i32 },
        prlimit: { args: [i32, i32, ptr, ptr], returns: i32 },
        poll: { args: [ptr, u64, i32], returns: i32 },
        tcflush: { args: [i32, i32], returns: i32 },
      });
      return {
        waitpid: (pid, status, options) => symbols.waitpid(pid, status, options),
        prctl: (option, arg) => symbols.prctl(option, arg, 0, 0, 0),
        setLimit: (pid, resource, limit) => symbols.prlimit(pid, resource, new BigUint64Array([limit, limit]), null) === 0,
        getLimit: (pid, resource) => {
          const old = new BigUint64Array(2);
          return symbols.prlimit(pid, resource, null, old) === 0 ? [old[0]!, old[1]!] : null;
        },
        pollNow: (fd, events) => {
          // struct pollfd { int fd; short events; short revents; }
          const entry = new Int32Array(2);
          entry[0] = fd;
          new Int16Array(entry.buffer)[2] = events;
          return symbols.poll(entry, 1, 0) < 0 ? null : new Int16Array(entry.buffer)[3]!;
        },
        tcflush: (fd, queue) => symbols.tcflush(fd, queue) === 0,
      };
    } catch {
      // not this library's name here: try the next
    }
  }
  return null;
}

/** A waitpid status as an exit code or a signal name. */
export function decodeWaitStatus(raw: number): { code: number | null; signal: string | null } {
  const termsig = raw & 0x7f;
  if (termsig === 0) return { code: (raw >> 8) & 0xff, signal: null };
  const name = Object.entries(constants.signals as Record<string, number>).find(([, n]) => n === termsig)?.[0] ?? `signal ${termsig}`;
  return { code: null, signal: name };
}
