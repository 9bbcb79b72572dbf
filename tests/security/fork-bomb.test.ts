// A fork bomb in one session must not take the daemon down (issue 24, item 9: Bun aborts the
// whole daemon when it cannot create a thread, losing every session). Each bomb runs in a guard
// cgroup of the test's own (BoundedWorld) so it can never reach the machine's limits, and every
// process in it is killed at the end, whatever happened.
// - as a second user under `ulimit -u 400`, without cgroups of its own: the session's programs
//   get RLIMIT_NPROC below the user's limit, leaving the daemon room for its threads;
// - as root, whom RLIMIT_NPROC does not hold, in a guard of 600 tasks: the session's own cgroup
//   (pids.max) stops the bomb.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { processAlive } from "../helpers/harness.ts";
import { BoundedWorld, ensureUser, noGuardCgroup } from "./bounded-world.ts";

// Without a guard cgroup no bomb may be let loose: both tests are reported as skipped, with why.
if (noGuardCgroup) console.log(`fork-bomb: both tests skipped — ${noGuardCgroup}`);

const BOMB = ["bash", "-c", "f(){ f|f& }; f; exec sleep 1000000"];
/** bash's complaint when fork(2) fails: the bomb has reached its limit. */
const FORK_FAILED = "Resource temporarily unavailable";

/** The soft RLIMIT_NPROC of a process (Infinity: unlimited; NaN: gone meanwhile). */
function processLimit(pid: number): number {
  try {
    const soft = /^Max processes\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, "utf8"))?.[1];
    return soft === "unlimited" ? Infinity : Number(soft);
  } catch {
    return NaN;
  }
}

let world: BoundedWorld | null = null;
afterEach(async () => {
  await world?.[Symbol.asyncDispose]();
  world = null;
});

/** The bomb has hit its limit, while the daemon and a quiet session carry on; then `kill` ends
 * the bomb's every process and the daemon is the one it was. `third`: what a new session may
 * expect while the bomb holds its tasks. */
async function bombAndSurvive(w: BoundedWorld, third: "starts" | "starts-or-waits", whileBombing: () => void = () => {}): Promise<void> {
  const daemon = (await w.json(["daemon", "status"])).pid;
  const calm = await w.json(["spawn", "--session", "calm", "--", "cat"]);
  const bomb = await w.json(["spawn", "--session", "bomb", "--", ...BOMB]);
  const waited = await w.run(["wait", "--session", "bomb", "--text", FORK_FAILED, "--timeout", "60000"]);
  // On failure the daemon's end and log are in the diff (a CI run once found no daemon here).
  expect({ code: waited.code, stderr: waited.stderr, ...(waited.code === 0 ? {} : { daemon: await w.daemonReport() }) }).toEqual({ code: 0, stderr: "" });
  whileBombing();

  // A new session needs a thread in the daemon and a process: it starts, or (when the tasks
  // left are the daemon's reserve) is refused with "retry later", naming the limit.
  const spawned = await w.run(["spawn", "--session", "third", "--", "cat"]);
  if (third === "starts" || spawned.code === 0) {
    expect({ code: spawned.code, stderr: spawned.stderr }).toEqual({ code: 0, stderr: "" });
  } else {
    expect(spawned.code).toBe(75);
    expect(spawned.stderr).toContain("are kept for the daemon");
    expect(spawned.stderr).toContain("tuiwright kill");
  }
  const typed = await w.run(["type", "--session", "calm", "still here\r", "--wait-text", "still here"]);
  expect({ code: typed.code, stderr: typed.stderr }).toEqual({ code: 0, stderr: "" });
  expect((await w.json(["daemon", "status"])).pid).toBe(daemon);
  expect(w.daemonAlive()).toBe(true);

  const killed = await w.run(["kill", "--session", "bomb"]);
  expect({ code: killed.code, stderr: killed.stderr }).toEqual({ code: 0, stderr: "" });
  // `kill` answers once it saw the session's processes gone: what is left is the daemon and the
  // other sessions' programs (and CLI calls, none of which run now) — and the process waiting in
  // its cgroup for the next spawn (a warm start: cgroups only), which the daemon names once its
  // thread reported it.
  const { sessions } = await w.json(["list"]);
  expect(sessions.map((s: { name: string }) => s.name).sort()).toEqual(spawned.code === 0 ? ["calm", "third"] : ["calm"]);
  const status = async () => (await w.json(["daemon", "status"])).warmStart as number | null;
  let warm = await status();
  const kept = new Set<number>([w.daemonPid, ...sessions.map((s: { pid: number }) => s.pid)]);
  const left = w.processes().filter((pid) => !kept.has(pid) && processAlive(pid) && pid !== warm);
  // One more may be a warm start its thread has not reported yet: it must become the one named.
  const deadline = performance.now() + 10_000;
  while (left.length === 1 && warm !== left[0] && performance.now() < deadline) warm = await status();
  expect(left.filter((pid) => pid !== warm)).toEqual([]);
  expect(processAlive(bomb.pid)).toBe(false);
  expect(processAlive(calm.pid)).toBe(true);
  // The tasks are free again: a session starts.
  expect((await w.run(["spawn", "--session", "after", "--", "cat"])).code).toBe(0);
  expect((await w.json(["daemon", "status"])).pid).toBe(daemon);
}

test.skipIf(noGuardCgroup !== null)("as a user under ulimit -u 400, a fork bomb in one session leaves the daemon its threads; the other session carries on; kill ends the bomb", async () => {
  world = await BoundedWorld.start({ user: ensureUser("twtest-forkbomb"), nproc: 400, guardTasks: 700 });
  expect((await world.json(["daemon", "status"])).containment).toMatchObject({ how: "rlimit", cgroup: null });
  // Every process the sessions started holds a process limit below the user's: one that kept
  // the user's (a bomb's child forked before its limit was set, as on loaded machines) can take
  // the user's last tasks, and then neither the daemon nor any client can start a thread.
  await bombAndSurvive(world, "starts-or-waits", () => {
    const started = world!.processes().filter((pid) => pid !== world!.daemonPid).map((pid) => ({ pid, limit: processLimit(pid) }));
    expect(started.filter(({ limit }) => limit >= 400)).toEqual([]);
  });
}, 180_000);

test.skipIf(noGuardCgroup !== null)("as root in a cgroup of 600 tasks, a fork bomb stops at its session's pids.max; the daemon, the other session and a new one carry on", async () => {
  world = await BoundedWorld.start({ guardTasks: 600 });
  // The evidence that the bomb is held by its own cgroup, not by the guard.
  const { containment } = await world.json(["daemon", "status"]);
  expect(containment.how).toBe("cgroup");
  expect(containment.cgroup).toMatch(/\/tuiwright-0-bounded-\d+$/);
  expect(containment.sessionTasks).toBeLessThan(600 / 2);
  const probe = await world.json(["spawn", "--session", "probe", "--", "cat"]);
  const cgroup = readFileSync(`/proc/${probe.pid}/cgroup`, "utf8");
  expect(cgroup).toMatch(/pids:.*\/tuiwright-0-bounded-\d+\/s1$|^0::.*\/tuiwright-0-bounded-\d+\/s1$/m);
  await world.run(["kill", "--session", "probe"]);
  await bombAndSurvive(world, "starts");
}, 180_000);
