// Finding 3 (and its neighbours in 16 and issue 27): the AWI-TTY façade writes and connects like
// the rest of tuiwright. `awi snapshot --out` goes through the one safe writer — a symlink or a
// file another user planted in a shared directory is refused, a missing directory is exit 74
// with nothing created; a guessable /tmp/carbonyl-UID/agent.sock another user planted is passed
// over instead of blocking the façade (77); and `tuiwright --ns X awi …` is the façade on
// namespace X, not an unknown verb.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, World } from "../helpers/harness.ts";
import { browseUntilText, SITE2 } from "../helpers/site2-server.ts";
import { asAttacker, attacker, isRoot, runBounded, sharedDir, SKIP_REASON } from "./other-user.ts";

setDefaultTimeout(60_000);
if (!isRoot) console.log(`awi-facade: the other-user tests are skipped — ${SKIP_REASON}`);

let world: World;
let shared: string;

beforeAll(async () => {
  world = await World.start();
  if (isRoot) shared = sharedDir();
  await browseUntilText(world, "br", `file://${SITE2}/index.html`, "Second site start");
}, 90_000);

afterAll(async () => {
  await world?.[Symbol.asyncDispose]();
  if (shared) rmSync(shared, { recursive: true, force: true });
});

/** The façade as `tuiwright awi …`, on the test's daemon unless `env` says otherwise. */
const awi = (args: string[], env: Record<string, string> = {}) => runBounded([BIN, "awi", ...args], { ...world.env, AWI_SOCK: world.socketPath, ...env });

test.skipIf(!isRoot)("snapshot --out never writes through a symlink another user planted: refused (74), the file it points at unchanged", async () => {
  const precious = join(world.dir, "precious");
  writeFileSync(precious, "untouched\n");
  asAttacker(`ln -s ${precious} ${shared}/shot.txt`);
  const result = await awi(["snapshot", "--out", join(shared, "shot.txt")]);
  expect(result.code).toBe(74);
  expect(result.stderr).toContain(`refusing to write ${join(shared, "shot.txt")}: it is a symbolic link`);
  expect(readFileSync(precious, "utf8")).toBe("untouched\n");
});

test.skipIf(!isRoot)("snapshot --out into a file another user pre-created is refused (77); theirs stays as it was", async () => {
  asAttacker(`printf 'theirs\\n' > ${shared}/planted.txt; chmod 666 ${shared}/planted.txt`);
  const result = await awi(["snapshot", "--out", join(shared, "planted.txt")]);
  expect(result.code).toBe(77);
  expect(result.stderr).toContain(`it belongs to uid ${attacker().uid}`);
  expect(readFileSync(join(shared, "planted.txt"), "utf8")).toBe("theirs\n");
});

test("snapshot --out into a missing directory is an I/O error (74); no directory is created", async () => {
  const missing = join(world.dir, "missing", "dir");
  const result = await awi(["snapshot", "--out", join(missing, "f")]);
  expect(result.code).toBe(74);
  expect(result.stderr).toContain(`no such directory ${missing}`);
  expect(existsSync(join(world.dir, "missing"))).toBe(false);
  // A path that works writes the snapshot there, 0600.
  const ok = await awi(["snapshot", "--plain", "--out", join(world.dir, "shot.txt")]);
  expect(ok.code).toBe(0);
  expect(readFileSync(join(world.dir, "shot.txt"), "utf8")).toContain("Second site start");
});

test.skipIf(!isRoot)("a /tmp/carbonyl-UID/agent.sock another user planted is passed over: the façade reaches our own daemon", async () => {
  const planted = `/tmp/carbonyl-${process.getuid!()}`;
  if (existsSync(planted)) {
    console.log(`awi-facade: ${planted} exists already on this machine; this test cannot plant it`);
    return;
  }
  try {
    asAttacker(`mkdir -m 755 ${planted} && python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' ${planted}/agent.sock`);
    // No --socket, no $AWI_SOCK: the document's default paths, then tuiwright's own socket.
    const env = { ...world.env, XDG_RUNTIME_DIR: "" };
    delete (env as Record<string, string | undefined>).AWI_SOCK;
    const result = await runBounded([BIN, "awi", "ping", "--plain"], env);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 0, stdout: "pong\n", stderr: "" });
  } finally {
    rmSync(planted, { recursive: true, force: true });
  }
});

test("tuiwright --ns X awi … is the façade on namespace X's daemon, with the global flags it shares", async () => {
  const runtime = join(world.dir, "xdg");
  mkdirSync(runtime, { mode: 0o700 });
  const ns = `${world.namespace}-awi`;
  // No TUIWRIGHT_SOCKET: the namespace decides the socket ($XDG_RUNTIME_DIR/tuiwright/NS.sock).
  const env = { ...world.env, TUIWRIGHT_SOCKET: "", XDG_RUNTIME_DIR: runtime, TUIWRIGHT_NS: "default" };
  try {
    await world.run(["--ns", ns, "spawn", "--", "cat"], { env });
    const pong = await runBounded([BIN, "--ns", ns, "awi", "ping", "--plain"], env);
    expect({ code: pong.code, stdout: pong.stdout, stderr: pong.stderr }).toEqual({ code: 0, stdout: "pong\n", stderr: "" });
    const json = await runBounded([BIN, "--ns", ns, "--json", "awi", "ping"], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toBeTruthy();
    // The default namespace has no daemon here: without --ns the façade says nothing listens.
    const other = await runBounded([BIN, "awi", "ping"], env);
    expect(other.code).toBe(69);
  } finally {
    await world.run(["--ns", ns, "daemon", "stop"], { env });
  }
});
