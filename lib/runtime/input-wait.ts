// Is a session's program waiting for us? True when the terminal's foreground process is asleep
// in a read of its terminal or in a poll/select-style wait (how readline, Python, vim and cat
// wait for keys): typing now cannot overtake its first screen. Read from /proc/PID/syscall
// (Linux, x86-64 and arm64 syscall numbers); anything unreadable is "not known to wait".
import { readFileSync } from "node:fs";
import { foregroundGroup } from "./process.ts";

const WAITS: Record<string, { read: number; polls: number[] }> = {
  x64: { read: 0, polls: [7, 23, 232, 270, 271, 281, 441] }, // poll select epoll_wait pselect6 ppoll epoll_pwait epoll_pwait2
  arm64: { read: 63, polls: [22, 72, 73, 441] }, // epoll_pwait pselect6 ppoll epoll_pwait2
};

export function waitingForInput(sessionPid: number): boolean {
  const table = WAITS[process.arch];
  if (!table) return false;
  const pid = foregroundGroup(sessionPid) ?? sessionPid;
  let fields: string[];
  try {
    fields = readFileSync(`/proc/${pid}/syscall`, "utf8").trim().split(" ");
  } catch {
    return false;
  }
  const call = Number(fields[0]);
  if (!Number.isInteger(call)) return false; // "running"
  if (call === table.read) return fields[1] === "0x0"; // read(0, …): its terminal
  return table.polls.includes(call);
}

/** Timed sleeps (nanosleep, clock_nanosleep): a program waiting on a timer, not starting up.
 * A shell waiting for a child (its rc file running `dircolors`) is in wait4: not this. */
const SLEEPS: Record<string, number[]> = { x64: [35, 230], arm64: [101, 115] };

/** The foreground process is in a timed sleep. */
export function foregroundSleeping(sessionPid: number): boolean {
  const calls = SLEEPS[process.arch];
  if (!calls) return false;
  const pid = foregroundGroup(sessionPid) ?? sessionPid;
  try {
    return calls.includes(Number(readFileSync(`/proc/${pid}/syscall`, "utf8").split(" ")[0]));
  } catch {
    return false;
  }
}
