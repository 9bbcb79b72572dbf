// The MCP server, driven by the official MCP TypeScript SDK client over stdio.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { METHODS } from "../../lib/protocol/methods.ts";
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

test("the tool list is the protocol table (minus subscriptions, fault hooks and AWI-TTY aliases), with hints", async () => {
  const { tools } = await client.listTools();
  const aliases = Object.entries(METHODS).filter(([, def]) => "aliasOf" in def).map(([name]) => name);
  expect(aliases).toEqual(expect.arrayContaining(["send_key", "type_text", "get_title", "subscribe_events"]));
  const expected = Object.keys(METHODS).filter((m) => !["subscribe", "unsubscribe", "debug.crashWorker", "debug.memory", ...aliases].includes(m)).map((m) => m.replace(/\./g, "_"));
  // The agent-interactive-pty tools (its send, status and reset are the core tools).
  expected.push("exec_block", "exec_interactive", "ctrl_c", "ctrl_d", "enter", "wait_for", "end_session");
  expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
  const snapshot = tools.find((t) => t.name === "snapshot")!;
  expect(snapshot.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  expect(snapshot.inputSchema.properties).toHaveProperty("format");
  expect(tools.find((t) => t.name === "kill")!.annotations!.destructiveHint).toBe(true);
  expect(tools.find((t) => t.name === "daemon_stop")).toBeDefined();
});

test("an agent's round trip: spawn bash, type, wait, snapshot, kill", async () => {
  const spawned = await client.callTool({ name: "spawn", arguments: { argv: ["bash", "--norc", "--noprofile"], session: "agent" } });
  expect(spawned.isError).toBe(false);
  expect((spawned.structuredContent as any).name).toBe("agent");
  await client.callTool({ name: "wait", arguments: { session: "agent", regex: ["[$#]$"] } });
  const typed = await client.callTool({ name: "type", arguments: { session: "agent", text: "echo mcp-$((20+22))\r", wait: { regex: ["^mcp-42$"] } } });
  expect((typed.content as any)[0].text).toContain("fired: regex /^mcp-42$/m");
  const snap = await client.callTool({ name: "snapshot", arguments: { session: "agent" } });
  expect((snap.content as any)[0].text).toContain("mcp-42"); // the text part is the screen, not JSON
  expect((snap.structuredContent as any).revision).toBeGreaterThan(0);
  const outline = await client.callTool({ name: "snapshot", arguments: { session: "agent", format: "outline" } });
  expect((outline.content as any)[0].text).toContain("@shell.prompt");
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
