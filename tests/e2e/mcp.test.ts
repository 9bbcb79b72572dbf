// The MCP server, driven by the official MCP TypeScript SDK client over stdio.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { METHODS } from "../../lib/protocol/methods.ts";
import { toolName } from "../../lib/mcp/tools.ts";
import { BIN, World } from "../helpers/harness.ts";

let world: World;
let client: Client;
beforeAll(async () => {
  world = await World.start();
  client = new Client({ name: "tuiwright-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: BIN, args: ["mcp"], env: world.env, stderr: "pipe" }));
});
afterAll(async () => {
  await client?.close();
  await world[Symbol.asyncDispose]();
});

test("the default tool list is the core and shell profiles, under 8k tokens, without daemon-wide or document tools; --tools all is the protocol table (minus subscriptions, fault hooks and AWI-TTY aliases), with hints", async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(["spawn", "snapshot", "type", "press", "click", "wait", "kill", "exec", "status", "send"]));
  for (const optIn of ["daemon_stop", "exec_block", "desktop_exec", "navigate", "debug_memory"]) expect(names).not.toContain(optIn);
  expect(JSON.stringify(tools).length / 4).toBeLessThan(8000); // tokens, at 4 characters each
  expect(tools.every((t) => t.outputSchema === undefined)).toBe(true);
  const all = new Client({ name: "tuiwright-test-all", version: "1.0.0" });
  await all.connect(new StdioClientTransport({ command: BIN, args: ["mcp", "--tools", "all"], env: world.env, stderr: "pipe" }));
  try {
    const every = (await all.listTools()).tools;
    // The AWI-TTY names are a compat table, not core methods: no tools of theirs.
    const expected = Object.keys(METHODS).filter((m) => !["subscribe", "unsubscribe", "debug.crashWorker", "debug.memory", "desktop.subscribe"].includes(m)).map(toolName);
    expect(expected).toEqual(expect.arrayContaining(["navigate", "back", "forward", "mouse"]));
    expect(expected).not.toContain("send_key");
    // The agent-interactive-pty tools (its send, status and reset are the core tools).
    expected.push("exec_block", "exec_interactive", "ctrl_c", "ctrl_d", "enter", "wait_for", "end_session");
    expect(every.map((t) => t.name).sort()).toEqual(expected.sort());
    const snapshot = every.find((t) => t.name === "snapshot")!;
    expect(snapshot.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(snapshot.inputSchema.properties).toHaveProperty("format");
    expect(every.find((t) => t.name === "kill")!.annotations!.destructiveHint).toBe(true);
    expect(every.find((t) => t.name === "daemon_stop")).toBeDefined();
    expect(every.find((t) => t.name === "exec_block")!.outputSchema).toBeDefined(); // the document's client checks its shapes
    // Names are snake_case; a former camelCase name is not listed but still calls its tool.
    expect(every.map((t) => t.name)).toContain("desktop_open_session");
    expect(every.map((t) => t.name)).not.toContain("desktop_openSession");
    const args = { desktop: "no-such-desktop", session: "no-such-session" };
    const viaNew = await all.callTool({ name: "desktop_open_session", arguments: args });
    const viaFormer = await all.callTool({ name: "desktop_openSession", arguments: args });
    expect(viaNew.isError).toBe(true);
    expect((viaNew.structuredContent as { error: { data: { name: string } } }).error.data.name).not.toBe("usage");
    expect(viaFormer).toEqual(viaNew);
  } finally {
    await all.close();
  }
});

test("a tool outside the server's profiles is refused, naming the profiles and how to choose them; a bad --tools is exit 64 naming the profiles", async () => {
  const refused = await client.callTool({ name: "daemon_stop", arguments: {} }).then(() => null, (error: Error) => error);
  expect(refused?.message).toContain("not in this server's tool profiles (core, shell)");
  expect(refused?.message).toContain("--tools");
  const bad = await world.run(["mcp", "--tools", "core,everything"]);
  expect(bad.code).toBe(64);
  expect(bad.stderr).toContain('unknown tool profile "everything"');
  expect(bad.stderr).toContain("core, shell, browser, ai, desktop, admin, interactive-pty and all");
  const env = await world.run(["mcp"], { env: { TUIWRIGHT_MCP_TOOLS: "nope" } });
  expect(env.code).toBe(64);
  expect(env.stderr).toContain("TUIWRIGHT_MCP_TOOLS");
});

test("an agent's round trip: spawn bash, type, wait, snapshot, kill", async () => {
  const spawned = await client.callTool({ name: "spawn", arguments: { argv: ["bash", "--norc", "--noprofile"], session: "agent" } });
  expect(spawned.isError).toBe(false);
  expect((spawned.structuredContent as any).name).toBe("agent");
  await client.callTool({ name: "wait", arguments: { session: "agent", regex: ["[$#]$"] } });
  const typed = await client.callTool({ name: "type", arguments: { session: "agent", text: "echo mcp-$((20+22))\r", wait: { regex: ["^mcp-42$"] } } });
  expect((typed.content as any)[0].text).toContain("fired: regex /^mcp-42$/m");
  // The output line comes before bash draws its next prompt: wait for that prompt too.
  const prompted = await client.callTool({ name: "wait", arguments: { session: "agent", regex: ["^mcp-42\n.*[$#]$"] } });
  expect(prompted.isError).toBe(false);
  const snap = await client.callTool({ name: "snapshot", arguments: { session: "agent" } });
  expect((snap.content as any)[0].text).toContain("mcp-42"); // the text part is the screen, not JSON
  expect((snap.structuredContent as any).revision).toBeGreaterThan(0);
  const outline = await client.callTool({ name: "snapshot", arguments: { session: "agent", format: "outline" } });
  // A shell without integration: its output rows, and no prompt claimed without evidence.
  expect((outline.content as any)[0].text).toContain("@shell.output");
  const killed = await client.callTool({ name: "kill", arguments: { session: "agent" } });
  expect(killed.isError).toBe(false);
});

test("a bad tool argument is a tool error naming the field, with the hint", async () => {
  const bad = await client.callTool({ name: "spawn", arguments: { argv: ["true"], cols: 1 } });
  expect(bad.isError).toBe(true);
  expect((bad.content as any)[0].text).toContain('invalid params for "spawn": cols:');
  expect((bad.structuredContent as any).error.data.issues[0].path).toBe("cols");
  const missing = await client.callTool({ name: "snapshot", arguments: { session: "ghost" } });
  expect(missing.isError).toBe(true);
  expect((missing.content as any)[0].text).toContain('no session named "ghost"');
  await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow();
});

test("a PNG snapshot reaches the model as image content; an SVG too", async () => {
  await client.callTool({ name: "spawn", arguments: { argv: ["cat"], session: "pic", cols: 20, rows: 4 } });
  const png = await client.callTool({ name: "snapshot", arguments: { session: "pic", format: "png" } });
  expect((png.content as any)[0]).toMatchObject({ type: "image", mimeType: "image/png" });
  expect(Buffer.from((png.content as any)[0].data, "base64").subarray(1, 4).toString()).toBe("PNG");
  const svg = await client.callTool({ name: "snapshot", arguments: { session: "pic", format: "svg" } });
  expect((svg.content as any)[0]).toMatchObject({ type: "image", mimeType: "image/svg+xml" });
  await client.callTool({ name: "kill", arguments: { session: "pic" } });
});

test("spawn env is merged over the server's environment (HOME stays); a string is taken where a list is meant", async () => {
  await client.callTool({ name: "spawn", arguments: { argv: ["sh", "-c", 'echo "home=$HOME foo=$FOO"; cat'], env: { FOO: "bar" }, session: "envy" } });
  const waited = await client.callTool({ name: "wait", arguments: { session: "envy", regex: "foo=bar" } });
  expect(waited.isError).toBe(false);
  const snap = await client.callTool({ name: "snapshot", arguments: { session: "envy" } });
  expect((snap.content as any)[0].text).toContain(`home=${world.env.HOME} foo=bar`); // the server's own HOME
});

test("spawn's documented defaults over MCP hold: cwd is the server's own, env merges over the server's (replaceEnv replaces it)", async () => {
  const { tools } = await client.listTools();
  const spawn = tools.find((t) => t.name === "spawn")!.inputSchema.properties as Record<string, { description: string }>;
  expect(spawn.cwd!.description).toContain("default: the MCP server's own working directory");
  expect(spawn.env!.description).toContain("merged over the MCP server's own environment");
  await client.callTool({ name: "spawn", arguments: { argv: ["sh", "-c", 'echo "cwd=$(pwd) foo=$FOO home=${HOME:-none}"; cat'], env: { FOO: "1" }, session: "defaults" } });
  await client.callTool({ name: "wait", arguments: { session: "defaults", regex: ["foo=1"] } });
  const text = ((await client.callTool({ name: "snapshot", arguments: { session: "defaults" } })).content as any)[0].text as string;
  expect(text).toContain(`cwd=${process.cwd()} foo=1 home=${world.env.HOME}`); // the server was started in this process's cwd
  await client.callTool({ name: "kill", arguments: { session: "defaults" } });
  await client.callTool({ name: "spawn", arguments: { argv: ["/bin/sh", "-c", 'echo "home=${HOME:-none}"; cat'], env: { FOO: "1" }, replaceEnv: true, session: "bare" } });
  await client.callTool({ name: "wait", arguments: { session: "bare", regex: ["home=none"] } });
  await client.callTool({ name: "kill", arguments: { session: "bare" } });
});

test("a wait that times out shows the screen it gave up on in the text", async () => {
  const timedOut = await client.callTool({ name: "wait", arguments: { session: "envy", text: "never-shown", timeoutMs: 100 } });
  expect(timedOut.isError).toBe(true);
  const text = (timedOut.content as any)[0].text as string;
  expect(text).toContain("wait timed out");
  expect(text).toContain("screen (revision");
  expect(text).toContain("foo=bar");
  expect(text).toContain("hint: raise timeoutMs, or call snapshot"); // phrased for tools, not CLI flags
  expect(text).not.toContain("--timeout");
  await client.callTool({ name: "kill", arguments: { session: "envy" } });
});

test("the skill is a resource and a prompt written in tool calls; SKILL.md (CLI commands) is a second resource", async () => {
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(["tuiwright://skill", "tuiwright://skill-cli"]);
  const read = await client.readResource({ uri: "tuiwright://skill" });
  const text = (read.contents[0] as { text: string }).text;
  expect(text).toContain('spawn {"session": "ed", "argv": ["vim", "notes.txt"]}');
  expect(text).not.toContain("tuiwright spawn"); // tool calls, not CLI commands
  const cli = await client.readResource({ uri: "tuiwright://skill-cli" });
  expect((cli.contents[0] as { text: string }).text).toContain("tuiwright spawn --session");
  const prompt = await client.getPrompt({ name: "tuiwright-skill" });
  expect((prompt.messages[0]!.content as { text: string }).text).toBe(text);
});

test("sessions an MCP client started are killed when it disconnects, unless spawned with keep", async () => {
  const other = new Client({ name: "short-lived", version: "1.0.0" });
  await other.connect(new StdioClientTransport({ command: BIN, args: ["mcp"], env: world.env, stderr: "pipe" }));
  await other.callTool({ name: "spawn", arguments: { argv: ["cat"], session: "goes" } });
  await other.callTool({ name: "spawn", arguments: { argv: ["cat"], session: "stays", keep: true } });
  // close() signals the server, which kills "goes" before it exits: wait for that exit.
  const serverProcess = (other.transport as any)._process as import("node:child_process").ChildProcess;
  const exited = new Promise((resolve) => serverProcess.once("exit", resolve));
  await other.close();
  await exited;
  const listed = await world.json(["list"]);
  const names = listed.sessions.map((s: { name: string }) => s.name);
  expect(names).toContain("stays");
  expect(names).not.toContain("goes");
  await world.json(["kill", "--session", "stays"]);
});

test("a long call reports progress (a client resetting its timeout on progress outlasts it); a cancelled exec stops its block", async () => {
  const agent = new Client({ name: "patient", version: "1.0.0" });
  await agent.connect(new StdioClientTransport({ command: BIN, args: ["mcp"], env: { ...world.env, TUIWRIGHT_MCP_PROGRESS_MS: "200" }, stderr: "pipe" }));
  try {
    await agent.callTool({ name: "spawn", arguments: { shell: "bash", session: "long" } });
    // The call takes ~1.5 s; the client's timeout is 600 ms, reset by every progress notification.
    let ticks = 0;
    const slow = await agent.callTool({ name: "exec", arguments: { session: "long", command: "sleep 1.5; echo outlasted" } }, undefined, {
      timeout: 600, resetTimeoutOnProgress: true, onprogress: () => { ticks++; },
    });
    expect(slow.isError).toBe(false);
    expect((slow.structuredContent as any).output).toContain("outlasted");
    expect(ticks).toBeGreaterThan(0);

    // Cancel an exec once it reports progress (it has started): the command is interrupted.
    const abort = new AbortController();
    const cancelled = agent.callTool({ name: "exec", arguments: { session: "long", command: "sleep 600" } }, undefined, {
      signal: abort.signal, onprogress: () => abort.abort("the user changed their mind"),
    });
    await expect(cancelled).rejects.toThrow();
    const after = await agent.callTool({ name: "exec", arguments: { session: "long", command: "echo free-again", queue: true } });
    expect(after.structuredContent).toMatchObject({ output: expect.stringContaining("free-again") });
    const blocks = await agent.callTool({ name: "blocks", arguments: { session: "long", last: 2 } });
    const [sleeper] = (blocks.structuredContent as any).blocks;
    expect(sleeper.command).toBe("sleep 600");
    expect(sleeper.exitCode).not.toBe(0);
  } finally {
    await agent.close();
  }
}, 60_000);

test("every tool parameter has a description (the table documents itself)", async () => {
  const { tools } = await client.listTools();
  const missing: string[] = [];
  const walk = (path: string, schema: any) => {
    for (const [key, value] of Object.entries<any>(schema?.properties ?? {})) {
      if (!value.description) missing.push(`${path}.${key}`);
      walk(`${path}.${key}`, value);
    }
  };
  for (const tool of tools) walk(tool.name, tool.inputSchema);
  expect(missing).toEqual([]);
});
