import { expect, test } from "bun:test";
import { EventHub } from "../../../lib/daemon/event-hub.ts";
import type { Connection } from "../../../lib/runtime/unix-socket.ts";
import { EVENT_QUEUE_LIMIT_BYTES, MAX_SUBSCRIPTIONS_PER_CONNECTION } from "../../../lib/transport/connection-limits.ts";

/** A connection whose unread output we set by hand. */
function fakeConnection(): Connection & { sent: any[]; unread: number } {
  const connection = {
    id: 1,
    sent: [] as any[],
    unread: 0,
    get queuedBytes() { return connection.unread; },
    send(data: string | Uint8Array) { connection.sent.push(JSON.parse(String(data))); },
    end() {},
  };
  return connection;
}

const screen = (revision: number) => ({ type: "screen" as const, session: "s", revision, hash: "h", at: "now" });

test("events for a connection that stopped reading are dropped, and the next one says how many", () => {
  const hub = new EventHub();
  const connection = fakeConnection();
  hub.subscribe(connection, { session: null, types: ["screen"], debounceMs: 0 });
  hub.publish(screen(1));
  connection.unread = EVENT_QUEUE_LIMIT_BYTES + 1;
  for (let revision = 2; revision <= 50; revision++) hub.publish(screen(revision));
  expect(connection.sent.length).toBe(1);
  connection.unread = 0;
  hub.publish(screen(51));
  expect(connection.sent.map((m) => m.params.revision)).toEqual([1, 51]);
  expect(connection.sent[0].params.dropped).toBeUndefined();
  expect(connection.sent[1].params.dropped).toBe(49);
  hub.publish(screen(52));
  expect(connection.sent[2].params.dropped).toBeUndefined();
});

test("a connection holds a bounded number of subscriptions; others are not affected", () => {
  const hub = new EventHub();
  const greedy = fakeConnection();
  for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_CONNECTION; i++) hub.subscribe(greedy, { session: null, types: ["screen"], debounceMs: 0 });
  let refused: any;
  try { hub.subscribe(greedy, { session: null, types: ["screen"], debounceMs: 0 }); } catch (error) { refused = error; }
  expect(refused?.errorName).toBe("busy");
  expect(refused?.message).toContain(`the limit is ${MAX_SUBSCRIPTIONS_PER_CONNECTION}`);
  const other = { ...fakeConnection(), id: 2 };
  expect(hub.subscribe(other, { session: null, types: ["screen"], debounceMs: 0 })).toMatch(/^sub-/);
});

test("replies a client does not read close its connection past the limit, with a reason", async () => {
  const { serveJsonRpc } = await import("../../../lib/transport/rpc-server.ts");
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(`${tmpdir()}/tw-limits-`);
  const path = `${dir}/s.sock`;
  const reasons: string[] = [];
  let noticed!: () => void;
  const dropped = new Promise<void>((resolve) => { noticed = resolve; });
  const big = "x".repeat(8 << 20);
  const server = serveJsonRpc(path, async () => big, {
    opened() {}, closed() {},
    dropped(_connection, reason) { reasons.push(reason); noticed(); },
  });
  // A client that sends 20 requests and reads nothing until the daemon has given up on it.
  const client = Bun.spawn(["python3", "-c", [
    "import socket,sys",
    "s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])",
    "s.sendall(b''.join(b'{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"m\"}\\n' % i for i in range(20)))",
    "sys.stdin.readline()",
    "n=0",
    "while True:",
    "  b=s.recv(1<<20)",
    "  if not b: break",
    "  n+=b.count(b'\\n')",
    "print(n)",
  ].join("\n"), path], { stdin: "pipe", stdout: "pipe" });
  try {
    await dropped;
    client.stdin.write("read now\n");
    client.stdin.flush();
    const replies = Number((await new Response(client.stdout).text()).trim());
    expect(replies).toBeLessThan(20); // the connection closed before all were queued
    expect(reasons[0]).toMatch(/bytes of replies unread, and \d+ more would pass the 64 MiB limit/);
  } finally {
    client.kill();
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
