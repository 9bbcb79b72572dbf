// Terminal sessions as applications of an AOTUI desktop, driven only through the Markdown and
// operations from the manifests' [[operations]] tables: vim, a shell, python, htop.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";
import { findItem, viewText } from "../helpers/markdown-agent.ts";
import { RawSocket } from "../helpers/raw-socket.ts";

// A loaded machine can take many seconds to start an interactive bash (root's ~/.bashrc runs
// pyenv's rehash, which waits on a lock other shells hold): no wall-clock bound is meant here.
setDefaultTimeout(120_000);

let world: World;
beforeAll(async () => {
  world = await World.start();
  await world.json(["desktop", "create", "--op-timeout", "60000"]);
});
afterAll(async () => { await world[Symbol.asyncDispose](); });

async function snapshot(): Promise<string> {
  const run = await world.run(["desktop", "snapshot"]);
  expect(run.stderr).toBe("");
  return run.stdout;
}

async function exec(command: string, app: string): Promise<any> {
  const result = await world.run(["--json", "desktop", "exec", command, "--app", app]);
  if (result.code !== 0) throw new Error(`exec ${command} exited ${result.code}: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** The section of the Markdown for one application. */
function appSection(markup: string, app: string): string {
  const start = markup.indexOf(`<application id="${app}"`);
  return markup.slice(start, markup.indexOf("</application>", start));
}

test("vim: a file edited through operations only", async () => {
  const file = join(world.dir, "notes.txt");
  writeFileSync(file, "first line\nsecond line\n");
  await world.spawn(["vim", "-u", "NONE", "-N", file], ["--session", "ed"]);
  await world.run(["wait", "-s", "ed", "--text", "second line"]);
  const app = (await world.json(["desktop", "open-session", "ed"])).app;
  const markup = await snapshot();
  const section = appSection(markup, app);
  expect(section).toContain("(manifest vim)");
  expect(section).toContain("[unknown](entity:mode)"); // no mode message seen yet: normal, or insert without showmode
  for (const op of ["save", "save_as", "quit", "open_file", "search", "append_line", "replace_all"]) expect(section).toContain(`(operation:${op})`);
  expect(section).toContain("~ (");
  await exec(`execute append_line --text "third line"`, app);
  await exec(`execute replace_all --pattern second --replacement 2nd`, app);
  const saved = await exec("execute save", app);
  expect(saved).toMatchObject({ status: "ok", operation: "save" });
  // The cursor was on line 1: the new line went below it.
  expect(readFileSync(file, "utf8")).toBe("first line\nthird line\n2nd line\n");
  expect(appSection(await snapshot(), app)).toContain("written");
  await exec("execute quit", app);
  await world.run(["wait", "-s", "ed", "--exit"]);
  expect(appSection(await snapshot(), app)).toContain("Exited: exit code 0");
});

test("shell: run a command through an operation, as a block with its output and exit code", async () => {
  await world.json(["spawn", "--shell", "bash", "--session", "sh"]);
  await world.json(["exec", "--session", "sh", "--timeout", "90000", "--", "true"]); // the shell is up
  const app = (await world.json(["desktop", "open-session", "sh"])).app;
  expect(appSection(await snapshot(), app)).toContain("(operation:run)");
  const ack = await exec(`execute run --command "echo from-the-desktop; false"`, app);
  expect(ack.result).toMatchObject({ exitCode: 1, output: "from-the-desktop\n" });
  expect(appSection(await snapshot(), app)).toContain("from-the-desktop");
});

test("python: evaluate a line at the prompt", async () => {
  await world.spawn(["python3", "-q"], ["--session", "py"]);
  await world.run(["wait", "-s", "py", "--text", ">>>"]);
  const app = (await world.json(["desktop", "open-session", "py"])).app;
  await exec(`execute evaluate --code "print(6 * 7)"`, app);
  const section = appSection(await snapshot(), app);
  expect(section).toContain("(manifest python)");
  expect(section).toMatch(/^\s+42$/m);
});

test("a terminal app's screen changes are signals; a leased session refuses the desktop's input (busy)", async () => {
  const markup = await snapshot();
  const app = /<application id="(app_\d+)", name="Terminal py"/.exec(markup)![1]!;
  const raw = await RawSocket.open(world.socketPath);
  try {
    raw.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "desktop.subscribe", params: {} }) + "\n");
    expect((await raw.next()).result.subscription).toBeString();
    await world.run(["type", "-s", "py", "x = 1"]);
    let message = await raw.next();
    while (message.method !== "desktop.signal") message = await raw.next();
    expect(message.params.reason).toBe("dom_mutation");
    await world.run(["press", "-s", "py", "Enter"]);
  } finally {
    raw.close();
  }
  const lease = await world.json(["lease", "acquire", "-s", "py", "--owner", "someone"]);
  const refused = await world.run(["--json", "desktop", "exec", `execute evaluate --code "print(1)"`, "--app", app]);
  expect(refused.code).toBe(75);
  // In the §8 format like every desktop error: E_BUSY, recoverable (retry once the lease is gone).
  const error = JSON.parse(refused.stdout).error;
  expect(error.message).toStartWith("E_BUSY: ");
  expect(error.message).toContain("someone");
  expect(error.data).toMatchObject({ name: "busy", aotui: "E_BUSY", recoverable: true });
  await world.run(["lease", "release", "-s", "py", "--lease", lease.token]);
  expect((await world.run(["desktop", "exec", `execute evaluate --code "print(2)"`, "--app", app])).code).toBe(0);
});

test("htop: filter, then kill a process by its item in the list", async () => {
  const victim = Bun.spawn(["sleep", "3600"]);
  try {
    await world.spawn(["htop"], ["--session", "top"]);
    await world.run(["wait", "-s", "top", "--text", "PID"]);
    const app = (await world.json(["desktop", "open-session", "top"])).app;
    await exec(`execute filter --text "sleep 3600"`, app);
    const markup = await snapshot();
    const item = findItem(markup, `${victim.pid} `);
    expect(item.app).toBe(app);
    await exec(`execute kill_process --process ${item.ref}`, app);
    expect(await victim.exited).not.toBe(0);
    expect(victim.signalCode).toBe("SIGTERM");
  } finally {
    victim.kill("SIGKILL");
  }
});

test("every session is offered in view_1; the agent opens one from the DSL (less: search, quit)", async () => {
  const file = join(world.dir, "long.txt");
  writeFileSync(file, Array.from({ length: 200 }, (_, i) => `line ${i + 1}${i === 149 ? " needle" : ""}`).join("\n") + "\n");
  await world.spawn(["less", file], ["--session", "pager"]);
  await world.run(["wait", "-s", "pager", "--text", "line 1"]);
  let markup = await snapshot();
  expect(viewText(markup, "view_1")).toContain("- [Terminal pager](application:session:pager)");
  const opened = await world.json(["desktop", "exec", "<context>open --application session:pager</context>"]);
  expect(opened.app).toMatch(/^app_\d+$/);
  markup = await snapshot();
  expect(viewText(markup, "view_1")).toContain(`- [Terminal pager](application:${opened.app})`);
  expect(appSection(markup, opened.app)).toContain("(manifest less)");
  await exec(`execute search --pattern needle`, opened.app);
  expect(appSection(await snapshot(), opened.app)).toContain("line 150 needle");
  await exec("execute quit", opened.app);
  expect((await world.run(["wait", "-s", "pager", "--exit"])).code).toBe(0);
  const missing = await world.run(["desktop", "exec", "<context>open --application session:nobody</context>"]);
  expect(missing.code).toBe(66);
});

test("a terminal app's operation whose outcome never shows is E_TIMEOUT, not recoverable (its keys were sent), in the §8 format", async () => {
  // A desktop of its own with a short operation timeout (destroyed after: the others use the only desktop).
  const desktop = (await world.json(["desktop", "create", "--op-timeout", "3000"])).desktop;
  try {
    await world.spawn(["python3", "-q"], ["--session", "slow"]);
    await world.run(["wait", "-s", "slow", "--text", ">>>"]);
    const app = (await world.json(["desktop", "open-session", "slow", "--desktop", desktop])).app;
    const run = await world.run(["--json", "desktop", "exec", `execute evaluate --code "import time; time.sleep(3600)"`, "--app", app, "--desktop", desktop]);
    expect(run.code).toBe(124);
    const error = JSON.parse(run.stdout).error;
    expect(error.message).toStartWith("E_TIMEOUT: evaluate: the keys were sent but neither success nor failure showed within");
    expect(error.message).toContain("the operation may still take effect");
    expect(error.data).toMatchObject({ name: "timeout", aotui: "E_TIMEOUT", recoverable: false });
    expect((await world.run(["desktop", "exec", "execute interrupt", "--app", app, "--desktop", desktop])).code).toBe(0);
  } finally {
    await world.run(["desktop", "destroy", "--desktop", desktop]);
  }
});

test("a terminal app's operation with a bad argument is E_INVALID_CMD; the session is untouched", async () => {
  const markup = await snapshot();
  const app = /<application id="(app_\d+)", name="Terminal py"/.exec(markup)![1]!;
  const run = await world.run(["desktop", "exec", "execute evaluate --cod x", "--app", app]);
  expect(run.code).toBe(65);
  expect(run.stderr).toContain('E_INVALID_CMD: evaluate has no argument "cod" (arguments: code)');
  expect(viewText(markup, "view_0")).toContain("System Instructions");
});
