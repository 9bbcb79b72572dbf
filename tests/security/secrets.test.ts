// A --secret stays out of everything that leaves a session (issue 24, item 14): output with NULs
// between its characters escaped the cast's mask; a wait's timeout excerpt carried it into CLI
// errors and MCP results; fish drew it from history into a new session's cast.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, World } from "../helpers/harness.ts";

let world: World;
let mcp: Client;
beforeAll(async () => {
  world = await World.start();
  mcp = new Client({ name: "secrets-test", version: "1.0.0" });
  await mcp.connect(new StdioClientTransport({ command: BIN, args: ["mcp"], env: world.env, stderr: "pipe" }));
}, 180_000);
afterAll(async () => {
  await mcp?.close();
  await world[Symbol.asyncDispose]();
}, 180_000);

const fresh = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 10)}`;

/** The secret anywhere in `text`, with anything but printable characters between its characters. */
function leaks(text: string, secret: string): boolean {
  return new RegExp([...secret].map((c) => c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")).join("[^ -~]*")).test(text);
}

/** Reads a line without echo, then prints it back with a NUL between each two characters. */
const NUL_ECHO = `
import os, sys, termios
attrs = termios.tcgetattr(0); attrs[3] &= ~termios.ECHO; termios.tcsetattr(0, termios.TCSANOW, attrs)
print("ready>", flush=True)
line = sys.stdin.readline().strip()
os.write(1, b"got: " + b"\\0".join(c.encode() for c in line) + b"\\r\\n")
sys.stdin.readline()
`;

test("output with NULs between a secret's characters is masked in the cast and the snapshot", async () => {
  const secret = fresh("Nul");
  const { name } = await world.spawn(["python3", "-c", NUL_ECHO]);
  await world.json(["wait", "--session", name, "--text", "ready>", "--timeout", "60000"]);
  await world.json(["type", "--session", name, "--secret", `${secret}\r`, "--wait-text", "got: ", "--timeout", "60000"]);
  const cast = (await world.json(["get", "--session", name, "cast"])).value as string;
  const snapshot = (await world.json(["snapshot", "--session", name])).text as string;
  expect(snapshot).toContain(`got: ${"*".repeat(secret.length)}`);
  await world.json(["type", "--session", name, "bye\r", "--wait-exit", "--timeout", "60000"]);
  await world.run(["kill", "--session", name]);
  expect(leaks(readFileSync(cast, "utf8").replaceAll("\\u0000", "\0"), secret)).toBe(false);
}, 180_000);

test("a wait that times out shows the screen with the secret masked: CLI error, MCP result, and a wait that fires on it", async () => {
  const secret = fresh("Wait");
  const { name } = await world.spawn(["cat"]);
  await world.json(["type", "--session", name, "--secret", secret, "--wait-text", secret, "--timeout", "60000"]);
  // The wait fired on the screen as drawn; what it returns is masked.
  const fired = await world.run(["--json", "wait", "--session", name, "--text", secret, "--timeout", "60000"]);
  expect(fired.code).toBe(0);
  expect(leaks(fired.stdout, secret)).toBe(false);
  const cli = await world.run(["wait", "--session", name, "--text", "never-there", "--timeout", "200"]);
  expect(cli.code).toBe(124);
  expect(cli.stderr).toContain("*".repeat(secret.length));
  expect(leaks(cli.stderr, secret)).toBe(false);
  const json = await world.run(["--json", "wait", "--session", name, "--text", "never-there", "--timeout", "200"]);
  expect(leaks(json.stdout, secret)).toBe(false);
  const tool = await mcp.callTool({ name: "wait", arguments: { session: name, text: ["never-there"], timeoutMs: 200 } });
  expect(tool.isError).toBe(true);
  expect(JSON.stringify(tool)).toContain("*".repeat(secret.length));
  expect(leaks(JSON.stringify(tool), secret)).toBe(false);
  const snap = await mcp.callTool({ name: "snapshot", arguments: { session: name, format: "ansi", includeMeta: true } });
  expect(leaks(JSON.stringify(snap), secret)).toBe(false);
  await world.run(["kill", "--session", name]);
}, 180_000);

test("a secret one session typed is masked where another session draws it (fish suggests it from history)", async () => {
  const secret = fresh("Hist");
  // A fish without tuiwright's integration: tuiwright does not control its history.
  const typing = await world.spawn(["fish", "-i"]);
  await world.json(["wait", "--session", typing.name, "--regex", "[#>$] *$", "--timeout", "60000"]);
  await world.json(["type", "--session", typing.name, "echo "]);
  await world.json(["type", "--session", typing.name, "--secret", secret]);
  await world.json(["press", "--session", typing.name, "Enter", "--wait-regex", `^${secret}$`, "--timeout", "60000"]); // the screen as drawn
  await world.json(["type", "--session", typing.name, "exit\r", "--wait-exit", "--timeout", "60000"]);
  await world.run(["kill", "--session", typing.name]);
  // fish suggests only history written before the second its own session started (items of
  // that second or later belong to sessions running beside it): a second fish started within
  // the same second as the first one's exit suggests nothing. The secret was typed in an
  // earlier session, so its history entry is dated a minute back.
  const history = join(world.env.HOME!, ".local/share/fish/fish_history");
  writeFileSync(history, readFileSync(history, "utf8").replace(/^( +when: )([0-9]+)$/gm, (_line, key: string, when: string) => `${key}${Number(when) - 60}`));

  const other = await world.spawn(["fish", "-i"]);
  await world.json(["wait", "--session", other.name, "--regex", "[#>$] *$", "--timeout", "60000"]);
  // fish suggests the rest of the line from its history: the secret, drawn by this session.
  await world.json(["type", "--session", other.name, "echo ", "--wait-text", secret, "--timeout", "60000"]);
  const snapshot = await world.json(["snapshot", "--session", other.name, "--include-meta"]);
  expect(snapshot.text).toContain(`echo ${"*".repeat(secret.length)}`);
  await world.json(["press", "--session", other.name, "C-c"]);
  await world.json(["type", "--session", other.name, "exit\r", "--wait-exit", "--timeout", "60000"]);
  await world.run(["kill", "--session", other.name]);
  expect(leaks(readFileSync(snapshot.meta.recording.path, "utf8"), secret)).toBe(false);
}, 180_000);

for (const shell of ["bash", "zsh", "fish"]) {
  test(`${shell} started with --shell keeps a command line holding a --secret out of its history file`, async () => {
    const home = world.env.HOME!;
    // zsh keeps no history file unless told to: as a user's .zshrc would.
    await Bun.write(`${home}/.zshrc`, "HISTFILE=$HOME/.zsh_history\nSAVEHIST=1000\nHISTSIZE=1000\nsetopt INC_APPEND_HISTORY\n");
    const secret = fresh(`Line${shell}`);
    const { name } = await world.json(["spawn", "--shell", shell]);
    await world.json(["exec", "--session", name, "true"]);
    await world.json(["type", "--session", name, "echo "]);
    await world.json(["type", "--session", name, "--secret", secret]);
    await world.json(["press", "--session", name, "Enter", "--wait-regex", `^${secret}$`, "--timeout", "60000"]);
    // exec'ing a command line that names the secret keeps it out too; other lines stay.
    // --queue: the line typed above is a block of its own, which may not have ended yet.
    await world.json(["exec", "--session", name, "--queue", `echo again-${secret}`]);
    await world.json(["exec", "--session", name, `echo kept-${shell}`]);
    await world.json(["type", "--session", name, "exit\r", "--wait-exit", "--timeout", "60000"]);
    await world.run(["kill", "--session", name]);
    const file = { bash: ".bash_history", zsh: ".zsh_history", fish: ".local/share/fish/fish_history" }[shell]!;
    const history = readFileSync(`${home}/${file}`, "utf8");
    expect(history).toContain(`echo kept-${shell}`);
    expect(history).not.toContain(secret);
  }, 180_000);
}
