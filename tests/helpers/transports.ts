// The three ways a client reaches the daemon — the Unix socket (JSON-RPC), MCP over stdio
// (`tuiwright mcp`, tools/call) and HTTP (`tuiwright serve --http`, POST /rpc) — behind one
// `call(method, params)`, so a test can make the same promise on each.
import { BIN, type World } from "./harness.ts";
import { startServe } from "./serve-process.ts";

export type Transport = {
  name: "socket" | "mcp" | "http";
  /** The method's result; a refusal throws an Error whose message is the error's. */
  call(method: string, params: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
};

async function socketTransport(world: World): Promise<Transport> {
  const rpc = await world.rpc();
  return { name: "socket", call: (method, params) => rpc.call(method, params), close: async () => rpc.close() };
}

/** `tuiwright mcp` on stdio: one JSON message a line; tools are the methods' names. */
async function mcpTransport(world: World): Promise<Transport> {
  const child = Bun.spawn([BIN, "mcp", "--tools", "all"], { env: world.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const waiting = new Map<number, (message: any) => void>();
  let nextId = 0;
  void (async () => {
    const reader = child.stdout.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n")) {
        const message = JSON.parse(text.slice(0, at));
        text = text.slice(at + 1);
        if (message.id !== undefined) waiting.get(message.id)?.(message);
      }
    }
  })();
  const request = (method: string, params: unknown) => new Promise<any>((resolve) => {
    const id = ++nextId;
    waiting.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    void child.stdin.flush();
  });
  await request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "transports", version: "1" } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return {
    name: "mcp",
    async call(method, params) {
      const reply = await request("tools/call", { name: method, arguments: params });
      if (reply.error) throw new Error(reply.error.message);
      if (reply.result.isError) throw new Error(reply.result.content.map((part: { text?: string }) => part.text ?? "").join("\n"));
      return reply.result.structuredContent;
    },
    async close() {
      child.stdin.end();
      await child.exited;
    },
  };
}

/** `tuiwright serve --http 127.0.0.1:0`, once it has said where it listens and its token. */
async function httpTransport(world: World): Promise<Transport> {
  const { server, url, token } = await startServe(world.env);
  let nextId = 0;
  return {
    name: "http",
    async call(method, params) {
      const response = await fetch(`${url}/rpc`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method, params }),
      });
      const body = await response.json() as { result?: unknown; error?: { message: string } };
      if (body.error) throw new Error(body.error.message);
      return body.result;
    },
    async close() {
      server.kill("SIGTERM");
      await server.exited;
    },
  };
}

export const TRANSPORTS = { socket: socketTransport, mcp: mcpTransport, http: httpTransport } as const;
