// Finding 5: files written on request — `snapshot --out`, `snapshot --save`, `report -o` —
// in a shared directory such as /tmp. Another user who pre-creates the name (a file of theirs,
// mode 666, to read what we write; or a FIFO, to block us) gets neither our bytes nor our
// time: the write is refused naming the reason, their file stays as it was. Our own files are
// created 0600, and writing the same path again replaces our own earlier file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, lstatSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { join, resolve } from "node:path";
import { BIN, useWorld } from "../helpers/harness.ts";
import { asAttacker, attacker, isRoot, runBounded, sharedDir, SKIP_REASON } from "./other-user.ts";

const CAST = resolve(import.meta.dir, "../testdata/casts/bash.cast");
if (!isRoot) console.log(`output-files: the other-user tests are skipped — ${SKIP_REASON}`);

const world = useWorld();
let shared: string;
let session: string;

beforeAll(async () => {
  if (isRoot) shared = sharedDir();
  ({ name: session } = await world.spawn(["bash", "-c", "echo out-file-text; exec cat"]));
  await world.json(["wait", "--session", session, "--text", "out-file-text"]);
});

afterAll(() => {
  if (shared) rmSync(shared, { recursive: true, force: true });
});

/** The three writers, each pointed at `file`. */
const writers = (file: string): [string, string[]][] => [
  ["snapshot --out", ["snapshot", "--session", session, "--out", file]],
  ["snapshot --save", ["snapshot", "--session", session, "--save", file]],
  ["report -o", ["report", CAST, "-o", file]],
];

const run = (args: string[]) => runBounded([BIN, ...args], world.env);

test.skipIf(!isRoot)("a file another user pre-created in a shared directory is refused (77) and stays theirs, unread and unchanged", async () => {
  const { uid } = attacker();
  for (const [what, args] of writers(join(shared, "planted.out"))) {
    asAttacker(`printf 'theirs\\n' > ${shared}/planted.out; chmod 666 ${shared}/planted.out`);
    const result = await run(args);
    expect({ what, code: result.code, hung: result.hung }).toEqual({ what, code: 77, hung: false });
    expect(result.stderr).toContain(`refusing to write ${join(shared, "planted.out")}: it belongs to uid ${uid}, not 0 (another user created it)`);
    expect(readFileSync(join(shared, "planted.out"), "utf8")).toBe("theirs\n");
    expect(statSync(join(shared, "planted.out")).uid).toBe(uid);
    rmSync(join(shared, "planted.out"));
  }
  // Nothing of ours was left beside it either (the temporary file is removed).
  expect(Bun.spawnSync(["ls", "-A", shared]).stdout.toString()).toBe("");
});

test.skipIf(!isRoot)("a FIFO another user made under the name is refused at once (74) — never opened, so nothing blocks", async () => {
  asAttacker(`mkfifo -m 666 ${shared}/fifo.out`);
  for (const [what, args] of writers(join(shared, "fifo.out"))) {
    const result = await run(args);
    expect({ what, code: result.code, hung: result.hung }).toEqual({ what, code: 74, hung: false });
    expect(result.stderr).toContain(`refusing to write ${join(shared, "fifo.out")}: it is a FIFO`);
    expect(lstatSync(join(shared, "fifo.out")).isFIFO()).toBe(true);
  }
  rmSync(join(shared, "fifo.out"));
});

test("our output files are 0600, and writing the same path again replaces our own earlier file", async () => {
  for (const [what, args] of [...writers(join(world.dir, "mine.out")), ["snapshot --format png", ["snapshot", "--session", session, "--format", "png", "--out", join(world.dir, "mine.out")]] as [string, string[]]]) {
    // An earlier file of ours, 0644 (written by hand or by an older version): replaced.
    writeFileSync(join(world.dir, "mine.out"), "earlier\n");
    chmodSync(join(world.dir, "mine.out"), 0o644);
    const first = await run(args);
    expect({ what, code: first.code, stderr: first.stderr }).toEqual({ what, code: 0, stderr: "" });
    const written = readFileSync(join(world.dir, "mine.out"));
    expect(written.toString("latin1")).not.toBe("earlier\n");
    expect({ what, mode: statSync(join(world.dir, "mine.out")).mode & 0o777 }).toEqual({ what, mode: 0o600 });
    const again = await run(args);
    expect({ what, code: again.code }).toEqual({ what, code: 0 });
    expect({ what, mode: statSync(join(world.dir, "mine.out")).mode & 0o777 }).toEqual({ what, mode: 0o600 });
    rmSync(join(world.dir, "mine.out"));
  }
});

test("a missing directory is an I/O error (74) naming it, and nothing is created on the way", async () => {
  const missing = join(world.dir, "no-such-dir", "deeper");
  for (const [what, args] of writers(join(missing, "f.out"))) {
    const result = await run(args);
    expect({ what, code: result.code }).toEqual({ what, code: 74 });
    expect(result.stderr).toContain(`cannot write ${join(missing, "f.out")}: no such directory ${missing}`);
    expect(existsSync(join(world.dir, "no-such-dir"))).toBe(false);
  }
});
