// Processes that leave their session — `setsid`, `setsid -f`, a double fork, a daemon that
// also lets go of the terminal — must not outlive `kill` and `daemon stop` (issue 24, item 15).
// As root here the daemon keeps each session in a cgroup of its own; as a second user (no cgroup
// it may create) it finds them by the mark in their environment, and adopts orphans as the child
// subreaper, so at `daemon stop` even one that dropped its environment is found.
import { afterEach, expect, test } from "bun:test";
import { processAlive, processGone, World } from "../helpers/harness.ts";
import { BoundedWorld, ensureUser, isRoot, noGuardCgroup } from "./bounded-world.ts";

type Cli = { run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>; json<T = any>(args: string[]): Promise<T> };

/** Each line starts a process that leaves the session in its own way and prints its pid. */
const ESCAPES = {
  "setsid -f": "setsid -f sh -c 'echo ESC1=$$; exec sleep 1000001'",
  "setsid &": "setsid sh -c 'echo ESC2=$$; exec sleep 1000002' &",
  "double fork": "( sh -c 'echo ESC3=$$; exec sleep 1000003' & )",
  "daemon off the terminal": "setsid -f sh -c 'echo ESC4=$$; exec sleep 1000004 </dev/null >/dev/null 2>&1'",
};
/** One that also drops its environment (the session's mark with it). */
const SCRUBBED = { "env -i": "setsid -f env -i sh -c 'echo ESC5=$$; exec sleep 1000005 </dev/null >/dev/null 2>&1'" };

/** Why a daemon started by these tests has no session cgroups (null: it has them), asked at load
 * of a daemon started as the tests start theirs: it says which containment applies, and why. */
const noSessionCgroups: string | null = await (async () => {
  await using probe = await World.start();
  const { containment } = await probe.json(["daemon", "status"]);
  return containment.how === "cgroup" ? null : containment.why || `containment is ${containment.how}`;
})();
if (noSessionCgroups) console.log(`orphans: "a daemon killed with SIGKILL…" skipped — no session cgroups here: ${noSessionCgroups}`);
if (noGuardCgroup) console.log(`orphans: "as a user without cgroups…" skipped — ${noGuardCgroup}`);

const started: number[] = [];
let world: (Cli & AsyncDisposable) | null = null;
afterEach(async () => {
  await world?.[Symbol.asyncDispose]();
  world = null;
  // Whatever a failed test left running, by pid.
  for (const pid of started.splice(0)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
});

/** A bash session that starts `escapes`, and their pids once each printed its own. */
async function startEscapees(cli: Cli, session: string, escapes: Record<string, string>): Promise<Record<string, number>> {
  await cli.json(["spawn", "--session", session, "--", "bash", "--norc", "--noprofile"]);
  const lines = Object.values(escapes);
  const typed = await cli.run(["type", "--session", session, `${lines.join("\n")}\n`]);
  expect(typed.code).toBe(0);
  const tags = lines.map((line) => /ESC\d/.exec(line)![0]);
  const waited = await cli.run(["wait", "--session", session, "--all", ...tags.flatMap((tag) => ["--regex", `${tag}=\\d+`]), "--timeout", "20000"]);
  expect({ code: waited.code, stderr: waited.stderr }).toEqual({ code: 0, stderr: "" });
  const screen = (await cli.run(["snapshot", "--session", session, "--plain"])).stdout;
  const pids: Record<string, number> = {};
  Object.keys(escapes).forEach((name, i) => {
    pids[name] = Number(new RegExp(`${tags[i]}=(\\d+)`).exec(screen)![1]);
    started.push(pids[name]!);
    expect(processAlive(pids[name]!)).toBe(true);
  });
  return pids;
}

/** Which of `pids` are still alive once each had 10 s to die. */
async function survivors(pids: Record<string, number>): Promise<string[]> {
  const alive: string[] = [];
  for (const [name, pid] of Object.entries(pids)) if (!(await processGone(pid, 10_000))) alive.push(name);
  return alive;
}

test("kill ends every process a session started, those that called setsid or double-forked too", async () => {
  const w = await World.start();
  world = w;
  const pids = await startEscapees(w, "escapes", isRoot ? { ...ESCAPES, ...SCRUBBED } : ESCAPES);
  const killed = await w.run(["kill", "--session", "escapes"]);
  expect(killed.code).toBe(0);
  expect(await survivors(pids)).toEqual([]);
});

test("daemon stop ends every process its sessions started, escaped or not", async () => {
  const w = await World.start();
  world = w;
  const pids = await startEscapees(w, "escapes", isRoot ? { ...ESCAPES, ...SCRUBBED } : ESCAPES);
  expect((await w.run(["daemon", "stop"])).code).toBe(0);
  expect(await survivors(pids)).toEqual([]);
});

test.skipIf(noSessionCgroups !== null)("a daemon killed with SIGKILL: the next one ends the processes its sessions left in their cgroups, escaped ones too", async () => {
  const w = await World.start();
  world = w;
  expect((await w.json(["daemon", "status"])).containment.how).toBe("cgroup");
  const pids = await startEscapees(w, "escapes", { ...ESCAPES, ...SCRUBBED });
  w.daemon!.kill("SIGKILL");
  await w.daemon!.exited;
  await w.startDaemon();
  expect(await survivors(pids)).toEqual([]);
  expect(w.daemonLog()).toMatch(/killing \d+ process\(es\) a crashed daemon's sessions left in \S+\/tuiwright-0-/);
});

test("end ends the running program with what it started, a child that called setsid included; the shell stays", async () => {
  const w = await World.start();
  world = w;
  const { pid: shell } = await w.spawn([], ["--session", "job", "--shell", "bash"]);
  const job = await w.json(["exec", "--session", "job", "--interactive", "--", `sh -c 'setsid sh -c "echo JOB1=\\$\\$; exec sleep 1000011" & exec sleep 1000010'`]);
  const waited = await w.run(["wait", "--session", "job", "--regex", "JOB1=\\d+", "--timeout", "20000"]);
  expect({ code: waited.code, stderr: waited.stderr }).toEqual({ code: 0, stderr: "" });
  const screen = (await w.run(["snapshot", "--session", "job", "--plain"])).stdout;
  const detached = Number(/JOB1=(\d+)/.exec(screen)![1]);
  started.push(detached);
  const ended = await w.json(["end", "--session", "job"]);
  expect(ended).toMatchObject({ how: "interrupt", mode: "idle" });
  expect(await survivors({ "setsid child": detached })).toEqual([]);
  expect(processAlive(shell)).toBe(true);
  expect((await w.json(["block", "--session", "job", String(job.block)])).reason).toBe("cancelled");
});

test.skipIf(noGuardCgroup !== null)("as a user without cgroups: kill finds escaped processes by their session's mark; daemon stop ends even one that dropped it", async () => {
  const w = await BoundedWorld.start({ user: ensureUser("twtest-orphans"), guardTasks: 300 });
  world = w;
  expect((await w.json(["daemon", "status"])).containment).toMatchObject({ how: "rlimit", cgroup: null, subreaper: true });
  const pids = await startEscapees(w, "escapes", ESCAPES);
  expect((await w.run(["kill", "--session", "escapes"])).code).toBe(0);
  expect(await survivors(pids)).toEqual([]);

  const scrubbed = await startEscapees(w, "scrubbed", { ...ESCAPES, ...SCRUBBED });
  expect((await w.run(["daemon", "stop"])).code).toBe(0);
  expect(await survivors(scrubbed)).toEqual([]);
}, 60_000);
