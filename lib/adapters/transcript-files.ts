// Finding and reading a chat program's own transcript file (the `transcript` key of a turns
// manifest) safely: the files are the program's data, not ours. Paths are patterns under the
// program's HOME or one of its environment variables, with `*` standing for one path
// component; the walk never follows a symlink (a directory or file reached through one is
// skipped), takes only regular files owned by this user, and reads at most the file's last
// TRANSCRIPT_MAX_BYTES (the answer is at its end).
import { closeSync, constants, watch, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, type Stats } from "node:fs";
import { join } from "node:path";

/** How much of a transcript's end is read: the latest answer and some turns before it. */
export const TRANSCRIPT_MAX_BYTES = 8 * 1024 * 1024;
/** How many directory entries one pattern may visit (a HOME with years of sessions). */
const VISIT_MAX = 20_000;

export type FoundFile = { path: string; mtimeMs: number; size: number };

/** A pattern's fixed start and its `*` components: "~/.claude/projects/*\/*.jsonl" with HOME
 * /h is { base: "/h/.claude/projects", parts: ["*", "*.jsonl"] }. Null (with why) when a
 * variable it names is not in the program's environment. */
export function expandPattern(pattern: string, env: Record<string, string>): { base: string; parts: string[] } | string {
  let path = pattern;
  if (path === "~" || path.startsWith("~/")) {
    if (!env.HOME) return `${pattern}: the program's environment has no HOME`;
    path = env.HOME + path.slice(1);
  }
  const variable = /^\$([A-Z_][A-Z0-9_]*)(?=\/|$)/.exec(path);
  if (variable) {
    const value = env[variable[1]!];
    if (!value) return `${pattern}: the program's environment has no ${variable[1]}`;
    path = value + path.slice(variable[0].length);
  }
  if (!path.startsWith("/")) return `${pattern}: not an absolute path, ~/… or $VAR/…`;
  const components = path.split("/").filter((part) => part !== "");
  if (components.some((part) => part === "." || part === "..")) return `${pattern}: . and .. are not allowed`;
  const first = components.findIndex((part) => part.includes("*"));
  const fixed = first < 0 ? components.length - 1 : first;
  return { base: `/${components.slice(0, fixed).join("/")}`, parts: components.slice(fixed) };
}

function componentRegex(part: string): RegExp {
  return new RegExp(`^${part.split("*").map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")}$`);
}

/** The regular files this user owns that match `pattern`, modified at or after `sinceMs`. A
 * SQLite database (`sqlite`) counts as modified when its write-ahead log (`-wal`, a regular
 * file of this user, not empty) is: the program's writes stay there until a checkpoint; its
 * time is then the log's, its size the two together. */
export function findFiles(pattern: string, env: Record<string, string>, sinceMs: number, sqlite = false): FoundFile[] | string {
  const expanded = expandPattern(pattern, env);
  if (typeof expanded === "string") return expanded;
  let base: string;
  try {
    base = realpathSync(expanded.base); // the fixed start may be a link (a HOME on another disk); nothing under it is followed
  } catch {
    return `${expanded.base} does not exist`;
  }
  const uid = process.getuid?.() ?? -1;
  const found: FoundFile[] = [];
  let visited = 0;
  const walk = (dir: string, depth: number) => {
    const part = expanded.parts[depth]!;
    const last = depth === expanded.parts.length - 1;
    const match = componentRegex(part);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++visited > VISIT_MAX) return;
      if (!match.test(entry.name)) continue;
      // withFileTypes reports a symlink as a symlink, never as what it points to.
      const path = join(dir, entry.name);
      if (!last) {
        if (entry.isDirectory()) walk(path, depth + 1);
        continue;
      }
      if (!entry.isFile()) continue;
      try {
        const stat = lstatSync(path);
        if (!stat.isFile() || stat.uid !== uid) continue;
        let { mtimeMs, size } = stat;
        if (sqlite) {
          const wal = walStat(path);
          if (wal && wal.uid === uid && wal.size > 0 && wal.mtimeMs > mtimeMs) ({ mtimeMs, size } = { mtimeMs: wal.mtimeMs, size: size + wal.size });
        }
        if (mtimeMs >= sinceMs) found.push({ path, mtimeMs, size });
      } catch {
        // gone since the listing
      }
    }
  };
  walk(base, 0);
  return found;
}

/** The last TRANSCRIPT_MAX_BYTES of a file found by findFiles, as text, or why not: opened
 * without following a symlink, and still a regular file of this user once open. */
export function readTail(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    if (stat.uid !== (process.getuid?.() ?? -1)) throw new Error(`${path} is not owned by this user`);
    const length = Math.min(stat.size, TRANSCRIPT_MAX_BYTES);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, stat.size - length + read);
      if (n <= 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** A SQLite database's write-ahead log beside it, when it is a regular file (not a link). */
function walStat(path: string): Stats | null {
  try {
    const stat = lstatSync(`${path}-wal`);
    return stat.isFile() ? stat : null;
  } catch {
    return null;
  }
}

/** Resolves when `path` changes (the program wrote to it, or to its SQLite write-ahead log
 * `-wal`) or after `ms`, whichever is first. */
export function fileChange(path: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const watchers: ReturnType<typeof watch>[] = [];
    const done = () => { clearTimeout(timer); for (const watcher of watchers) watcher.close(); resolve(); };
    const timer = setTimeout(done, ms);
    try {
      watchers.push(watch(path, { persistent: false }, done));
      if (walStat(path)) watchers.push(watch(`${path}-wal`, { persistent: false }, done));
    } catch {
      done();
    }
  });
}
