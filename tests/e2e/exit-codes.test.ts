// The exit-code contract, through the compiled binary: each error class, its code, its message.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { World } from "../helpers/harness.ts";

let world: World;
let shell: string;
beforeAll(async () => {
  world = await World.start();
  shell = (await world.spawn(["bash", "--norc"], ["--session", "sh1"])).name;
  await world.json(["wait", "--session", shell, "--regex", "[$#]$"]);
});
afterAll(async () => { await world[Symbol.asyncDispose](); });

async function expectExit(args: string[], code: number, message: string | RegExp) {
  const result = await world.run(args);
  expect({ args, code: result.code }).toEqual({ args, code });
  if (typeof message === "string") expect(result.stderr).toContain(message);
  else expect(result.stderr).toMatch(message);
  return result;
}

test("0: success, help and version", async () => {
  expect((await world.run(["help", "spawn"])).stdout).toContain("usage: tuiwright spawn");
  expect((await world.run(["press", "--help"])).stdout).toContain("--wait-text");
  expect((await world.run(["--version"])).stdout).toMatch(/^0\.1\.0\+[0-9a-f]{12}\n$/);
  expect((await world.run(["--plain", "ping"])).stdout).toBe("pong\n");
});

test("64: bad flags and arguments print the verb's usage", async () => {
  const bogus = await expectExit(["spawn", "--bogus", "--", "true"], 64, "unknown flag --bogus for `spawn`");
  expect(bogus.stderr).toContain("usage: tuiwright spawn [--session NAME]");
  await expectExit(["spawn", "--cols", "wide", "--", "true"], 64, '--cols needs a whole number, got "wide"');
  await expectExit(["spawn"], 64, "spawn needs a program after --");
  await expectExit(["spawn", "--cols", "1", "--", "true"], 64, 'invalid params for "spawn": cols:');
  await expectExit(["resize", "abc", "10"], 64, 'COLS must be a whole number, got "abc"');
  await expectExit(["resize", "10"], 64, "resize needs 2 argument(s)");
  await expectExit(["get", "colour"], 64, 'invalid params for "get": what:');
  await expectExit(["snapshot", "--format", "jpeg"], 64, '--format is one of text, ansi, cells, outline, svg, png; got "jpeg"');
  await expectExit(["click", "--button", "both", "1", "1"], 64, '--button is one of left, middle, right; got "both"');
  await expectExit(["frobnicate"], 64, 'unknown verb "frobnicate"');
  await expectExit(["wait"], 64, "wait needs a condition");
  await expectExit(["wait", "--cursor", "3"], 64, '--cursor needs ROW,COL, got "3"');
  await expectExit(["wait", "--alt-screen", "maybe"], 64, '--alt-screen needs on or off, got "maybe"');
  await expectExit(["press", "Enter", "--timeout", "5"], 64, "--timeout, --all and --gone need a condition");
  await expectExit(["spawn", "--env", "NOEQUALS", "--", "true"], 64, '--env needs KEY=VALUE, got "NOEQUALS"');
  await expectExit(["spawn", "--session", "sh1", "--", "true"], 64, 'session "sh1" already exists');
  const none = await world.run([]);
  expect(none.code).toBe(64);
  expect(none.stderr).toContain("usage: tuiwright VERB");
});

test("65: invalid key, invalid regex (at once, not a timeout), unknown signal", async () => {
  await expectExit(["press", "--session", shell, "Nope"], 65, 'invalid key "Nope"');
  const started = performance.now();
  await expectExit(["wait", "--session", shell, "--regex", "(unclosed", "--timeout", "60000"], 65, 'invalid regex "(unclosed"');
  expect(performance.now() - started).toBeLessThan(5000);
  await expectExit(["press", "--session", shell, "Enter", "--wait-regex", "/[z-a]/i"], 65, "invalid regex");
  await expectExit(["signal", "--session", shell, "SIGNOPE"], 65, 'unknown signal "SIGNOPE"');
});

test("66: no such session, program or directory", async () => {
  await expectExit(["snapshot", "--session", "ghost"], 66, 'no session named "ghost" (sessions: sh1)');
  await expectExit(["spawn", "--", "/no/such/program"], 66, 'no such program: "/no/such/program"');
  await expectExit(["spawn", "--", "no-such-program-xyz"], 66, 'no such program: "no-such-program-xyz"');
  await expectExit(["spawn", "--cwd", "/no/such/dir", "--", "true"], 66, 'no such directory: "/no/such/dir"');
});

test("69: acting on a session whose program has exited", async () => {
  const { name } = await world.spawn(["true"]);
  await world.json(["wait", "--session", name, "--exit"]);
  await expectExit(["press", "--session", name, "Enter"], 69, "cannot press keys: the program has exited (exit code 0)");
  // Fails at once: an ended program's screen cannot change any more (the timeout is 60 s).
  const started = performance.now();
  await expectExit(["wait", "--session", name, "--text", "never", "--timeout", "60000"], 69, "the program exited (code 0) before: text \"never\"");
  expect(performance.now() - started).toBeLessThan(5000);
});

test("124: a wait that times out lists the unmet conditions and shows the screen", async () => {
  const result = await expectExit(["wait", "--session", shell, "--text", "absent", "--regex", "nope", "--all", "--timeout", "100"], 124,
    /wait timed out after \d+ ms; not met: text "absent", regex \/nope\/m/);
  expect(result.stderr).toMatch(/screen \(last rows\):\n  \| .*[$#]/);
  const json = await world.run(["--json", "wait", "--session", shell, "--text", "absent", "--timeout", "0"]);
  expect(json.code).toBe(124);
  const error = JSON.parse(json.stdout).error;
  expect(error).toMatchObject({ code: -32010, data: { name: "timeout", unmet: ['text "absent"'] } });
  expect(error.data.excerpt).toMatch(/[$#]$/);
});

test("--json errors go to stdout as {error} with the same exit code", async () => {
  const result = await world.run(["--json", "snapshot", "--session", "ghost"]);
  expect(result.code).toBe(66);
  expect(JSON.parse(result.stdout).error).toMatchObject({ code: -32004, data: { name: "no-such-session" } });
});
