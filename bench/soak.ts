// Soak: `bun run soak --minutes N` drives 8 sessions (3 bash shells running exec blocks, vim
// editing, a python REPL, htop, less, and a resized bash) in a loop through one persistent
// connection, then checks: no errors, no crashed workers, daemon RSS growth under 10% after
// warm-up, every cast valid and replaying to the session's final screen, no leaked processes
// or file descriptors. Exits 1 with the reasons when a check fails.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseCast } from "../lib/record/cast-reader.ts";
import { World } from "../tests/helpers/harness.ts";

const minutesFlag = process.argv.indexOf("--minutes");
const MINUTES = minutesFlag === -1 ? 2 : Number(process.argv[minutesFlag + 1]);
if (!(MINUTES > 0)) {
  console.error("usage: bun run soak --minutes N (N > 0)");
  process.exit(64);
}
const WARMUP_FRACTION = 0.2;
// `--no-rss-check`: for short CI runs, where a GC cycle is as long as the window.
const RSS_CHECK = !process.argv.includes("--no-rss-check");
// `--heap`: also sample each thread's JS heap (debug.memory), and diff object types by thread
// between warm-up and the end. `--gc`: a full GC in every thread at each sample (is growth garbage?).
const HEAP = process.argv.includes("--heap");
const FORCE_GC = process.argv.includes("--gc");

type Rpc = Awaited<ReturnType<World["rpc"]>>;
type Driver = { name: string; argv: string[]; flags?: Record<string, unknown>; ready: string; step(rpc: Rpc, i: number): Promise<void> };

/** A condition for an action's `wait`; `wait(...)` adds the session for the wait method. */
const until = (regex: string, timeoutMs = 10_000) => ({ regex: [regex], timeoutMs });
const wait = (session: string, regex: string) => ({ session, ...until(regex) });

function shell(name: string): Driver {
  return {
    name, argv: [], flags: { shell: "bash" }, ready: "[$#]\\s*$",
    async step(rpc, i) {
      const block = (await rpc.call("exec", { session: name, command: `echo ${name}-${i}; seq 1 ${i % 50}`, timeoutMs: 10_000 })) as { exitCode: number; output: string };
      if (block.exitCode !== 0 || !block.output.startsWith(`${name}-${i}\n`)) throw new Error(`${name}: block ${i} gave ${JSON.stringify(block).slice(0, 200)}`);
      if (i % 7 === 0) {
        const failing = (await rpc.call("exec", { session: name, command: "false" })) as { exitCode: number };
        if (failing.exitCode !== 1) throw new Error(`${name}: false exited ${failing.exitCode}`);
      }
    },
  };
}

const ALL_DRIVERS: Driver[] = [
  shell("sh1"), shell("sh2"), shell("sh3"),
  {
    name: "vim", argv: ["vim", "-u", "NONE", "-i", "NONE", "-N", "-n"], ready: "~",
    async step(rpc, i) {
      await rpc.call("press", { session: "vim", keys: ["Escape", "G", "o"] });
      await rpc.call("type", { session: "vim", text: `line ${i}`, wait: until(`line ${i}`) });
      await rpc.call("press", { session: "vim", keys: ["Escape"] });
      if (i % 20 === 19) await rpc.call("type", { session: "vim", text: ":%d\r", wait: { text: ["--No lines in buffer--"], timeoutMs: 10_000 } });
      await rpc.call("snapshot", { session: "vim", format: "outline" });
    },
  },
  {
    name: "py", argv: ["python3", "-q"], ready: "^>>>\\s*$",
    async step(rpc, i) {
      await rpc.call("type", { session: "py", text: `print(${i}*3)\r`, wait: until(`^${i * 3}$`) });
    },
  },
  {
    name: "htop", argv: ["htop"], ready: "PID", flags: { env: { ...process.env, TERM: "xterm-256color" } },
    async step(rpc) {
      await rpc.call("snapshot", { session: "htop", format: "outline" });
      await rpc.call("wait", { session: "htop", changedSince: 0, timeoutMs: 5000 });
    },
  },
  {
    name: "less", argv: ["less", "/etc/services"], ready: ".",
    async step(rpc, i) {
      await rpc.call("press", { session: "less", keys: [i % 10 === 9 ? "g" : "Space"] });
      await rpc.call("snapshot", { session: "less" });
    },
  },
  {
    name: "resized", argv: ["bash", "--norc", "--noprofile"], ready: "[$#]\\s*$",
    async step(rpc, i) {
      const cols = 60 + (i % 5) * 20;
      await rpc.call("resize", { session: "resized", cols, rows: 20 + (i % 3) * 5 });
      // Let readline finish redrawing for SIGWINCH first: keys typed into that redraw can be lost (bash's race, not ours).
      await rpc.call("wait", { session: "resized", settledMs: 20, timeoutMs: 5000 });
      // The tty's size, not $COLUMNS: bash updates that only when it handles SIGWINCH, which can race the command.
      await rpc.call("type", { session: "resized", text: `echo cols=$(stty size | cut -d" " -f2)-${i}\r`, wait: until(`^cols=${cols}-${i}$`) });
      if (i % 30 === 29) await rpc.call("press", { session: "resized", keys: ["C-l"] });
    },
  },
];

// `--only a,b`: just those sessions (to tell which kind of session a growth comes with).
const onlyFlag = process.argv.indexOf("--only");
const ONLY = onlyFlag === -1 ? null : new Set(process.argv[onlyFlag + 1]!.split(","));
const DRIVERS = ALL_DRIVERS.filter((d) => !ONLY || ONLY.has(d.name));

function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

function processesOf(ppid: number): number[] {
  return readdirSync("/proc").filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === ppid ? [Number(d)] : [];
    } catch {
      return [];
    }
  });
}

const failures: string[] = [];
await using world = await World.start();
const daemonPid = world.daemon!.pid;
const fdsBaseline = openFds(daemonPid);
const rpc = await world.rpc();
for (const d of DRIVERS) {
  await rpc.call("spawn", { session: d.name, argv: d.argv.length ? d.argv : undefined, cols: 100, rows: 30, cwd: world.dir, env: { ...process.env, TERM: "xterm-256color" }, ...d.flags });
  await rpc.call("wait", wait(d.name, d.ready));
}

const started = performance.now();
const deadline = started + MINUTES * 60_000;
const rssTrail: { at: number; rss: number }[] = [];
type Memory = { rssBytes: number; daemon: { heapSize: number; objectCount: number; types: Record<string, number> }; sessions: { session: string; heap: { heapSize: number; objectCount: number; types: Record<string, number> } | null }[] };
const memory = async (gc: boolean, types: number) => (await rpc.call("debug.memory", { gc, types })) as Memory;
const heapTrail: { at: number; memory: Memory }[] = [];
let warmTypes: Memory | null = null;
let nextSample = 0;
let warmFds = 0;
let steps = 0;
const latencies: number[] = [];
for (let i = 0; performance.now() < deadline; i++) {
  await Promise.all(DRIVERS.map(async (d) => {
    const t0 = performance.now();
    try {
      await d.step(rpc, i);
    } catch (error) {
      const excerpt = (error as { details?: { excerpt?: string } }).details?.excerpt;
      failures.push(`${d.name} step ${i}: ${(error as Error).message.split("\n")[0]}${excerpt ? `\n    screen:\n${excerpt.split("\n").slice(-6).map((l) => `      | ${l}`).join("\n")}` : ""}`);
    }
    latencies.push(performance.now() - t0);
    steps++;
  }));
  if (performance.now() - started >= nextSample) {
    const rss = ((await rpc.call("daemon.status", {})) as { rssBytes: number }).rssBytes;
    rssTrail.push({ at: (performance.now() - started) / (MINUTES * 60_000), rss });
    if (HEAP || FORCE_GC) heapTrail.push({ at: rssTrail.at(-1)!.at, memory: await memory(FORCE_GC, 0) });
    if (HEAP && !warmTypes && rssTrail.at(-1)!.at >= WARMUP_FRACTION) warmTypes = await memory(true, 400);
    nextSample += MINUTES * 3000;
  }
  if (!warmFds && performance.now() - started > MINUTES * 60_000 * WARMUP_FRACTION) warmFds = openFds(daemonPid);
  if (failures.length > 20) break;
}
const status = (await rpc.call("daemon.status", {})) as { rssBytes: number; pendingCalls: number };
const heapLines: string[] = [];
if (HEAP || FORCE_GC) {
  const mib = (n: number) => (n / 2 ** 20).toFixed(1);
  const threads = ["daemon", ...DRIVERS.map((d) => d.name)];
  const pick = (m: Memory, t: string) => (t === "daemon" ? m.daemon : m.sessions.find((s) => s.session === t)?.heap) ?? { heapSize: NaN, objectCount: NaN, types: {} };
  for (const t of threads) heapLines.push(`heap ${t}: ${heapTrail.map((h) => `${Math.round(h.at * MINUTES * 60)}s ${mib(pick(h.memory, t).heapSize)}/${pick(h.memory, t).objectCount}`).join(", ")}`);
  if (warmTypes) {
    const end = await memory(true, 400);
    heapLines.push(`after full GC: RSS ${mib(warmTypes.rssBytes)} MiB after warm-up → ${mib(end.rssBytes)} MiB at the end`);
    for (const t of threads) {
      const [a, b] = [pick(warmTypes, t), pick(end, t)];
      const grown = Object.keys({ ...a.types, ...b.types }).map((k) => [k, (b.types[k] ?? 0) - (a.types[k] ?? 0)] as const).filter(([, d]) => d > 0).sort((x, y) => y[1] - x[1]).slice(0, 8);
      heapLines.push(`  ${t}: heap ${mib(a.heapSize)} → ${mib(b.heapSize)} MiB, objects ${a.objectCount} → ${b.objectCount}; grew: ${grown.map(([k, d]) => `${k} +${d}`).join(", ")}`);
    }
  }
}
const { sessions } = (await rpc.call("list", {})) as { sessions: { name: string; state: string; cast: string | null }[] };
for (const s of sessions) if (s.state !== "running") failures.push(`${s.name} is ${s.state}`);
// The JS heaps grow and shrink with GC, so compare troughs: the lowest RSS in the last 30% of
// the run against the lowest just after warm-up (20–50%). A leak raises the floor; GC noise does not.
const trough = (from: number, to: number) => Math.min(...rssTrail.filter((s) => s.at >= from && s.at < to).map((s) => s.rss));
const warmTrough = trough(WARMUP_FRACTION, 0.5);
const endTrough = trough(0.7, 1.01);
const growth = (endTrough - warmTrough) / warmTrough;
if (RSS_CHECK && !(growth <= 0.1)) failures.push(`daemon RSS floor grew ${(growth * 100).toFixed(1)}% after warm-up (${warmTrough} → ${endTrough} bytes)`);

// Each cast replays to the screen the session shows now.
for (const s of sessions) {
  await rpc.call("mark", { session: s.name, label: "soak-end" });
  const live = ((await rpc.call("snapshot", { session: s.name })) as { text: string }).text;
  const cast = s.cast!;
  try {
    parseCast(readFileSync(cast, "utf8"), cast);
  } catch (error) {
    failures.push(`${s.name}: invalid cast: ${(error as Error).message}`);
    continue;
  }
  if (s.name === "htop") continue; // its clock moves between the marker and the snapshot
  const replay = await world.run(["replay", cast, "--at-marker", "soak-end", "--plain"]);
  if (replay.code !== 0 || replay.stdout.trimEnd() !== live.trimEnd()) failures.push(`${s.name}: the replay differs from the live screen`);
}

const fdsAtEnd = openFds(daemonPid);
if (fdsAtEnd > warmFds + 2) failures.push(`daemon fds grew from ${warmFds} after warm-up to ${fdsAtEnd}`);
const programs = processesOf(daemonPid).length;
for (const s of sessions) await rpc.call("kill", { session: s.name });
const leftover = processesOf(daemonPid);
if (leftover.length > 0) failures.push(`processes left after killing every session: ${leftover.join(", ")}`);
rpc.close();
// Workers end asynchronously after kill: give the daemon a few round trips to close their fds.
let fdsIdle = openFds(daemonPid);
for (let i = 0; i < 20 && fdsIdle > fdsBaseline; i++) {
  await world.run(["list"]);
  fdsIdle = openFds(daemonPid);
}
if (fdsIdle > fdsBaseline) failures.push(`daemon fds: ${fdsBaseline} before any session, ${fdsIdle} after all were killed`);

latencies.sort((a, b) => a - b);
const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
const summary = [
  `soak: ${MINUTES} min, ${DRIVERS.length} sessions (${programs} programs), ${steps} steps, step p50 ${p(0.5)} ms p95 ${p(0.95)} ms p99 ${p(0.99)} ms`,
  `daemon RSS floor ${(warmTrough / 2 ** 20).toFixed(1)} MiB after warm-up → ${(endTrough / 2 ** 20).toFixed(1)} MiB at the end (${(growth * 100).toFixed(1)}%); last ${(status.rssBytes / 2 ** 20).toFixed(1)} MiB; fds ${warmFds} after warm-up → ${fdsAtEnd} at the end → ${fdsIdle} idle (baseline ${fdsBaseline}); pending calls ${status.pendingCalls}`,
  `daemon RSS (MiB) over time: ${rssTrail.map((s) => `${Math.round(s.at * MINUTES * 60)}s ${(s.rss / 2 ** 20).toFixed(0)}`).join(", ")}`,
  ...heapLines,
  failures.length ? `FAILED:\n  ${failures.join("\n  ")}` : "all checks passed",
].join("\n");
console.log(summary);
if (process.env.SOAK_REPORT) writeFileSync(join(process.env.SOAK_REPORT), `${summary}\n`);
process.exitCode = failures.length ? 1 : 0;
