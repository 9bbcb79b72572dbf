// How a spawn starts (issue 30): the session's worker is the daemon's spare, loaded ahead of the
// spawn, and the first screen is seen from the PTY's events and its master's unread bytes — and
// neither may change what the program sees or let spawn return before the program's first
// screen is in.
import { expect, setDefaultTimeout, test } from "bun:test";
import { processGone, useWorld } from "../helpers/harness.ts";
import type { RpcClient } from "../../lib/transport/rpc-client.ts";

setDefaultTimeout(60_000);

const world = useWorld();
// Debian's own python3 and not a version manager's shim (seconds to start under load).
const PATH = "/usr/local/bin:/usr/bin:/bin";

type Spawned = { name: string; pid: number; worker?: "spare" | "new"; firstScreen?: { drew: boolean; waitingForInput: boolean; timedOut: boolean } };

/** The daemon's spare is loaded (it is made after the ready line and after each spawn). */
async function spareReady(rpc: RpcClient): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (!((await rpc.call("daemon.status", {})) as { spareWorker: boolean }).spareWorker) {
    if (performance.now() > deadline) throw new Error("no spare worker within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const text = async (rpc: RpcClient, session: string) => ((await rpc.call("snapshot", { session })) as { text: string }).text;

test("a spawn takes the spare worker, and the program sees the spawn's own cwd and environment", async () => {
  const rpc = await world.rpc();
  try {
    await spareReady(rpc);
    const spawned = (await rpc.call("spawn", {
      session: "warm",
      argv: ["sh", "-c", 'printf "%s in %s\\n" "$SPARE_CHECK" "$PWD"; read x'],
      cwd: "/tmp",
      env: { PATH, SPARE_CHECK: "asked-for-value" },
    })) as Spawned;
    expect(spawned.worker).toBe("spare");
    await rpc.call("wait", { session: "warm", text: ["asked-for-value in /tmp"], timeoutMs: 10_000 });
    // The next spare is made once the spawn is done: one at a time, ready for the next spawn.
    expect(((await rpc.call("daemon.status", {})) as { spareWorker: boolean }).spareWorker).toBe(true);
    await rpc.call("kill", { session: "warm" });
  } finally {
    rpc.close();
  }
});

test("two spawns at once never share a worker: each session shows its own program", async () => {
  const [a, b] = [await world.rpc(), await world.rpc()];
  try {
    await spareReady(a);
    const started = (await Promise.all([
      a.call("spawn", { session: "twin-a", argv: ["sh", "-c", "echo I-am-A; read x"], env: { PATH } }),
      b.call("spawn", { session: "twin-b", argv: ["sh", "-c", "echo I-am-B; read x"], env: { PATH } }),
    ])) as Spawned[];
    // One of them got the spare (the other a worker of its own, unless the first was done and
    // the spare made again before the second arrived).
    expect(started.map((s) => s.worker)).toContain("spare");
    expect(started[0]!.pid).not.toBe(started[1]!.pid);
    await a.call("wait", { session: "twin-a", text: ["I-am-A"], timeoutMs: 10_000 });
    await a.call("wait", { session: "twin-b", text: ["I-am-B"], timeoutMs: 10_000 });
    expect(await text(a, "twin-a")).not.toContain("I-am-B");
    expect(await text(a, "twin-b")).not.toContain("I-am-A");
    // Input to one reaches that one only.
    await a.call("type", { session: "twin-a", text: "only-for-a" });
    await a.call("wait", { session: "twin-a", text: ["only-for-a"], timeoutMs: 10_000 });
    expect(await text(a, "twin-b")).not.toContain("only-for-a");
    for (const session of ["twin-a", "twin-b"]) await a.call("kill", { session });
  } finally {
    a.close();
    b.close();
  }
});

test("a spare that died is never handed to a spawn: the spawn starts its own worker and a new spare follows", async () => {
  const rpc = await world.rpc();
  try {
    await spareReady(rpc);
    // Ended without a word to the daemon, as a crash would; the spawn follows at once, before
    // the daemon may have heard of it.
    await rpc.call("debug.crashWorker", { spare: true });
    const spawned = (await rpc.call("spawn", { session: "after-crash", argv: ["sh", "-c", "echo alive; read x"], env: { PATH } })) as Spawned;
    expect(spawned.worker).toBe("new");
    expect(spawned.firstScreen).toMatchObject({ timedOut: false });
    await rpc.call("wait", { session: "after-crash", text: ["alive"], timeoutMs: 10_000 });
    await spareReady(rpc);
    expect(((await rpc.call("spawn", { session: "after-crash-2", argv: ["cat"], env: { PATH } })) as Spawned).worker).toBe("spare");
    for (const session of ["after-crash", "after-crash-2"]) await rpc.call("kill", { session });
  } finally {
    rpc.close();
  }
});

test("spawn does not return while the first screen is still on its way, though the program already waits for input", async () => {
  const rpc = await world.rpc();
  try {
    // 200 kB and then the prompt, all written before the program blocks reading: the last of it
    // is still in the PTY (or on its way through the event loop) when /proc says "reading".
    const program = "import sys; sys.stdout.write('x' * 200000 + '\\r\\nALL-DRAWN> '); sys.stdout.flush(); sys.stdin.readline()";
    for (let round = 0; round < 3; round++) {
      const session = `flood${round}`;
      const spawned = (await rpc.call("spawn", { session, argv: ["/usr/bin/python3", "-c", program], env: { PATH } })) as Spawned;
      expect(spawned.firstScreen).toMatchObject({ drew: true, timedOut: false });
      // Read at once, without waiting: what spawn promised must already be on the screen.
      expect(await text(rpc, session)).toContain("ALL-DRAWN>");
      await rpc.call("kill", { session });
    }
  } finally {
    rpc.close();
  }
});

test("a program that asks the terminal a question is not ready until it drew after the answer", async () => {
  const rpc = await world.rpc();
  try {
    // It asks for the device attributes (ESC [ c), reads the answer, and only then draws its
    // prompt: while it wakes up to read our answer it still sits in its read, with nothing unread.
    const program = [
      "import os, sys, tty",
      "tty.setraw(0)",
      "os.write(1, b'\\x1b[c')",
      "answer = b''",
      "while not answer.endswith(b'c'): answer += os.read(0, 1)",
      "os.write(1, b'GOT-ANSWER> ')",
      "os.read(0, 1)",
    ].join("\n");
    for (let round = 0; round < 3; round++) {
      const session = `asks${round}`;
      const spawned = (await rpc.call("spawn", { session, argv: ["/usr/bin/python3", "-c", program], env: { PATH } })) as Spawned;
      expect(spawned.firstScreen).toMatchObject({ drew: true, timedOut: false });
      expect(await text(rpc, session)).toContain("GOT-ANSWER>");
      await rpc.call("kill", { session });
    }
  } finally {
    rpc.close();
  }
});

test("daemon stop ends the spare with the daemon", async () => {
  const rpc = await world.rpc();
  await spareReady(rpc);
  const pid = world.daemon!.pid;
  await rpc.call("daemon.stop", {}).catch(() => undefined);
  rpc.close();
  // The spare is a thread of the daemon: it cannot outlive it, and must not keep it up.
  expect(await processGone(pid, 10_000)).toBe(true);
});
