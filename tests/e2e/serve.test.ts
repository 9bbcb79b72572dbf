// `tuiwright serve --http`: JSON-RPC and MCP over HTTP (the SDK's own Streamable HTTP client),
// and every refusal that keeps a web page or another user from driving your programs through it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { processGone, World } from "../helpers/harness.ts";
import { startServe as startServeProcess } from "../helpers/serve-process.ts";

let world: World;
let server: Bun.Subprocess<"ignore", "pipe", "pipe">;
let url = "";
let token = "";
let tokenFile = "";

/** `serve --http 127.0.0.1:0 …` on this file's daemon. */
const startServe = (flags: string[] = []) => startServeProcess({ ...world.env, TUIWRIGHT_MCP_PROGRESS_MS: "200" }, flags);

beforeAll(async () => {
  world = await World.start();
  ({ server, url, token, tokenFile } = await startServe());
});

afterAll(async () => {
  server.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  await world[Symbol.asyncDispose]();
});

const auth = () => ({ Authorization: `Bearer ${token}`, "Content-Type": "application/json" });
async function post(path: string, body: unknown, headers: Record<string, string> = auth()) {
  const response = await fetch(`${url}${path}`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: response.status, body: response.status === 202 ? null : await response.json() };
}

test("POST /rpc runs the daemon's methods: spawn, type with a wait, snapshot, kill", async () => {
  const spawned = await post("/rpc", { jsonrpc: "2.0", id: 1, method: "spawn", params: { session: "web-cat", argv: ["cat"] } });
  expect(spawned).toMatchObject({ status: 200, body: { jsonrpc: "2.0", id: 1, result: { name: "web-cat" } } });
  const typed = await post("/rpc", { jsonrpc: "2.0", id: 2, method: "type", params: { session: "web-cat", text: "over http\r", wait: { text: ["over http"] } } });
  expect(typed.body).toMatchObject({ id: 2, result: expect.anything() });
  const [snap, missing] = (await post("/rpc", [
    { jsonrpc: "2.0", id: 3, method: "snapshot", params: { session: "web-cat" } },
    { jsonrpc: "2.0", id: 4, method: "snapshot", params: { session: "nope" } },
  ])).body;
  expect(snap.result.text).toContain("over http");
  expect(missing.error).toMatchObject({ code: -32004, data: { name: "no-such-session" } });
  expect((await post("/rpc", { jsonrpc: "2.0", id: 5, method: "kill", params: { session: "web-cat" } })).body.result).toBeDefined();
});

async function mcpClient(name: string, at = { url, token }): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${at.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${at.token}` } } });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

test("/mcp is MCP's Streamable HTTP transport: the SDK's client lists and calls the tools, with progress", async () => {
  const { client, transport } = await mcpClient("over-http");
  expect(client.getServerVersion()?.name).toBe("tuiwright");
  expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain("snapshot");
  expect(tools.map((tool) => tool.name)).not.toContain("daemon_stop"); // the default profiles (--mcp-tools)
  const listed = await client.callTool({ name: "list", arguments: {} });
  expect(listed.isError).toBe(false);
  await client.callTool({ name: "spawn", arguments: { shell: "bash", session: "web-shell" } });
  let ticks = 0;
  const slow = await client.callTool({ name: "exec", arguments: { session: "web-shell", command: "sleep 1; echo streamed" } }, undefined, {
    timeout: 30_000, onprogress: () => { ticks++; },
  });
  expect((slow.structuredContent as any).output).toContain("streamed");
  expect(ticks).toBeGreaterThan(0); // progress reached the client on the call's SSE stream (TUIWRIGHT_MCP_PROGRESS_MS=200)
  await client.callTool({ name: "kill", arguments: { session: "web-shell" } });
  await transport.terminateSession();
  await client.close();
});

test("ending an MCP session over HTTP (DELETE) kills the sessions it started, unless kept; the session id is then unknown", async () => {
  const { client, transport } = await mcpClient("short-lived");
  await client.callTool({ name: "spawn", arguments: { argv: ["cat"], session: "web-goes" } });
  await client.callTool({ name: "spawn", arguments: { argv: ["cat"], session: "web-stays", keep: true } });
  const sessionId = transport.sessionId!;
  await transport.terminateSession();
  await client.close();
  const names = (await world.json(["list"])).sessions.map((s: { name: string }) => s.name);
  expect(names).toContain("web-stays");
  expect(names).not.toContain("web-goes");
  await world.json(["kill", "--session", "web-stays"]);
  const stale = await post("/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { ...auth(), Accept: "application/json, text/event-stream", "Mcp-Session-Id": sessionId });
  expect(stale).toMatchObject({ status: 404, body: { error: { message: expect.stringContaining("initialize again") } } });
});

/** Resolves once no session of that name is listed, or after `withinMs` — its kill runs inside
 * `serve` (the idle expiry), which tells nobody here when it has finished. */
async function sessionGone(name: string, withinMs = 30_000): Promise<boolean> {
  const rpc = await world.rpc();
  try {
    const deadline = performance.now() + withinMs;
    for (;;) {
      const { sessions } = (await rpc.call("list", {})) as { sessions: { name: string }[] };
      if (!sessions.some((session) => session.name === name)) return true;
      if (performance.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    rpc.close();
  }
}

test("an MCP client that goes away without DELETE is ended after --mcp-idle: its sessions are killed, kept ones stay; a call running longer than that is not cut off", async () => {
  const idle = await startServe(["--mcp-idle", "1000"]);
  try {
    // A call that outlasts the idle time: the session is busy, not idle.
    const worker = await mcpClient("long-call", idle);
    const shell = await worker.client.callTool({ name: "spawn", arguments: { shell: "bash", session: "idle-shell" } });
    const slow = await worker.client.callTool({ name: "exec", arguments: { session: "idle-shell", command: "sleep 3; echo outlasted" } }, undefined, { timeout: 30_000 });
    expect(slow.isError).toBe(false);
    expect((slow.structuredContent as { output: string }).output).toContain("outlasted");

    // A client that vanishes (no DELETE): after 1 s without a request its sessions go, as on DELETE.
    const gone = await mcpClient("vanishes", idle);
    const spawned = await gone.client.callTool({ name: "spawn", arguments: { argv: ["cat"], session: "idle-goes" } });
    await gone.client.callTool({ name: "spawn", arguments: { argv: ["cat"], session: "idle-stays", keep: true } });
    const sessionId = gone.transport.sessionId!;
    await gone.client.close(); // closes its streams; sends no DELETE
    await worker.client.close();
    expect(await processGone((spawned.structuredContent as { pid: number }).pid, 30_000)).toBe(true);
    expect(await processGone((shell.structuredContent as { pid: number }).pid, 30_000)).toBe(true); // its client went idle too, once its call was done
    // The processes go first; the daemon removes their sessions once their workers have ended.
    expect(await sessionGone("idle-goes")).toBe(true);
    expect(await sessionGone("idle-shell")).toBe(true);
    const names = (await world.json(["list"])).sessions.map((s: { name: string }) => s.name);
    expect(names).toContain("idle-stays");
    expect(names).not.toContain("idle-goes");
    expect(names).not.toContain("idle-shell");
    await world.json(["kill", "--session", "idle-stays"]);
    const expired = await fetch(`${idle.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${idle.token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": sessionId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(expired.status).toBe(404);
    expect((await expired.json()).error.message).toContain("idle longer than --mcp-idle");
  } finally {
    idle.server.kill("SIGTERM");
    expect(await idle.server.exited).toBe(0);
  }
});

test("/mcp refusals: no session id, no Accept for event streams, and the same token, Host and Origin checks as /rpc", async () => {
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
  const noSession = await post("/mcp", { jsonrpc: "2.0", id: 2, method: "tools/list" }, { ...auth(), Accept: "application/json, text/event-stream" });
  expect(noSession).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining("start with an initialize request") } } });
  const noAccept = await post("/mcp", init);
  expect(noAccept).toMatchObject({ status: 406, body: { error: { message: expect.stringContaining("text/event-stream") } } });
  expect((await post("/mcp", init, { "Content-Type": "application/json", Accept: "application/json, text/event-stream" })).status).toBe(401);
  expect((await post("/mcp", init, { ...auth(), Accept: "application/json, text/event-stream", Origin: "http://evil.example" })).status).toBe(403);
  expect((await post("/mcp", "{not json", { ...auth(), Accept: "application/json, text/event-stream" })).body.error.code).toBe(-32700);
});

test("refusals: no token, a wrong token, a foreign Host or Origin, wrong verb or path, a huge or broken body", async () => {
  const plain = { "Content-Type": "application/json" };
  const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
  const noToken = await post("/rpc", ping, plain);
  expect(noToken).toMatchObject({ status: 401, body: { error: { message: expect.stringContaining("missing bearer token") } } });
  expect((await post("/rpc", ping, { ...plain, Authorization: "Bearer nope" })).body.error.message).toBe("wrong bearer token");
  const rebound = await post("/rpc", ping, { ...auth(), Host: "evil.example:80" });
  expect(rebound).toMatchObject({ status: 403, body: { error: { message: expect.stringContaining("DNS rebinding") } } });
  const crossSite = await post("/rpc", ping, { ...auth(), Origin: "http://evil.example" });
  expect(crossSite).toMatchObject({ status: 403, body: { error: { message: expect.stringContaining("cross-site") } } });
  expect((await fetch(`${url}/rpc`, { headers: auth() })).status).toBe(405);
  expect((await post("/elsewhere", ping)).status).toBe(404);
  expect((await post("/rpc", "x".repeat(1024 * 1024 + 1))).status).toBe(413);
  expect((await post("/rpc", "{not json")).body.error.code).toBe(-32700);
  expect((await post("/rpc", { id: 1, method: "ping" })).body.error.code).toBe(-32600);
  expect((await post("/rpc", { jsonrpc: "2.0", id: 1, method: "subscribe", params: {} })).body.error.message).toContain("use the Unix socket");
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
});

test("a non-loopback address is refused without --allow-remote (exit 77); a bad address is a usage error (64)", async () => {
  const remote = await world.run(["serve", "--http", "0.0.0.0:0"]);
  expect(remote.code).toBe(77);
  expect(remote.stderr).toContain("refusing to listen on 0.0.0.0: only loopback addresses unless --allow-remote");
  const bad = await world.run(["serve", "--http", "nowhere"]);
  expect(bad.code).toBe(64);
  expect(bad.stderr).toContain('--http needs HOST:PORT');
  const none = await world.run(["serve"]);
  expect(none.code).toBe(64);
  const word = await world.run(["serve", "--http", "127.0.0.1:0", "--mcp-idle", "soon"]);
  expect(word.code).toBe(64);
  expect(word.stderr).toContain('--mcp-idle needs a whole number, got "soon"');
  const negative = await world.run(["serve", "--http", "127.0.0.1:0", "--mcp-idle", "-5"]);
  expect(negative.code).toBe(64);
  expect(negative.stderr).toContain("--mcp-idle must be 0..");
  const badEnv = await world.run(["serve", "--http", "127.0.0.1:0"], { env: { TUIWRIGHT_MCP_IDLE_MS: "30m" } });
  expect(badEnv.code).toBe(64);
  expect(badEnv.stderr).toContain('TUIWRIGHT_MCP_IDLE_MS must be 0..2147483647 ms (0: never); got "30m"');
});
