// A chat program's transcript kept in SQLite (opencode's opencode.db), read-only: the manifest's
// `transcript.sqlite` query yields JSON documents, newest first, each read like a JSON-lines
// entry (`entry`, `text`). The database is the program's, written while we read: opened
// read-only (query_only too, never through a symlink) with a short busy timeout, and only when
// it is a regular file of this user (checked before and after SQLite opens it, so a path
// swapped meanwhile is refused). While the program has it open, its write-ahead log (`-wal`,
// with the `-shm` index) holds the latest writes and is read with it; without them the file is
// opened immutable, so that reading creates no -wal or -shm beside it (a plain read-only open of
// a WAL database would).
import { constants, Database } from "bun:sqlite";
import { lstatSync, type Stats } from "node:fs";

/** How many rows a query may yield before the reader gives up looking for an answer. */
const ROWS_MAX = 10_000;
/** How long a read waits for the program's write lock (WAL readers rarely wait at all). */
const BUSY_MS = 250;

/** A regular file of this user at `path`, not a symlink; null when there is none. */
function ownFile(path: string): Stats | null {
  let stat: Stats;
  try {
    stat = lstatSync(path);
  } catch {
    return null;
  }
  if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
  if (stat.uid !== (process.getuid?.() ?? -1)) throw new Error(`${path} is not owned by this user`);
  return stat;
}

/** The database's write-ahead log: where the program's latest writes are until a checkpoint. */
export function walOf(path: string): string {
  return `${path}-wal`;
}

/** The first row (newest first) that `accept` takes, from `query` run read-only on the database
 * at `path`; `$since` is bound to `sinceMs` when the query names it. Null when no row is taken;
 * throws (with why) when the file or the query cannot be used. */
export function firstSqliteRow<T>(path: string, query: string, sinceMs: number, accept: (json: string) => T | null): T | null {
  const before = ownFile(path);
  if (!before) throw new Error(`${path} does not exist`);
  const live = ownFile(walOf(path)) !== null && ownFile(`${path}-shm`) !== null;
  const flags = constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_NOFOLLOW;
  const db = live ? new Database(path, flags) : new Database(`file:${path.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}?immutable=1`, flags | constants.SQLITE_OPEN_URI);
  try {
    const after = ownFile(path);
    if (!after || after.ino !== before.ino || after.dev !== before.dev) throw new Error(`${path} was replaced while it was opened`);
    db.run("PRAGMA query_only = ON");
    db.run(`PRAGMA busy_timeout = ${BUSY_MS}`);
    const statement = db.query(query);
    const rows = query.includes("$since") ? statement.iterate({ $since: sinceMs } as never) : statement.iterate();
    let seen = 0;
    for (const row of rows as Iterable<Record<string, unknown>>) {
      if (++seen > ROWS_MAX) break;
      const value = Object.values(row)[0];
      if (typeof value !== "string") continue;
      const taken = accept(value);
      if (taken !== null) return taken;
    }
    return null;
  } finally {
    db.close();
  }
}
