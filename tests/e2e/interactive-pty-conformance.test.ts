// The agent-interactive-pty document's names, driven by an outside Python client written from
// the document alone (tests/conformance/interactive_pty_client.py), plus the compat table's
// own promises: listed by capabilities with aliasOf, MCP tools, regex explicit.
import { expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { useWorld } from "../helpers/harness.ts";

// Several shells and programs per test on a loaded 2-core machine: 5 s is a hang guard too tight.
setDefaultTimeout(30_000);

const CLIENT = resolve(import.meta.dir, "../conformance/interactive_pty_client.py");
const GUESS = resolve(import.meta.dir, "../testdata/guess.sh");

const world = useWorld();

test("an outside Python client written from the document runs its example flow unchanged", async () => {
  await world.json(["ping"]); // the daemon is up
  const child = Bun.spawn(["python3", CLIENT, GUESS], { env: { ...world.env, PTY_SOCKET: world.socketPath, SHELL: "/bin/bash" }, stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  if (code !== 0) console.error(stdout, stderr);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(stdout).toContain("conformance: all checks passed");
}, 120_000);

test("capabilities lists the document's names with aliasOf; bad params name the field", async () => {
  const caps = await world.json(["capabilities"]);
  const byName = new Map<string, any>(caps.methods.map((m: any) => [m.name, m]));
  for (const [name, core] of [["exec_block", "exec"], ["exec_interactive", "exec"], ["wait_for", "wait"], ["ctrl_c", "send"], ["ctrl_d", "send"], ["enter", "send"], ["end_session", "end"], ["pty.status", "status"], ["pty.send", "send"], ["pty.reset", "reset"]]) {
    expect(byName.get(name!)?.aliasOf).toBe(core);
  }
  expect(byName.get("exec")?.aliasOf).toBeUndefined();
  const rpc = await world.rpc();
  try {
    const bad = await rpc.call("wait_for", { conversation_id: "nobody", match: "x", regex: "yes" }).then(() => null, (e) => e);
    expect(bad.message).toContain("invalid params for \"wait_for\": regex:");
    const missing = await rpc.call("pty.status", { conversation_id: "no-such-conversation" }).then(() => null, (e) => e);
    expect(missing.message).toContain("no-such-conversation");
  } finally {
    rpc.close();
  }
});

test("MCP lists exec_block and wait_for as tools and runs them", async () => {
  const child = Bun.spawn([resolve(import.meta.dir, "../../dist/tuiwright"), "mcp", "--tools", "core,shell,interactive-pty"], { env: world.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const stdin = child.stdin;
  const frames = [
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "exec_block", arguments: { conversation_id: "mcpconv", command: "echo via-mcp" } } },
  ];
  for (const frame of frames) stdin.write(JSON.stringify(frame) + "\n");
  await stdin.flush();
  const reader = child.stdout.getReader();
  let text = "";
  const replies = new Map<number, any>();
  while (!replies.has(3)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    for (const line of text.split("\n").slice(0, -1)) { const m = JSON.parse(line); if (m.id !== undefined) replies.set(m.id, m); }
    text = text.slice(text.lastIndexOf("\n") + 1);
  }
  stdin.end();
  await child.exited;
  const names = replies.get(2).result.tools.map((t: any) => t.name);
  for (const name of ["exec_block", "exec_interactive", "wait_for", "ctrl_c", "ctrl_d", "enter", "end_session"]) expect(names).toContain(name);
  const call = replies.get(3).result;
  expect(call.isError).toBe(false);
  expect(call.structuredContent).toMatchObject({ ok: true, exit_code: 0, output: "via-mcp\n" });
}, 60_000);
