// `serve --http --token-file PATH` (or $TUIWRIGHT_SERVE_TOKEN_FILE): a bearer token that stays the
// same across restarts, for an MCP client's static configuration. A missing file is created with
// a fresh token (0600); an existing one must be ours, a regular file, readable by nobody else and
// hold a usable token — anything else is refused before the server listens.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";
import { BIN } from "../helpers/harness.ts";

let world: World;
beforeAll(async () => { world = await World.start(); });
afterAll(async () => { await world[Symbol.asyncDispose](); });

type Server = { server: Bun.Subprocess<"ignore", "pipe", "pipe">; url: string; output: string; stateTokenFile: string };

/** `serve --http 127.0.0.1:0 ARGS…`, returned once it has printed where it listens. */
async function serve(args: string[], env: Record<string, string> = {}): Promise<Server> {
  const server = Bun.spawn([BIN, "serve", "--http", "127.0.0.1:0", ...args], { env: { ...world.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const reader = server.stdout.getReader();
  let output = "";
  while (!output.includes("mode 0600")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited: ${output}${await new Response(server.stderr).text()}`);
    output += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { server, output, url: /serving (http:\/\/[^/]+)\/rpc/.exec(output)![1]!, stateTokenFile: /stored in (\S+),/.exec(output)![1]! };
}

async function ping(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/rpc`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
  await response.arrayBuffer();
  return response.status;
}

async function stop(running: Server): Promise<void> {
  running.server.kill("SIGTERM");
  expect(await running.server.exited).toBe(0);
}

test("--token-file: a missing file is created with a fresh token (0600) and the same token serves every later start", async () => {
  const file = join(world.dir, "http.token");
  const first = await serve(["--token-file", file]);
  const token = readFileSync(file, "utf8").trim();
  expect(token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(first.output).toContain(`token: read from ${file}`);
  expect(first.output).not.toContain(token); // printed nowhere: it is in the file
  expect(await ping(first.url, token)).toBe(200);
  expect(await ping(first.url, "x".repeat(32))).toBe(401);
  expect(readFileSync(first.stateTokenFile, "utf8").trim()).toBe(token);
  await stop(first);
  expect(existsSync(first.stateTokenFile)).toBe(false); // the state directory's copy goes on exit
  expect(readFileSync(file, "utf8").trim()).toBe(token); // the user's file stays: that is the point

  const again = await serve([], { TUIWRIGHT_SERVE_TOKEN_FILE: file });
  expect(await ping(again.url, token)).toBe(200);
  await stop(again);
});

test("a token file that is not safe or not usable is refused before listening, with its exit code", async () => {
  const cases: { name: string; make: () => string; code: number; message: string }[] = [
    {
      name: "readable by others", code: 77, message: "has mode 644: others can read the token (chmod 600)",
      make: () => { const f = join(world.dir, "open.token"); writeFileSync(f, `${"a".repeat(40)}\n`); chmodSync(f, 0o644); return f; },
    },
    {
      name: "another user's", code: 77, message: "is owned by uid 65534",
      make: () => { const f = join(world.dir, "theirs.token"); writeFileSync(f, `${"b".repeat(40)}\n`, { mode: 0o600 }); chownSync(f, 65534, 65534); return f; },
    },
    { name: "in a missing directory", code: 66, message: "no such directory", make: () => join(world.dir, "no-dir", "http.token") },
    {
      name: "too short", code: 65, message: "holds no usable token: 32 to 512 characters of A-Z a-z 0-9 - . _ ~ + / =",
      make: () => { const f = join(world.dir, "short.token"); writeFileSync(f, "secret\n", { mode: 0o600 }); return f; },
    },
    { name: "a directory", code: 65, message: "is a directory", make: () => { const d = join(world.dir, "dir.token"); mkdirSync(d); return d; } },
  ];
  for (const { name, make, code, message } of cases) {
    const file = make();
    const run = await world.run(["serve", "--http", "127.0.0.1:0", "--token-file", file]);
    expect({ name, code: run.code, stderr: run.stderr }).toEqual({ name, code, stderr: expect.stringContaining(message) });
    expect(run.stderr).toContain(JSON.stringify(file));
  }
  const fromEnv = await world.run(["serve", "--http", "127.0.0.1:0"], { env: { TUIWRIGHT_SERVE_TOKEN_FILE: join(world.dir, "no-dir", "t") } });
  expect(fromEnv.code).toBe(66);
  expect(fromEnv.stderr).toContain("TUIWRIGHT_SERVE_TOKEN_FILE");
  expect((await world.run(["serve", "--http", "127.0.0.1:0", "--token-file"])).code).toBe(64);
});
