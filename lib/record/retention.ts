// Retention: what a namespace's state directory keeps of finished sessions. Recordings
// (casts/*.cast), shell transcripts (transcripts/<session>-<time>/) and shell rc directories
// (shells/<session>-<time>/) are each kept to the newest `keep` and to those younger than
// `keepDays` days (0: no limit). Files of live sessions are never touched, and nothing that
// does not carry tuiwright's own `<session>-<UTC time>` name is.
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/** keep and keepDays bound the files; maxCastBytes bounds each recording (0: no limit), applied
 * by the recorder as it writes (cast-recorder.ts). */
export type RetentionPolicy = { keep: number; keepDays: number; maxCastBytes: number };

export const DEFAULT_RETENTION: RetentionPolicy = { keep: 1000, keepDays: 30, maxCastBytes: 256 * 1024 * 1024 };

type Kind = "cast" | "transcript" | "shell";
const KINDS: { kind: Kind; dir: string; suffix: string }[] = [
  { kind: "cast", dir: "casts", suffix: ".cast" },
  { kind: "transcript", dir: "transcripts", suffix: "" },
  { kind: "shell", dir: "shells", suffix: "" },
];
/** `<session>-<UTC time>[-<mkdtemp suffix>]` as handlers.ts and shell-launch.ts name them. */
const STAMPED = /^(.+)-(\d{8}T\d{9,}Z)(-[A-Za-z0-9]{6})?$/;
const DAY_MS = 86_400_000;

export type Removed = { path: string; kind: Kind; bytes: number; reason: "count" | "age" };
export type RetentionResult = { removed: Removed[]; kept: number; bytesFreed: number; policy: RetentionPolicy };

function sizeOf(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of readdirSync(path)) total += sizeOf(join(path, name));
  return total;
}

export function applyRetention(
  state: string,
  policy: RetentionPolicy,
  options: { live?: Set<string>; now?: number; dryRun?: boolean } = {},
): RetentionResult {
  const now = options.now ?? Date.now();
  const live = options.live ?? new Set<string>();
  const removed: Removed[] = [];
  let kept = 0;
  for (const { kind, dir, suffix } of KINDS) {
    let names: string[];
    try {
      names = readdirSync(join(state, dir));
    } catch {
      continue; // nothing of this kind yet
    }
    const items = names
      .filter((name) => name.endsWith(suffix))
      .map((name) => ({ name, match: STAMPED.exec(suffix ? name.slice(0, -suffix.length) : name) }))
      .filter((item) => item.match !== null && !live.has(item.match[1]!))
      .map((item) => {
        const path = join(state, dir, item.name);
        const stat = lstatSync(path);
        return { path, mtime: stat.mtimeMs, isDir: stat.isDirectory() };
      })
      .filter((item) => (kind === "cast" ? !item.isDir : item.isDir))
      .sort((a, b) => b.mtime - a.mtime || b.path.localeCompare(a.path));
    items.forEach((item, index) => {
      const reason = policy.keep > 0 && index >= policy.keep ? "count" : policy.keepDays > 0 && now - item.mtime > policy.keepDays * DAY_MS ? "age" : null;
      if (!reason) { kept++; return; }
      const bytes = sizeOf(item.path);
      // rmSync never follows a symlink: a link is removed, not what it points at.
      if (!options.dryRun) rmSync(item.path, { recursive: true, force: true });
      removed.push({ path: item.path, kind, bytes, reason });
    });
  }
  return { removed, kept, bytesFreed: removed.reduce((sum, r) => sum + r.bytes, 0), policy };
}
