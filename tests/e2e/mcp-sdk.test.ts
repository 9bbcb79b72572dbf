// The MCP server against the SDK's own client (Client + StdioClientTransport, the compiled
// binary): a call that outlasts the client's timeout succeeds only because progress resets it,
// a cancelled exec stops its block, a PNG snapshot is image content, and structuredContent
// validates against each tool's outputSchema (the client checks it on every call after
// listTools; the tests check it again themselves).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { BIN, World } from "../helpers/harness.ts";

let world: World;
let client: Client;
let outputSchemas: Map<string, Record<string, unknown>>;
const validator = new AjvJsonSchemaValidator();

/** structuredContent checked against the tool's outputSchema by a validator of our own. */
function conforms(tool: string, structured: unknown): { valid: boolean; data?: unknown; errorMessage?: string } {
  const schema = outputSchemas.get(tool);
  if (!schema) throw new Error(`${tool} has no outputSchema`);
  return validator.getValidator(schema as any)(structured);
}

beforeAll(async () => {
  world = await World.start();
  client = new Client({ name: "sdk-client", version: "1.0.0" });
  // Progress every 400 ms: well inside the 2 s client timeout the progress test uses.
  await client.connect(new StdioClientTransport({ command: BIN, args: ["mcp", "--tools", "all", "--output-schemas"], env: { ...world.env, TUIWRIGHT_MCP_PROGRESS_MS: "400" }, stderr: "pipe" }));
  const { tools } = await client.listTools(); // also arms the client's own output validation
  outputSchemas = new Map(tools.filter((tool) => tool.outputSchema).map((tool) => [tool.name, tool.outputSchema as Record<string, unknown>]));
});

afterAll(async () => {
  await client?.close();
  await world[Symbol.asyncDispose]();
});

test("every method tool has an object outputSchema from its result schema; results and tool errors conform to it, a wrong shape does not", async () => {
  for (const name of ["spawn", "snapshot", "exec", "wait", "type", "press", "list", "kill", "blocks", "status", "desktop_snapshot"]) {
    expect({ name, type: outputSchemas.get(name)?.type }).toEqual({ name, type: "object" });
  }
  const spawned = await client.callTool({ name: "spawn", arguments: { argv: ["cat"], session: "shapes", cols: 30, rows: 5 } });
  expect(conforms("spawn", spawned.structuredContent)).toMatchObject({ valid: true });
  const typed = await client.callTool({ name: "type", arguments: { session: "shapes", text: "shape\r", wait: { text: "shape" } } });
  expect(conforms("type", typed.structuredContent)).toMatchObject({ valid: true });
  const outline = await client.callTool({ name: "snapshot", arguments: { session: "shapes", format: "outline" } });
  expect(conforms("snapshot", outline.structuredContent)).toMatchObject({ valid: true }); // the outline's recursive nodes ($defs)
  const missing = await client.callTool({ name: "snapshot", arguments: { session: "no-such" } });
  expect(missing.isError).toBe(true);
  expect(conforms("snapshot", missing.structuredContent)).toMatchObject({ valid: true }); // {error: {code, message, data}}
  expect(conforms("spawn", { name: "shapes" }).valid).toBe(false); // the schema has teeth: pid, argv … are required
  expect(conforms("snapshot", { error: { message: "no code" } }).valid).toBe(false);
  const listed = await client.callTool({ name: "list", arguments: {} });
  expect(conforms("list", listed.structuredContent)).toMatchObject({ valid: true });
  expect(conforms("kill", (await client.callTool({ name: "kill", arguments: { session: "shapes" } })).structuredContent)).toMatchObject({ valid: true });
});

test("the agent-interactive-pty tools carry the document's result shape as outputSchema; their results (and the shared send/status/reset called the document's way) conform", async () => {
  const documentTools = ["exec_block", "exec_interactive", "ctrl_c", "ctrl_d", "enter", "wait_for", "end_session"];
  for (const name of documentTools) expect({ name, type: outputSchemas.get(name)?.type }).toEqual({ name, type: "object" });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect({ name, isError: result.isError, conforms: conforms(name, result.structuredContent) }).toEqual({ name, isError: false, conforms: { valid: true, data: result.structuredContent } });
    return result.structuredContent as Record<string, any>;
  };
  const block = await call("exec_block", { conversation_id: "doc-conv", command: "echo documented" }); // starts the conversation's shell
  expect(block).toMatchObject({ ok: true, exit_code: 0 });
  expect(block.output).toContain("documented");
  const started = await call("exec_interactive", { conversation_id: "doc-conv", command: "cat" });
  expect(started).toMatchObject({ ok: true, mode: "interactive" });
  await call("send", { conversation_id: "doc-conv", data: "a line for cat" });
  await call("enter", { conversation_id: "doc-conv" });
  const found = await call("wait_for", { conversation_id: "doc-conv", match: "a line for cat", from_cursor: started.cursor, timeout_ms: 10_000 });
  expect(found).toMatchObject({ ok: true, matched: true, match_text: "a line for cat" });
  const missed = await call("wait_for", { conversation_id: "doc-conv", match: "never printed", from_cursor: found.cursor, timeout_ms: 0 });
  expect(missed).toMatchObject({ ok: true, matched: false, match_text: null, timed_out: true });
  const status = await call("status", { conversation_id: "doc-conv" });
  expect(status).toMatchObject({ ok: true, mode: "interactive", shell_id: "doc-conv" });
  const interrupted = await call("ctrl_c", { conversation_id: "doc-conv" });
  // Ctrl-C is sent, not awaited: the document's client waits for the prompt before the next command
  // (without this wait the next exec raced cat's exit under load: busy, 1 run in 3).
  expect(await call("wait_for", { conversation_id: "doc-conv", match: "PROMPT", from_cursor: interrupted.cursor, timeout_ms: 10_000 })).toMatchObject({ matched: true });
  const again = await call("exec_interactive", { conversation_id: "doc-conv", command: "cat", timeout_ms: 10_000 });
  expect((await call("end_session", { conversation_id: "doc-conv", session_id: again.session_id })).ok).toBe(true);
  expect((await call("reset", { conversation_id: "doc-conv" })).ok).toBe(true);
  expect((await call("ctrl_d", { conversation_id: "doc-conv" })).ok).toBe(true);
  // The schemas have teeth: the document's fields are required, with their types.
  expect(conforms("exec_block", { ok: true }).valid).toBe(false);
  expect(conforms("wait_for", { ok: true, matched: "yes", match_text: null, cursor: 0 }).valid).toBe(false);
  expect(conforms("enter", { ok: false, session: "s", bytes: 1, cursor: 0 }).valid).toBe(false);
  await client.callTool({ name: "kill", arguments: { session: "doc-conv" } });
});

test("a PNG snapshot arrives as image content, and its structuredContent conforms", async () => {
  await client.callTool({ name: "spawn", arguments: { argv: ["cat"], session: "picture", cols: 20, rows: 4 } });
  const png = await client.callTool({ name: "snapshot", arguments: { session: "picture", format: "png" } });
  expect(png.content).toHaveLength(1);
  const [image] = png.content as { type: string; data: string; mimeType: string }[];
  expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
  expect([...Buffer.from(image!.data, "base64").subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(conforms("snapshot", png.structuredContent)).toMatchObject({ valid: true });
  await client.callTool({ name: "kill", arguments: { session: "picture" } });
});

test("a call longer than the client's timeout: without progress it times out (and its block is cancelled); with progress it succeeds", async () => {
  await client.callTool({ name: "spawn", arguments: { shell: "bash", session: "patient" } });
  // 2 s client timeout, a 4 s command, no progressToken asked for: the client gives up …
  const unreported = client.callTool({ name: "exec", arguments: { session: "patient", command: "sleep 4; echo unreported" } }, undefined, { timeout: 2000 });
  await expect(unreported).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
  // … and tells the server (notifications/cancelled), which ends the block: the next command
  // (queued behind it) runs, and the sleeper's exit status is not success.
  const queued = await client.callTool({ name: "exec", arguments: { session: "patient", command: "echo next", queue: true } });
  expect((queued.structuredContent as any).output).toContain("next");
  const [sleeper] = ((await client.callTool({ name: "blocks", arguments: { session: "patient", last: 2 } })).structuredContent as any).blocks as any[];
  expect(sleeper).toMatchObject({ command: "sleep 4; echo unreported" });
  expect(sleeper.exitCode).not.toBe(0);

  // The same 2 s timeout, reset by progress every 400 ms: the 4 s call succeeds.
  const seen: number[] = [];
  const reported = await client.callTool({ name: "exec", arguments: { session: "patient", command: "sleep 4; echo reported" } }, undefined, {
    timeout: 2000, resetTimeoutOnProgress: true, onprogress: ({ progress }) => { seen.push(progress); },
  });
  expect(reported.isError).toBe(false);
  expect(conforms("exec", reported.structuredContent)).toMatchObject({ valid: true }); // before toMatchObject: bun 1.4.5's writes its matchers into the object
  expect((reported.structuredContent as any)).toMatchObject({ exitCode: 0, output: expect.stringContaining("reported") });
  expect(seen.length).toBeGreaterThan(1);
  expect(seen).toEqual([...seen].sort((a, b) => a - b)); // progress only grows
}, 60_000);

test("aborting an exec (the client's AbortSignal) stops its block: the shell is idle again and the block did not succeed", async () => {
  const abort = new AbortController();
  const call = client.callTool({ name: "exec", arguments: { session: "patient", command: "sleep 600" } }, undefined, {
    signal: abort.signal, onprogress: () => abort.abort("changed my mind"), // it reported progress: it is running
  });
  await expect(call).rejects.toThrow();
  const after = await client.callTool({ name: "exec", arguments: { session: "patient", command: "echo free", queue: true } });
  expect((after.structuredContent as any).output).toContain("free");
  const status = await client.callTool({ name: "status", arguments: { session: "patient" } });
  expect(status.structuredContent).toMatchObject({ mode: "idle" });
  expect(conforms("status", status.structuredContent)).toMatchObject({ valid: true });
  const [sleeper] = ((await client.callTool({ name: "blocks", arguments: { session: "patient", last: 2 } })).structuredContent as any).blocks as any[];
  expect(sleeper.command).toBe("sleep 600");
  expect(sleeper.exitCode).not.toBe(0);
  expect(sleeper.endedAt).not.toBeNull();
  await client.callTool({ name: "kill", arguments: { session: "patient" } });
}, 60_000);

test("after daemon_stop the next call starts the daemon again (the client's lasting connection is renewed)", async () => {
  const stopped = await client.callTool({ name: "daemon_stop", arguments: {} });
  expect(stopped.isError).toBe(false);
  const listed = await client.callTool({ name: "list", arguments: {} });
  expect(listed.isError).toBe(false);
  expect((listed.structuredContent as any).sessions).toEqual([]);
  const spawned = await client.callTool({ name: "spawn", arguments: { argv: ["cat"], session: "after-restart" } });
  expect(spawned.isError).toBe(false);
  expect((await client.callTool({ name: "lease_acquire", arguments: { session: "after-restart", owner: "me" } })).isError).toBe(false); // on the renewed lasting connection
  await client.callTool({ name: "kill", arguments: { session: "after-restart" } });
});

test("a server signalled in the middle of a call exits 0 and kills the sessions its client started", async () => {
  const other = new Client({ name: "signalled", version: "1.0.0" });
  await other.connect(new StdioClientTransport({ command: BIN, args: ["mcp"], env: { ...world.env, TUIWRIGHT_MCP_PROGRESS_MS: "200" }, stderr: "pipe" }));
  const serverProcess = (other.transport as any)._process as import("node:child_process").ChildProcess;
  await other.callTool({ name: "spawn", arguments: { shell: "bash", session: "signalled" } });
  const running = new Promise<void>((resolve) => {
    other.callTool({ name: "exec", arguments: { session: "signalled", command: "sleep 600" } }, undefined, { onprogress: () => resolve() }).catch(() => undefined);
  });
  await running; // it reported progress: the block is running
  const exited = new Promise((resolve) => serverProcess.once("exit", (code) => resolve(code)));
  serverProcess.kill("SIGTERM");
  expect(await exited).toBe(0);
  const names = (await world.json(["list"])).sessions.map((s: { name: string }) => s.name);
  expect(names).not.toContain("signalled");
  await other.close();
}, 60_000);
