// An outside client's view of a browser session, from the AWI-TTY document alone: the Python
// conformance client (tests/conformance/awi_tty_client.py, the document's names only) over the
// socket, and the document's CLI façade — `awi-tty` as a link to the binary — running a shell
// script written from the document's CLI section (tests/testdata/awi-tty-doc.sh) unchanged.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BIN, World } from "../helpers/harness.ts";
import { browseUntilText, serveSite2 } from "../helpers/site2-server.ts";

setDefaultTimeout(120_000);

const CLIENT = resolve(import.meta.dir, "../conformance/awi_tty_client.py");
const DOC_SCRIPT = resolve(import.meta.dir, "../testdata/awi-tty-doc.sh");
const BLANK_BROWSER = resolve(import.meta.dir, "../testdata/blank-browser.sh");

let world: World;
let server: ReturnType<typeof Bun.serve>;
let base: string;
let linkDir: string;

beforeAll(async () => {
  ({ server, base } = serveSite2());
  world = await World.start();
  await browseUntilText(world, "doc", base, "Second site start");
  // The façade is the same binary under the document's name.
  linkDir = join(world.dir, "bin");
  mkdirSync(linkDir);
  symlinkSync(BIN, join(linkDir, "awi-tty"));
}, 90_000);

afterAll(async () => {
  await world[Symbol.asyncDispose]();
  server.stop(true);
});

type Check = { check: string; ok: boolean; detail: unknown };

/** Runs a program with the world's environment; Bun.spawn, as the site is served by this process. */
async function run(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(argv, { env: { ...world.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

async function conformance(mode: string[] = []): Promise<Check[]> {
  const { code, stdout, stderr } = await run(["python3", CLIENT, world.socketPath, base, ...mode]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  return stdout.trim().split("\n").map((line) => JSON.parse(line) as Check);
}

test("the Python client, written from the document's names only: every method and error", async () => {
  const checks = await conformance();
  const failed = checks.filter((c) => !c.ok);
  expect(failed).toEqual([]);
  const names = checks.map((c) => c.check).join("\n");
  for (const method of ["navigate", "send_key", "scroll", "snapshot", "get_title", "get_url", "get_nav_state", "set_viewport", "get_capabilities",
    "type_text", "paste", "wait_for_frame_quiescence", "wait_for_title_contains", "click", "mouse_move", "mouse_down", "mouse_up", "ping", "subscribe_events"]) {
    expect(names).toContain(method);
  }
  for (const code of [-32700, -32600, -32601, -32602, -32010, -32011, -32014]) expect(names).toContain(String(code));
});

test("-32013: input while another client holds the session's write lease", async () => {
  const lease = await world.json(["lease", "acquire", "--session", "doc", "--owner", "someone-else"]);
  try {
    expect((await conformance(["--leased"])).filter((c) => !c.ok)).toEqual([]);
  } finally {
    await world.run(["lease", "release", "--session", "doc", "--lease", lease.token]);
  }
});

test("-32012: a browser that has drawn nothing yet cannot say its URL or nav state", async () => {
  await world.json(["browse", "--session", "blank", "--no-wait", "--env", `CARBONYL=${BLANK_BROWSER}`, "about:blank"]);
  try {
    expect((await conformance(["--blank"])).filter((c) => !c.ok)).toEqual([]);
  } finally {
    await world.run(["kill", "--session", "blank"]);
  }
});

const awi = (args: string[], env: Record<string, string> = {}) => run([join(linkDir, "awi-tty"), ...args], { AWI_SOCK: world.socketPath, ...env });

test("awi-tty: JSON by default, --plain bare values, --socket over $AWI_SOCK, snapshot --trim/--out, the exit-code table", async () => {
  await world.json(["navigate", "--session", "doc", base]);
  const title = await awi(["get-title"]);
  expect(title.code).toBe(0);
  expect(JSON.parse(title.stdout)).toMatchObject({ title: "Café Münster — Start" });
  expect((await awi(["get-title", "--plain"])).stdout).toBe("Café Münster — Start\n");
  expect((await awi(["get-url", "--plain"])).stdout).toBe(`${base}\n`);
  expect(JSON.parse((await awi(["get-nav-state", "--json"])).stdout)).toMatchObject({ can_go_back: expect.any(Boolean) });
  // --socket wins over $AWI_SOCK.
  const bySocket = await awi(["ping", "--socket", world.socketPath], { AWI_SOCK: "/nonexistent/agent.sock" });
  expect(bySocket.code).toBe(0);
  const snap = await awi(["snapshot", "--format", "text", "--trim", "--include-meta"]);
  const parsed = JSON.parse(snap.stdout);
  expect(parsed).toMatchObject({ width: 140, height: 45, meta: { url: base } });
  for (const line of parsed.lines) expect(line).toBe(line.trimEnd());
  const out = join(world.dir, "snap.txt");
  expect((await awi(["snapshot", "--plain", "--out", out])).stdout).toBe("");
  expect(await Bun.file(out).text()).toContain("Second site start");
  // --quiet: the exit code only.
  const quiet = await awi(["get-title", "--quiet"]);
  expect([quiet.code, quiet.stdout]).toEqual([0, ""]);
  const quietFailure = await awi(["navigate", "invalid://url", "--quiet"]);
  expect([quietFailure.code, quietFailure.stdout]).toEqual([65, ""]);
  // tuiwright awi … is the same façade.
  expect((await run([BIN, "awi", "get-title", "--plain"], { AWI_SOCK: world.socketPath })).stdout).toBe("Café Münster — Start\n");

  // Exit codes: 64 usage, 65 data, 69 unavailable, 73 rate-limited, 77 permission.
  const unknown = await awi(["bogus"]);
  expect(unknown.code).toBe(64);
  expect(unknown.stderr).toContain('unknown command "bogus"');
  expect((await awi(["scroll"])).code).toBe(64);
  expect((await awi(["scroll", "three"])).stderr).toContain("delta must be an integer");
  expect((await awi(["get-title", "--frobnicate"])).code).toBe(64);
  const invalid = await awi(["navigate", "invalid://url"]);
  expect(invalid.code).toBe(65);
  expect(JSON.parse(invalid.stdout).error.code).toBe(-32602);
  // One code for one mistake: not one character is data (65), as an unknown key is.
  expect((await awi(["send-key", "Char:ab"])).code).toBe(65);
  expect((await awi(["send-key", "Bogus"])).code).toBe(65);
  expect((await awi(["send-key", "Char:é"])).code).toBe(0);
  expect((await awi(["send-key", "Char:a", "--ctrl", "--meta"])).code).toBe(0);
  expect((await awi(["set-viewport", "0", "0"])).code).toBe(65);
  const nobody = await awi(["ping"], { AWI_SOCK: join(world.dir, "run", "nobody.sock") });
  expect(nobody.code).toBe(69);
  expect(nobody.stderr).toContain("nothing listens at");
  const lease = await world.json(["lease", "acquire", "--session", "doc", "--owner", "someone-else"]);
  try {
    const busy = await awi(["send-key", "Tab"]);
    expect(busy.code).toBe(73);
  } finally {
    await world.run(["lease", "release", "--session", "doc", "--lease", lease.token]);
  }
  const foreign = await awi(["ping", "--socket", "/etc/passwd"]);
  expect(foreign.code).toBe(77);
});

test("the façade addresses browsers: after a shell was used, --session and $TUIWRIGHT_SESSION, a non-browser refused", async () => {
  await world.json(["navigate", "--session", "doc", `${base}form.html`]);
  const shell = await world.spawn(["bash", "--norc", "--noprofile"]);
  // Using the shell makes it tuiwright's current session; the AWI calls still drive the browser.
  await world.json(["type", "--session", shell.name, "echo from-the-shell\r", "--text", "from-the-shell"]);
  expect((await awi(["send-key", "Char:x"])).code).toBe(0);
  expect((await awi(["snapshot", "--plain"])).stdout).toContain("typed: x");
  expect((await world.run(["snapshot", "--session", shell.name, "--plain"])).stdout).not.toContain("xecho");
  expect(JSON.parse((await awi(["get-capabilities"])).stdout)).toMatchObject({ session_id: "doc" });
  // Named: by flag or by the environment; a session that is not a browser is refused (64).
  expect((await awi(["get-url", "--plain", "--session", "doc"])).stdout).toBe(`${base}form.html\n`);
  expect((await awi(["get-url", "--plain"], { TUIWRIGHT_SESSION: "doc" })).stdout).toBe(`${base}form.html\n`);
  const notBrowser = await awi(["send-key", "Tab", "--session", shell.name]);
  expect(notBrowser.code).toBe(64);
  expect(notBrowser.stderr).toContain(`session "${shell.name}" is a program session; AWI-TTY calls drive browser sessions`);
  expect((await awi(["snapshot", "--plain"], { TUIWRIGHT_SESSION: shell.name })).code).toBe(64);
  const missing = await awi(["get-url", "--session", "nope"]);
  expect(missing.code).toBe(66);
  await world.run(["kill", "--session", shell.name]);
  // The aliases state their result shapes (they listed `result: {}`).
  const methods = (await world.json(["capabilities"])).methods as { name: string; result: { properties?: Record<string, unknown> } }[];
  for (const name of ["get_url", "send_key", "set_viewport", "awi.navigate", "get_capabilities"]) {
    expect({ name, fields: Object.keys(methods.find((m) => m.name === name)?.result.properties ?? {}).length > 0 }).toEqual({ name, fields: true });
  }
});

test("browse with a Carbonyl that never answers or draws: exit 69 naming the program, no session left, no blame on the daemon", async () => {
  const started = performance.now();
  const browse = await world.run(["browse", "--session", "mute", "--env", `CARBONYL=${BLANK_BROWSER}`, "about:blank"]);
  expect(browse.code).toBe(69);
  expect(browse.stderr).toContain(`its engine did not answer on the private pipe`);
  expect(browse.stderr).toContain(`is ${JSON.stringify(BLANK_BROWSER)} a Carbonyl build?`);
  expect(browse.stderr).not.toContain("daemon");
  expect(performance.now() - started).toBeLessThan(40_000);
  expect((await world.json(["list"])).sessions.map((s: { name: string }) => s.name)).not.toContain("mute");
});

test("browse --agent-socket=PATH: the document's AWI_SOCK=/tmp/… socket drives that browser, and goes with it", async () => {
  // In /tmp, as the document's example: a root-owned sticky directory is trusted for a socket of ours.
  const sock = `/tmp/tw-agent-${process.pid}-${Date.now()}.sock`;
  try {
    const started = await world.json(["browse", "--session", "agent", `--agent-socket=${sock}`, base]);
    expect(started).toMatchObject({ name: "agent", agentSocket: sock });
    expect(statSync(sock).mode & 0o777).toBe(0o700);
    // Another session in use meanwhile: calls on the agent socket still act on its browser.
    await world.json(["navigate", "--session", "doc", `${base}form.html`]);
    expect((await awi(["get-url", "--plain"], { AWI_SOCK: sock })).stdout).toBe(`${base}\n`);
    expect((await awi(["snapshot", "--plain"], { AWI_SOCK: sock })).stdout).toContain("Second site start");
    const again = await world.run(["browse", "--session", "agent2", `--agent-socket=${sock}`, base]);
    expect(again.code).toBe(64);
    expect(again.stderr).toContain(`the agent socket ${sock} is in use`);
    await world.run(["kill", "--session", "agent"]);
    expect(existsSync(sock)).toBe(false);
    const gone = await awi(["get-url"], { AWI_SOCK: sock });
    expect(gone.code).toBe(69);
  } finally {
    rmSync(sock, { force: true });
  }
  // Something else at the path (planted before us) is refused and left alone.
  const planted = join(world.dir, "planted.sock");
  writeFileSync(planted, "not a socket");
  const refused = await world.run(["browse", "--session", "agent3", "--agent-socket", planted, base]);
  expect(refused.code).toBe(77);
  expect(refused.stderr).toContain(`refusing ${planted}: it is not a socket`);
  expect(readFileSync(planted, "utf8")).toBe("not a socket");
  expect((await world.json(["list"])).sessions.map((s: { name: string }) => s.name)).not.toContain("agent3");
});

test("daemon run --help prints its usage", async () => {
  const help = await run([BIN, "daemon", "run", "--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("usage: tuiwright daemon run [--ns NAME] [--idle-timeout MS]");
});

test("the document's CLI section as a shell script runs unchanged against the façade", async () => {
  const result = await run(["bash", DOC_SCRIPT, base], { PATH: `${linkDir}:${process.env.PATH}`, AWI_SOCK: world.socketPath });
  expect(result.stderr).toBe("");
  expect(result.stdout).toContain("can go back");
  expect(result.stdout.trim().endsWith("done")).toBe(true);
  expect(result.code).toBe(0);
});
