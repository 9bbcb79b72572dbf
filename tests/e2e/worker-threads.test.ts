// Sessions share worker threads (issue 30): program and shell sessions live on a pool of
// threads, a browser on its own. Sharing must not let one session harm another: a session whose
// code throws ends alone, a flood in one does not stop its neighbour, a session killed leaves
// nothing behind in its thread; a fault that names no session ends its thread and every
// session on it is told. One thread here, so every program session is a neighbour.
import { expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { processGone, useWorld } from "../helpers/harness.ts";
import type { TuiwrightError } from "../../lib/protocol/errors.ts";

setDefaultTimeout(60_000);

const world = useWorld({ TUIWRIGHT_WORKER_THREADS: "1", CARBONYL: resolve(import.meta.dir, "../testdata/fake-carbonyl/carbonyl") });
const PATH = "/usr/local/bin:/usr/bin:/bin";

type Memory = { sessions: { session: string; thread: number; heap: { heapSize: number; objectCount: number } | null }[] };
type Status = { workerThreads: number; spareWorker: boolean };

async function shells(names: string[]): Promise<void> {
  for (const name of names) {
    await world.spawn(["sh", "-c", `echo ${name}-up; exec cat`], ["--session", name]);
    await world.json(["wait", "--session", name, "--text", `${name}-up`]);
  }
}

/** Typing into `session` echoes back: the session and its thread answer. */
async function answers(session: string, word: string): Promise<void> {
  await world.json(["type", "--session", session, `${word}\n`, "--wait-text", word]);
}

test("program sessions share the pool's thread; each has its own screen; a browser gets a thread of its own", async () => {
  await shells(["share-a", "share-b", "share-c"]);
  const rpc = await world.rpc();
  try {
    const memory = (await rpc.call("debug.memory", {})) as Memory;
    const threads = new Set(memory.sessions.filter((s) => s.session.startsWith("share-")).map((s) => s.thread));
    expect(threads.size).toBe(1);
    expect(((await rpc.call("daemon.status", {})) as Status).workerThreads).toBe(1);
    await answers("share-b", "only-b");
    expect(((await rpc.call("snapshot", { session: "share-a" })) as { text: string }).text).not.toContain("only-b");

    const browser = await world.json(["browse", "--session", "own-thread", "http://own-thread/"]);
    expect(browser.worker).toBe("new");
    expect(((await rpc.call("daemon.status", {})) as Status).workerThreads).toBe(2);
    await rpc.call("kill", { session: "own-thread" });
    // The browser's thread ends with it.
    expect(((await rpc.call("daemon.status", {})) as Status).workerThreads).toBe(1);
  } finally {
    rpc.close();
    for (const name of ["share-a", "share-b", "share-c"]) await world.json(["kill", "--session", name]);
  }
});

test("a session whose code throws ends alone: its neighbours on the same thread carry on", async () => {
  await shells(["victim", "neighbour"]);
  const rpc = await world.rpc();
  try {
    const victim = (await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "victim");
    const inFlight = rpc.call("wait", { session: "victim", text: ["never-printed"], timeoutMs: 30_000 }).catch((e: TuiwrightError) => e);
    await rpc.call("debug.crashWorker", { session: "victim" });
    const error = (await inFlight) as TuiwrightError;
    expect(error.message).toContain('session "victim": its worker crashed: crash requested by debug.crashWorker');
    expect(error.hint).toContain("other sessions are unaffected");
    expect(await processGone(victim.pid)).toBe(true);
    const states = Object.fromEntries((await world.json(["list"])).sessions.map((s: { name: string; state: string }) => [s.name, s.state]));
    expect(states).toMatchObject({ victim: "crashed", neighbour: "running" });
    await answers("neighbour", "still-here");
    // A new session goes on the same thread, which is sound.
    await shells(["newcomer"]);
    await answers("newcomer", "new-one-answers");
  } finally {
    rpc.close();
    for (const name of ["victim", "neighbour", "newcomer"]) await world.json(["kill", "--session", name]);
  }
});

test("a fault that names no session ends its thread: every session on it is told, and the next spawn gets a new thread", async () => {
  await shells(["first", "second"]);
  const rpc = await world.rpc();
  try {
    const second = rpc.call("wait", { session: "second", text: ["never-printed"], timeoutMs: 30_000 }).catch((e: TuiwrightError) => e);
    await rpc.call("debug.crashWorker", { session: "first", thread: true });
    const error = (await second) as TuiwrightError;
    expect(error.message).toContain('session "second": its worker crashed: thread crash requested by debug.crashWorker');
    expect(error.hint).toContain("its worker thread ended, with the sessions it hosted");
    const states = Object.fromEntries((await world.json(["list"])).sessions.map((s: { name: string; state: string }) => [s.name, s.state]));
    expect(states).toMatchObject({ first: "crashed", second: "crashed" });
    await shells(["after"]);
    await answers("after", "fresh-thread");
  } finally {
    rpc.close();
    for (const name of ["first", "second", "after"]) await world.json(["kill", "--session", name]);
  }
});

test("a neighbour flooding its screen does not stop a session on the same thread from answering", async () => {
  await shells(["quiet"]);
  await world.spawn(["sh", "-c", "echo flood-up; exec yes flooding-the-screen"], ["--session", "flood"]);
  await world.json(["wait", "--session", "flood", "--text", "flooding-the-screen"]);
  try {
    for (let round = 0; round < 5; round++) await answers("quiet", `answer-${round}`);
    // The flood still runs: the answers came while it did.
    expect((await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "flood").state).toBe("running");
  } finally {
    for (const name of ["quiet", "flood"]) await world.json(["kill", "--session", name]);
  }
});

test("sessions killed leave nothing behind in their thread: 40 started and killed, the heap is back where it was", async () => {
  await shells(["keeper"]);
  const rpc = await world.rpc();
  const heap = async () => ((await rpc.call("debug.memory", { gc: true })) as Memory).sessions.find((s) => s.session === "keeper")!.heap!;
  try {
    // One round first: what a thread keeps once (code compiled, caches) is not a leak.
    const churn = async (rounds: number) => {
      for (let i = 0; i < rounds; i++) {
        await rpc.call("spawn", { session: `churn${i}`, argv: ["sh", "-c", "echo churning; exec cat"], env: { PATH } });
        await rpc.call("wait", { session: `churn${i}`, text: ["churning"], timeoutMs: 10_000 });
        await rpc.call("kill", { session: `churn${i}` });
      }
    };
    await churn(3);
    const before = await heap();
    await churn(40);
    const after = await heap();
    console.log(`thread heap before / after 40 sessions started and killed: ${(before.heapSize / 2 ** 20).toFixed(2)} / ${(after.heapSize / 2 ** 20).toFixed(2)} MB`);
    // A session's screen, state and PTY buffers are ~0.3–1 MB: 40 of them leaked would be far more.
    expect(after.heapSize - before.heapSize).toBeLessThan(4 * 1024 * 1024);
  } finally {
    rpc.close();
    await world.json(["kill", "--session", "keeper"]);
  }
});
