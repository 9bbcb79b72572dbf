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

/** The foreground process sleeps (state S): waiting on something, not working. */
export function foregroundAsleep(sessionPid: number): boolean {
  const pid = foregroundGroup(sessionPid) ?? sessionPid;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "S";
  } catch {
    return false;
  }
}
