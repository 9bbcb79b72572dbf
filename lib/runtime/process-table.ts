// One look at every process in /proc: who is whose parent, which session and group each is in,
// and whether it has already died (a zombie). The kernel offers no cheaper way to find a
// process's descendants that left its session (setsid) or its tree (double fork).
import { readdirSync, readFileSync } from "node:fs";

/** `start`: when it started (clock ticks since boot), which tells a reused pid apart. */
export type ProcessRow = { pid: number; ppid: number; pgid: number; sid: number; zombie: boolean; start: string };

export type ProcessTable = Map<number, ProcessRow>;

/** A /proc/PID/stat line's fields (the command name may hold spaces and parentheses). */
export function parseStat(pid: number, stat: string): ProcessRow | null {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the comm: state ppid pgrp session …
  const [state, ppid, pgid, sid] = [fields[0], Number(fields[1]), Number(fields[2]), Number(fields[3])];
  if (state === undefined || !Number.isInteger(ppid) || !Number.isInteger(sid)) return null;
  return { pid, ppid, pgid, sid, zombie: state === "Z" || state === "X", start: fields[19] ?? "" };
}

export function readProcessTable(): ProcessTable {
  const table: ProcessTable = new Map();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return table;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const row = parseStat(Number(name), readFileSync(`/proc/${name}/stat`, "utf8"));
      if (row) table.set(row.pid, row);
    } catch {
      // gone while we looked
    }
  }
  return table;
}

/** The live processes among `roots` and all their descendants (zombies hold nothing). */
export function liveDescendants(table: ProcessTable, roots: Iterable<number>): number[] {
  const children = new Map<number, number[]>();
  for (const row of table.values()) {
    const siblings = children.get(row.ppid);
    if (siblings) siblings.push(row.pid);
    else children.set(row.ppid, [row.pid]);
  }
  const seen = new Set<number>();
  const queue = [...roots].filter((pid) => table.has(pid));
  while (queue.length > 0) {
    const pid = queue.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return [...seen].filter((pid) => !table.get(pid)!.zombie);
}

/** The value of `name` in a process's environment as it was started (null when unset or unreadable). */
export function environmentValue(pid: number, name: string): string | null {
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/environ`, "latin1");
  } catch {
    return null;
  }
  const prefix = `${name}=`;
  for (const entry of raw.split("\0")) if (entry.startsWith(prefix)) return entry.slice(prefix.length);
  return null;
}
