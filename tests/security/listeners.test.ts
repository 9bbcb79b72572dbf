// SECURITY.md, "What listens": the daemon listens only on its Unix socket and opens no TCP or
// UDP socket at all (finding 16: the docs said so with no test). Read from the kernel: every
// socket the daemon (its session workers are threads of it) and the processes it started hold,
// looked up in its network namespace's /proc/net tables. The same reading of a `serve --http`
// process finds its TCP listener, so the check sees a listener where there is one.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { World } from "../helpers/harness.ts";
import { startServe } from "../helpers/serve-process.ts";

setDefaultTimeout(60_000);

let world: World;
beforeAll(async () => { world = await World.start(); });
afterAll(async () => { await world[Symbol.asyncDispose](); });

const IP_TABLES = ["tcp", "tcp6", "udp", "udp6"] as const;

/** `pid` and every process below it. */
function processTree(pid: number): number[] {
  const children = (p: number): number[] => {
    const found: number[] = [];
    for (const task of readdirSync(`/proc/${p}/task`)) {
      try {
        for (const child of readFileSync(`/proc/${p}/task/${task}/children`, "utf8").split(" ")) if (child.trim()) found.push(Number(child));
      } catch {
        // the thread ended meanwhile
      }
    }
    return found;
  };
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...children(tree[i]!));
  return tree;
}

/** The inodes of the sockets `pid` holds open (`socket:[INODE]` links in /proc/PID/fd). */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

type IpSocket = { table: string; local: string; state: string; inode: string };

/** Every TCP/UDP socket of `pid`'s network namespace (/proc/PID/net/{tcp,tcp6,udp,udp6}). */
function ipSockets(pid: number): IpSocket[] {
  return IP_TABLES.flatMap((table) =>
    readFileSync(`/proc/${pid}/net/${table}`, "utf8").split("\n").slice(1).filter((line) => line.trim()).map((line) => {
      const fields = line.trim().split(/\s+/);
      return { table, local: fields[1]!, state: fields[3]!, inode: fields[9]! };
    }));
}

/** The TCP/UDP sockets `pids` hold. */
function ipSocketsOf(pids: number[]): IpSocket[] {
  const held = new Set(pids.flatMap((pid) => [...socketInodes(pid)]));
  return ipSockets(pids[0]!).filter((socket) => held.has(socket.inode));
}

test("the daemon, with a session and its worker live, holds no TCP or UDP socket — only Unix ones, its listening socket among them", async () => {
  const { pid: daemon } = await world.json(["daemon", "status"]);
  const session = await world.spawn(["cat"], ["--session", "live"]);
  const typed = await world.run(["type", "--session", "live", "still here\r", "--wait-text", "still here"]);
  expect({ code: typed.code, stderr: typed.stderr }).toEqual({ code: 0, stderr: "" });
  const tree = processTree(daemon);
  expect(tree).toContain(session.pid);

  const sockets = new Set(tree.flatMap((pid) => [...socketInodes(pid)]));
  // The reading finds the daemon's sockets: its Unix listener at the socket path is one of them.
  const unix = readFileSync(`/proc/${daemon}/net/unix`, "utf8").split("\n").slice(1).map((line) => line.trim().split(/\s+/));
  const listener = unix.find((fields) => fields[7] === world.socketPath);
  expect(listener).toBeDefined();
  expect(sockets.has(listener![6]!)).toBe(true);

  expect(ipSocketsOf(tree)).toEqual([]);
  // Nor any other kind (netlink, packet, …): every socket held is a Unix one.
  const unixInodes = new Set(unix.map((fields) => fields[6]));
  expect([...sockets].filter((inode) => !unixInodes.has(inode))).toEqual([]);
});

test("serve --http holds exactly one TCP socket, listening on the address it printed (the same reading sees a listener)", async () => {
  const serving = await startServe(world.env);
  try {
    const port = Number(new URL(serving.url).port);
    const held = ipSocketsOf([serving.server.pid]);
    // 127.0.0.1:PORT in /proc/net/tcp's hex form; 0A is LISTEN.
    expect(held).toEqual([{ table: "tcp", local: `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`, state: "0A", inode: expect.any(String) }]);
  } finally {
    serving.server.kill();
    await serving.server.exited;
  }
});
