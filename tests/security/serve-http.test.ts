// Finding 16's `serve --http` parts: a busy port is a clear error naming the address (it was
// exit 70, "this is a tuiwright bug"); the bearer token file goes when the server stops, and
// `gc` removes the one a killed server left; a chunked body is counted while it arrives and
// refused at the limit (it was buffered whole — an endless body was never answered).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";
import { startServe as startServeProcess } from "../helpers/serve-process.ts";

setDefaultTimeout(60_000);

let world: World;

beforeAll(async () => { world = await World.start(); });
afterAll(async () => { await world[Symbol.asyncDispose](); });

const startServe = () => startServeProcess(world.env);

const stateDir = () => join(world.dir, "state", "tuiwright", world.namespace);
const tokenFiles = () => (existsSync(stateDir()) ? readdirSync(stateDir()).filter((name) => name.startsWith("serve-")) : []);

test("serve on a busy port exits 74 naming the address, not 70 'a tuiwright bug'", async () => {
  const busy = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
  try {
    const result = await world.run(["serve", "--http", `127.0.0.1:${busy.port}`]);
    expect(result.code).toBe(74);
    expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${busy.port}: the port is in use (EADDRINUSE)`);
    expect(result.stderr).toContain("port 0 to let the system pick a free one");
    expect(result.stderr).not.toContain("tuiwright bug");
  } finally {
    busy.stop(true);
  }
});

test("the token file is removed when the server stops; gc removes the one a killed server left", async () => {
  const stopped = await startServe();
  expect(existsSync(stopped.tokenFile)).toBe(true);
  stopped.server.kill("SIGTERM");
  expect(await stopped.server.exited).toBe(0);
  expect(existsSync(stopped.tokenFile)).toBe(false);
  expect(tokenFiles()).toEqual([]);

  const killed = await startServe();
  const live = await startServe();
  killed.server.kill("SIGKILL");
  await killed.server.exited;
  expect(existsSync(killed.tokenFile)).toBe(true);
  const dry = await world.json(["gc", "--dry-run"]);
  expect(dry.staleServeTokens).toEqual([killed.tokenFile]);
  expect(existsSync(killed.tokenFile)).toBe(true);
  const gc = await world.run(["gc"]);
  expect(gc.code).toBe(0);
  expect(gc.stdout).toContain(`removed ${killed.tokenFile} (serve token; its server is no longer running)`);
  expect(existsSync(killed.tokenFile)).toBe(false);
  // The running server's token is left alone (and still works).
  expect(existsSync(live.tokenFile)).toBe(true);
  const ping = await fetch(`${live.url}/rpc`, { method: "POST", headers: { Authorization: `Bearer ${live.token}`, "Content-Type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: {} }) });
  expect(ping.status).toBe(200);
  live.server.kill("SIGTERM");
  expect(await live.server.exited).toBe(0);
  expect(tokenFiles()).toEqual([]);
});

test("a chunked body is refused (413) once it passes 1 MiB, while it is still arriving", async () => {
  const serving = await startServe();
  try {
    // An endless body: buffering it whole (as before) never answers.
    const chunk = new TextEncoder().encode(`[${" ".repeat(64 * 1024 - 2)}]`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const answer = await Promise.race([
      fetch(`${serving.url}/rpc`, { method: "POST", headers: { Authorization: `Bearer ${serving.token}`, "Content-Type": "application/json" }, body, duplex: "half" } as RequestInit),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)), // a deadline for the old behaviour, not a wait
    ]);
    expect(answer?.status).toBe(413);
    expect(await answer!.text()).toContain("exceeds the 1048576-byte limit");
    expect(sent).toBeLessThan(64 << 20);
  } finally {
    serving.server.kill("SIGTERM");
    await serving.server.exited;
  }
});
