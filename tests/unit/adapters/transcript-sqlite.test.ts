// A transcript kept in SQLite (opencode's opencode.db, the manifest key `transcript.sqlite`):
// a fixture database built here in opencode's layout (message and part tables, JSON in `data`,
// written through a write-ahead log by a connection left open, as opencode does while it
// runs), read by the built-in opencode manifest; the file rules (symlinks, owner, time) and
// that reading writes nothing.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BUILTIN_MANIFESTS } from "../../../lib/adapters/builtins.ts";
import { loadManifest } from "../../../lib/adapters/load-manifest.ts";
import { transcriptAnswer, transcriptSignature, type TranscriptSpec } from "../../../lib/adapters/transcript.ts";
import { thrown } from "../../helpers/errors.ts";

const ANSWER = `${Array.from({ length: 12 }, (_, i) => `- line ${String(i + 1).padStart(3, "0")} of the **long** answer`).join("\n")}\n\nEND OF THE \`LONG\` ANSWER.`;
/** The answer's end as opencode draws it: indented, bold and code rendered away. */
const SCREEN = "  - line 011 of the long answer\n  - line 012 of the long answer\n\n  END OF THE LONG ANSWER.";

const SPEC: TranscriptSpec = loadManifest(BUILTIN_MANIFESTS.find((m) => m.file.endsWith("opencode.toml"))!.source, "opencode.toml").transcript!;

const dirs: string[] = [];
const open: Database[] = [];
afterAll(() => {
  for (const db of open) db.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A HOME with opencode's database, written by a connection that stays open (its writes in the
 * -wal, as while opencode runs). Messages: [role, created ms, text parts…]. */
function opencodeHome(messages: [string, number, ...string[]][]): { env: Record<string, string>; path: string; writer: Database } {
  const home = mkdtempSync(join(tmpdir(), "tw-opencode-"));
  dirs.push(home);
  const data = join(home, ".local/share");
  mkdirSync(join(data, "opencode"), { recursive: true });
  const path = join(data, "opencode/opencode.db");
  const writer = new Database(path, { create: true });
  open.push(writer);
  writer.run("PRAGMA journal_mode = WAL");
  writer.run("CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)");
  writer.run("CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)");
  writer.run("CREATE TABLE account (id text PRIMARY KEY, access_token text NOT NULL)");
  writer.run("INSERT INTO account VALUES ('a', 'not-for-reading')");
  messages.forEach(([role, created, ...texts], i) => add(writer, `msg_${i}`, role, created, texts));
  return { env: { HOME: home, XDG_DATA_HOME: data }, path, writer };
}

function add(writer: Database, id: string, role: string, created: number, texts: string[]): void {
  writer.run("INSERT INTO message VALUES (?, 'ses_1', ?, ?, ?)", [id, created, created, JSON.stringify({ role })]);
  const parts = role === "assistant" ? [{ type: "step-start" }, ...texts.map((text) => ({ type: "text", text })), { type: "step-finish", reason: "stop" }] : texts.map((text) => ({ type: "text", text }));
  parts.forEach((part, j) => writer.run("INSERT INTO part VALUES (?, ?, 'ses_1', ?, ?, ?)", [`prt_${id}_${j}`, id, created + j, created + j, JSON.stringify(part)]));
}

test("the opencode manifest reads the last answer of its SQLite database, written since the session started, through its -wal", () => {
  const since = Date.now() - 60_000;
  const { env, path, writer } = opencodeHome([
    ["assistant", since - 5000, "an answer from an earlier session, before this one started"],
    ["user", since + 1000, "long answer please"],
    ["assistant", since + 2000, ANSWER],
  ]);
  // The main file was not written since the database was made: the -wal has it all.
  expect(readFileSync(`${path}-wal`).length).toBeGreaterThan(0);
  expect(transcriptAnswer(SPEC, env, since, SCREEN)).toEqual({ text: ANSWER, path });
  // Reading writes nothing: the database and its log are byte for byte the same.
  const before = [readFileSync(path), readFileSync(`${path}-wal`)];
  transcriptAnswer(SPEC, env, since, SCREEN);
  expect([readFileSync(path), readFileSync(`${path}-wal`)]).toEqual(before);
  // A newer answer: the signature changes (the -wal grew), and that answer is the one read.
  const signature = transcriptSignature(SPEC, env, since);
  add(writer, "msg_9", "assistant", since + 9000, ["a short one"]);
  expect(transcriptSignature(SPEC, env, since)).not.toBe(signature);
  expect(transcriptAnswer(SPEC, env, since, SCREEN)).toEqual({ why: `the CLI's transcript ${path} does not agree with the screen: its last answer does not end with the text on screen`, path });
  // Answers only from before the session's start: none.
  expect(transcriptAnswer(SPEC, env, since + 60_000, SCREEN)).toMatchObject({ why: expect.stringMatching(/no (answer entry|file)/) });
});

test("a database closed by its program (no -wal) is read too; an old, linked or foreign one is not", () => {
  const since = Date.now() - 60_000;
  const { env, path, writer } = opencodeHome([["assistant", since + 2000, ANSWER]]);
  writer.close(); // checkpoints into the main file and removes the -wal
  open.splice(open.indexOf(writer), 1);
  expect(transcriptAnswer(SPEC, env, since, SCREEN)).toEqual({ text: ANSWER, path });
  expect(readdirSync(dirname(path))).toEqual(["opencode.db"]); // opened immutable: no -wal, no -shm made
  // Not modified since the session started.
  const old = new Date(since - 10_000);
  utimesSync(path, old, old);
  expect(transcriptAnswer(SPEC, env, since, SCREEN)).toMatchObject({ why: expect.stringContaining("no file $XDG_DATA_HOME/opencode/opencode.db written since the session started") });
  utimesSync(path, new Date(), new Date());
  // Owned by someone else.
  chownSync(path, 12345, 12345);
  expect(transcriptAnswer(SPEC, env, since, SCREEN)).toMatchObject({ why: expect.stringContaining("no file") });
  chownSync(path, process.getuid!(), process.getgid!());
  // A symlink in its place (to a real database) is not followed.
  const other = opencodeHome([["assistant", since + 2000, ANSWER]]);
  const linked = { ...env, XDG_DATA_HOME: join(env.HOME!, "linked"), HOME: join(env.HOME!, "nohome") };
  mkdirSync(join(linked.XDG_DATA_HOME, "opencode"), { recursive: true });
  symlinkSync(other.path, join(linked.XDG_DATA_HOME, "opencode/opencode.db"));
  expect(transcriptAnswer(SPEC, linked, since, SCREEN)).toMatchObject({ why: expect.stringContaining("no file $XDG_DATA_HOME/opencode/opencode.db written since the session started") });
  // A -wal that is a symlink: the database is refused with why.
  rmSync(`${other.path}-wal`);
  symlinkSync(path, `${other.path}-wal`);
  expect(transcriptAnswer(SPEC, other.env, since, SCREEN)).toEqual({ why: `the CLI's transcript ${other.path} could not be read: ${other.path}-wal is not a regular file`, path: other.path });
});

test("transcript.sqlite is one read-only SELECT", () => {
  const base = 'name = "chat"\nturns = true\n[[regions]]\nname = "input"\nrows = "-1"\n[[regions]]\nname = "done"\nrows = "0"\n';
  const manifest = (query: string) => `${base}[transcript]\nfiles = ["~/.chat/chat.db"]\nsqlite = "${query}"\nentry = { type = "text" }\ntext = "text"\n`;
  const refused = (source: string) => {
    const error = thrown(() => loadManifest(source, "my.toml"));
    expect(error.errorName).toBe("bad-manifest");
    return error.message;
  };
  expect(refused(manifest("DELETE FROM part"))).toContain("transcript.sqlite is one SELECT statement (read-only)");
  expect(refused(manifest("SELECT data FROM part; DROP TABLE part"))).toContain("transcript.sqlite is one statement: no ;");
  expect(loadManifest(manifest("SELECT data FROM part ORDER BY id DESC"), "my.toml").transcript?.sqlite).toBe("SELECT data FROM part ORDER BY id DESC");
});

test("a query that writes is refused by the read-only connection, with why", () => {
  const since = Date.now() - 60_000;
  const { env, path } = opencodeHome([["assistant", since + 2000, ANSWER]]);
  // A manifest's check keeps to SELECT; the connection is the guard: query_only and read-only.
  const writing: TranscriptSpec = { ...SPEC, sqlite: "WITH x AS (SELECT 1) INSERT INTO part VALUES ('p', 'm', 's', 0, 0, '{}') RETURNING data" };
  expect(transcriptAnswer(writing, env, since, SCREEN)).toMatchObject({ why: expect.stringMatching(new RegExp(`^the CLI's transcript ${path} could not be read: .*(readonly|read-only|query_only)`, "i")), path });
});
