// edges.test.ts's question — does one call give the same outcome through every edge? — asked in
// this process, in milliseconds: the real dispatch and handlers (tests/helpers/in-process-daemon.ts)
// serve a real Unix socket, and the edges are the real code of each — the CLI's words to params
// (prepare) and its --json reply, raw JSON-RPC, the MCP server over the SDK's in-memory transport,
// `serve --http`'s handler, and the library. The session's worker is a fake that answers from a
// table, so a drift shows in the edges and not in a program's pace; edges.test.ts runs the same
// scenario against the binary and a real program.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { connect, type Client as LibraryClient } from "../../lib/client/index.ts";
import { extractGlobals, prepare } from "../../lib/cli/invocation.ts";
import { serveHttp } from "../../lib/http/serve.ts";
import { createMcpServer } from "../../lib/mcp/server.ts";
import { selectTools } from "../../lib/protocol/mcp-profiles.ts";
import { TuiwrightError } from "../../lib/protocol/errors.ts";
import { connectDaemon } from "../../lib/transport/daemon-connection.ts";
import { serveJsonRpc } from "../../lib/transport/rpc-server.ts";
import { type Edge, httpEdge, libraryEdge, mcpEdge, outcome, socketEdge } from "../helpers/edges.ts";
import { inProcessDaemon } from "../helpers/in-process-daemon.ts";


const dir = mkdtempSync(join(tmpdir(), "tw-edges-"));
process.env.XDG_STATE_HOME = join(dir, "state"); // serve --http writes its token file there
const target = { namespace: "in-process", socketPath: join(dir, "d.sock") };
const daemon = inProcessDaemon();
const KEYS = new Set(["Enter", "a"]);
// The session's worker: the ops the scenario reaches, answered as a real worker would shape them.
const worker = daemon.addSession("e", {
  type: (params) => ({ bytes: params.text.length, revisionBefore: 3, revisionAfter: 4, ...(params.wait ? { wait: { fired: ["text"], revision: 4, hash: "h4", elapsedMs: 1, exit: null } } : {}) }),
  press: (params) => {
    const bad = params.keys.find((key: string) => !KEYS.has(key));
    if (bad) throw new TuiwrightError("invalid-key", `unknown key ${JSON.stringify(bad)}`);
    return { bytes: params.keys.length, revisionBefore: 4, revisionAfter: 5 };
  },
  snapshot: () => ({ format: "text", text: "SAME EVERYWHERE", revision: 4, hash: "h4", cols: 40, rows: 6 }),
  wait: (params) => {
    throw new TuiwrightError("timeout", `none of the conditions held within ${params.timeoutMs} ms`);
  },
});

const stopServing = Promise.withResolvers<void>();
let socket: { stop(): void };
let mcp: McpClient;
let http: { url: string; token: string; done: Promise<void> };
let library: LibraryClient;

beforeAll(async () => {
  socket = serveJsonRpc(target.socketPath, daemon.dispatch, { opened() {}, closed() {} });
  mcp = new McpClient({ name: "conformance", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(target).server.connect(serverSide);
  await mcp.connect(clientSide);
  await mcp.listTools(); // from here on the SDK checks every structuredContent against the tool's outputSchema
  const started = Promise.withResolvers<{ url: string; token: string }>();
  const done = serveHttp({ address: "127.0.0.1:0", allowRemote: false, target, mcpIdleMs: 60_000, mcpTools: selectTools(undefined) }, async (info) => started.resolve(info), stopServing.promise);
  done.catch((error) => started.reject(error));
  http = { ...(await started.promise), done };
  library = await connect({ ...target, autoStart: false });
});

afterAll(async () => {
  await library?.[Symbol.asyncDispose]();
  await mcp?.close();
  stopServing.resolve();
  await http?.done;
  socket?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const EDGES: Edge[] = [
  {
    name: "cli",
    async call(_method, _params, words) {
      // The CLI's own path: its words become a method and params, its --json output is the result.
      const rpc = await connectDaemon(target, { autoStart: false });
      try {
        return await outcome(async () => {
          const { globals, rest } = extractGlobals(["--json", ...words]);
          const prepared = prepare(rest, globals);
          return JSON.parse(JSON.stringify(await rpc.call(prepared.verb.method, prepared.params)));
        });
      } finally {
        rpc.close();
      }
    },
  },
  socketEdge(() => connectDaemon(target, { autoStart: false, checkVersion: false })),
  mcpEdge(() => mcp),
  httpEdge(() => http),
  libraryEdge(() => library),
];

const STEPS = [
  { what: "type with a wait", method: "type", params: { session: "e", text: "same everywhere\r", wait: { text: ["SAME EVERYWHERE"] } }, cli: ["type", "--session", "e", "same everywhere\r", "--wait-text", "SAME EVERYWHERE"] },
  { what: "press", method: "press", params: { session: "e", keys: ["a", "Enter"] }, cli: ["press", "--session", "e", "a", "Enter"] },
  { what: "snapshot as text", method: "snapshot", params: { session: "e" }, cli: ["snapshot", "--session", "e"] },
  { what: "a wait that times out", method: "wait", params: { session: "e", text: ["never shown"], timeoutMs: 50 }, cli: ["wait", "--session", "e", "--text", "never shown", "--timeout", "50"] },
  { what: "a session that does not exist", method: "snapshot", params: { session: "ghost" }, cli: ["snapshot", "--session", "ghost"] },
  { what: "a bad key", method: "press", params: { session: "e", keys: ["Nope"] }, cli: ["press", "--session", "e", "Nope"] },
  { what: "a bad param", method: "snapshot", params: { session: "e", format: "gif" }, cli: ["snapshot", "--session", "e", "--format", "gif"] },
];

test("in process: each call has the same outcome through the CLI, the socket, MCP, HTTP and the library", async () => {
  const seen: Record<string, unknown[]> = {};
  for (const edge of EDGES) {
    seen[edge.name] = [];
    for (const step of STEPS) seen[edge.name]!.push({ step: step.what, ...(await edge.call(step.method, step.params, step.cli)) });
  }
  const expected = seen.socket!;
  expect(expected).toContainEqual(expect.objectContaining({ step: "type with a wait", result: expect.objectContaining({ session: "e", wait: expect.objectContaining({ fired: ["text"] }) }) }));
  expect(expected).toContainEqual({ step: "a wait that times out", error: { code: -32010, name: "timeout" } });
  expect(expected).toContainEqual({ step: "a session that does not exist", error: { code: -32004, name: "no-such-session" } });
  expect(expected).toContainEqual({ step: "a bad key", error: { code: -32011, name: "invalid-key" } });
  expect(expected).toContainEqual({ step: "a bad param", error: { code: -32602, name: "usage" } });
  for (const edge of EDGES) expect({ edge: edge.name, results: seen[edge.name] }).toEqual({ edge: edge.name, results: expected });
});

test("in process: the calls that reach the worker reach it alike from every edge; the ghost session and the bad param never do", () => {
  const ops = worker.calls.map((call) => call.op);
  const perEdge = ["type", "press", "snapshot", "wait", "press"];
  expect(ops).toEqual(EDGES.flatMap(() => perEdge));
  // The CLI's words become the same params as the others' JSON (the schema's defaults filled in).
  const typed = worker.calls.filter((call) => call.op === "type").map((call) => call.params);
  for (const params of typed) expect(params).toEqual(typed[1]);
});
