// Finding 16: with no $XDG_RUNTIME_DIR (cron, `env -i`, ssh without a login session) the socket
// directory is $TMPDIR/tuiwright-UID — a name any other user can guess and make first. That
// used to stop tuiwright with exit 77 for good; now client and daemon both pass over a directory
// that is not ours and use one in our own state directory, which nobody else can create.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { lstatSync, rmSync } from "node:fs";
import { join } from "node:path";
import { useWorld } from "../helpers/harness.ts";
import { asAttacker, isRoot, sharedDir, SKIP_REASON } from "./other-user.ts";

if (!isRoot) console.log(`socket-dir: skipped — ${SKIP_REASON}`);

const world = useWorld();
let shared: string;

beforeAll(() => { if (isRoot) shared = sharedDir(); });
afterAll(() => { if (shared) rmSync(shared, { recursive: true, force: true }); });

test.skipIf(!isRoot)("a $TMPDIR/tuiwright-UID another user made first does not block tuiwright: the socket goes to our state directory", async () => {
  const planted = join(shared, `tuiwright-${process.getuid!()}`);
  asAttacker(`mkdir -m 777 ${planted}`);
  const ns = `${world.namespace}-fallback`;
  // No TUIWRIGHT_SOCKET and no XDG_RUNTIME_DIR: the temp directory would be the default.
  const env = { TUIWRIGHT_SOCKET: "", XDG_RUNTIME_DIR: "", TMPDIR: shared, TUIWRIGHT_NS: ns };
  try {
    const spawned = await world.run(["--json", "spawn", "--session", "fallback", "--", "cat"], { env });
    expect(spawned.stderr).toBe("");
    expect(spawned.code).toBe(0);
    const listed = await world.run(["--json", "list"], { env });
    expect(JSON.parse(listed.stdout).sessions.map((s: { name: string }) => s.name)).toEqual(["fallback"]);
    const socket = join(world.env.XDG_STATE_HOME!, "tuiwright", "run", `${ns}.sock`);
    expect(lstatSync(socket).isSocket()).toBe(true);
    const dir = lstatSync(join(world.env.XDG_STATE_HOME!, "tuiwright", "run"));
    expect({ uid: dir.uid, mode: dir.mode & 0o777 }).toEqual({ uid: 0, mode: 0o700 });
    // Nothing of ours went into the planted directory.
    expect(Bun.spawnSync(["ls", "-A", planted]).stdout.toString()).toBe("");
  } finally {
    await world.run(["daemon", "stop"], { env });
  }
});
