// The edges a conformance suite calls through, as plain outcomes ({result} or {error: {code,
// name}}) so one scenario compares across them: edges.test.ts (the binary, a real program) and
// edges-in-process.test.ts (the real dispatch, a fake worker) build theirs from these.
import type { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import type { Client as LibraryClient } from "../../lib/client/index.ts";
import { toolName } from "../../lib/mcp/tools.ts";
import type { RpcClient } from "../../lib/transport/rpc-client.ts";

export type Outcome = { result?: any; error?: { code: number; name: string } };
export type Edge = { name: string; call(method: string, params: Record<string, unknown>, cli: string[]): Promise<Outcome> };

/** A JSON-RPC error object (its name in data) or a client's error, as an outcome's error. */
export const errorOf = (error: any) => ({ code: error.code, name: error.data?.name ?? error.errorName });

/** The outcome of a call through a client that throws its errors. */
export async function outcome(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { result: await call() };
  } catch (error: any) {
    return { error: { code: error.code, name: error.errorName } };
  }
}

/** The socket: a connection of its own for each call, closed after it. */
export const socketEdge = (connect: () => Promise<RpcClient>): Edge => ({
  name: "socket",
  async call(method, params) {
    const rpc = await connect();
    try {
      return await outcome(() => rpc.call(method, params));
    } finally {
      rpc.close();
    }
  },
});

/** MCP: the method's tool; a failed call's structuredContent holds the socket's error. */
export const mcpEdge = (mcp: () => McpClient): Edge => ({
  name: "mcp",
  async call(method, params) {
    const reply = await mcp().callTool({ name: toolName(method), arguments: params });
    const structured = reply.structuredContent as any;
    return reply.isError ? { error: errorOf(structured.error) } : { result: structured };
  },
});

/** `serve --http`: POST /rpc with the bearer token. */
export const httpEdge = (http: () => { url: string; token: string }): Edge => ({
  name: "http",
  async call(method, params) {
    const { url, token } = http();
    const response = await fetch(`${url}/rpc`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const reply = (await response.json()) as any;
    return "error" in reply ? { error: errorOf(reply.error) } : { result: reply.result };
  },
});

/** The TypeScript library. */
export const libraryEdge = (library: () => LibraryClient): Edge => ({
  name: "library",
  call: (method, params) => outcome(() => library().call(method as any, params as any)),
});
