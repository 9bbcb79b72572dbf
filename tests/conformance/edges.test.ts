// One scenario through every edge — the CLI (--json), the socket (raw JSON-RPC), MCP (the
// official SDK client), HTTP (serve --http) and the TypeScript library — with the same results.
// The edges all derive from the one method table; this is where a drift between them shows.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connect, type Client as LibraryClient } from "../../lib/client/index.ts";
import { type Edge, errorOf, httpEdge, libraryEdge, mcpEdge, type Outcome, socketEdge } from "../helpers/edges.ts";
import { BIN, World } from "../helpers/harness.ts";


let world: World;
let mcp: McpClient;
let http: { url: string; token: string; proc: Bun.Subprocess<"ignore", "pipe", "pipe"> };
let library: LibraryClient;

beforeAll(async () => {
  world = await World.start();
  mcp = new McpClient({ name: "conformance", version: "1.0.0" });
  await mcp.connect(new StdioClientTransport({ command: BIN, args: ["mcp"], env: world.env, stderr: "pipe" }));
  await mcp.listTools(); // from here on the client checks every structuredContent against the tool's outputSchema
  const proc = Bun.spawn([BIN, "serve", "--http", "127.0.0.1:0"], { env: world.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("mode 0600")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  http = { url: /serving (http:\/\/[^/]+)\/rpc/.exec(text)![1]!, token: /token: (\S+)/.exec(text)![1]!, proc };
  library = await connect({ namespace: world.namespace, socketPath: world.socketPath, autoStart: false });
});

afterAll(async () => {
  await library?.[Symbol.asyncDispose]();
  await mcp?.close();
  http?.proc.kill("SIGTERM");
  await http?.proc.exited;
  await world[Symbol.asyncDispose]();
});

const EDGES: Edge[] = [
  {
    name: "cli",
    async call(_method, _params, cli) {
      const run = await world.run(["--json", ...cli]);
      const parsed = JSON.parse(run.stdout);
      return "error" in parsed && run.code !== 0 ? { error: errorOf(parsed.error) } : { result: parsed };
    },
  },
  socketEdge(() => world.rpc()),
  mcpEdge(() => mcp),
  httpEdge(() => http),
  libraryEdge(() => library),
];

/** Each step: the method and params, the same as CLI words, and what of the outcome to compare. */
function steps(session: string) {
  return [
    {
      what: "spawn a program",
      // tr, not cat: the terminal's echo of the typed line and the program's copy differ, so the
      // wait below fires on the program's copy and the snapshot after it is the same everywhere.
      method: "spawn", params: { session, argv: ["tr", "a-z", "A-Z"], cols: 40, rows: 6, cwd: world.dir, env: { PATH: process.env.PATH!, TERM: "xterm-256color" } },
      cli: ["spawn", "--session", session, "--cols", "40", "--rows", "6", "--", "tr", "a-z", "A-Z"],
      pick: (o: Outcome) => o.error ?? { name: o.result.name === session, cols: o.result.cols ?? 40 },
    },
    {
      what: "type with a wait",
      method: "type", params: { session, text: "same everywhere\r", wait: { text: ["SAME EVERYWHERE"] } },
      cli: ["type", "--session", session, "same everywhere\r", "--wait-text", "SAME EVERYWHERE"],
      pick: (o: Outcome) => o.error ?? { fired: o.result.wait.fired },
    },
    {
      what: "snapshot as text",
      method: "snapshot", params: { session },
      cli: ["snapshot", "--session", session],
      pick: (o: Outcome) => o.error ?? { text: o.result.text, cols: o.result.cols, rows: o.result.rows },
    },
    {
      what: "a wait that times out",
      method: "wait", params: { session, text: ["never shown"], timeoutMs: 50 },
      cli: ["wait", "--session", session, "--text", "never shown", "--timeout", "50"],
      pick: (o: Outcome) => o.error ?? o.result,
    },
    {
      what: "a session that does not exist",
      method: "snapshot", params: { session: `${session}-ghost` },
      cli: ["snapshot", "--session", `${session}-ghost`],
      pick: (o: Outcome) => o.error ?? o.result,
    },
    {
      what: "a bad key",
      method: "press", params: { session, keys: ["Nope"] },
      cli: ["press", "--session", session, "Nope"],
      pick: (o: Outcome) => o.error ?? o.result,
    },
    {
      what: "kill",
      method: "kill", params: { session },
      cli: ["kill", "--session", session],
      pick: (o: Outcome) => o.error ?? { session: o.result.session === session },
    },
  ];
}

test("the same scenario gives the same results through the CLI, the socket, MCP, HTTP and the library", async () => {
  const seen: Record<string, unknown[]> = {};
  for (const edge of EDGES) {
    const session = `edge-${edge.name}`;
    seen[edge.name] = [];
    for (const step of steps(session)) {
      const outcome = await edge.call(step.method, step.params, step.cli);
      seen[edge.name]!.push({ step: step.what, ...(step.pick(outcome) as object) });
    }
  }
  const expected = seen.socket;
  expect(expected).toContainEqual({ step: "a wait that times out", code: -32010, name: "timeout" });
  expect(expected).toContainEqual({ step: "a session that does not exist", code: -32004, name: "no-such-session" });
  expect(expected).toContainEqual({ step: "a bad key", code: -32011, name: "invalid-key" });
  for (const edge of EDGES) expect({ edge: edge.name, results: seen[edge.name] }).toEqual({ edge: edge.name, results: expected });
});
