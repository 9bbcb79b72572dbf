// Warm starts (issue 30, lib/pty/warm-start.ts): where sessions run in cgroups, the next program's
// process is started ahead of its spawn and already waits in that session's cgroup. The spawn
// must then run its program in that very process, and the program must see exactly what a
// direct start gives it: its argv (argv[0] as given), only the environment asked for (not the
// waiting shell's PWD or SHLVL), its cwd, its terminal size — and be in its cgroup.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { useWorld } from "../helpers/harness.ts";
import type { RpcClient } from "../../lib/transport/rpc-client.ts";

setDefaultTimeout(60_000);

const world = useWorld();
const PATH = "/usr/local/bin:/usr/bin:/bin";

type Status = { containment: { how: string; cgroup: string | null } };

/** A file's text, or "" once it is gone (a cgroup removed, a process ended, while we look). */
const readOr = (path: string) => { try { return readFileSync(path, "utf8"); } catch { return ""; } };

/** The process waiting in a session cgroup of the daemon's for the next spawn, once there is one. */
async function waitingProcess(base: string, not?: number): Promise<{ pid: number; cgroup: string }> {
  const deadline = performance.now() + 20_000;
  for (;;) {
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = `${base}/${entry.name}`;
      for (const line of readOr(`${dir}/cgroup.procs`).split("\n").filter(Boolean)) {
        const cmdline = readOr(`/proc/${line}/cmdline`).split("\0");
        if (cmdline[0] === "/bin/sh" && cmdline[1] === "-c" && Number(line) !== not) return { pid: Number(line), cgroup: dir };
      }
    }
    if (performance.now() > deadline) throw new Error(`no warm start in ${base} within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const inCgroup = (pid: number, cgroup: string) => readFileSync(`/proc/${pid}/cgroup`, "utf8").split("\n").some((line) => line.endsWith(cgroup.slice(cgroup.indexOf("/tuiwright-"))));

async function withRpc<T>(body: (rpc: RpcClient) => Promise<T>): Promise<T> {
  const rpc = await world.rpc();
  try {
    return await body(rpc);
  } finally {
    rpc.close();
  }
}

/** The daemon can give sessions cgroups here (root, a pids controller): only then are there warm starts. */
const cgroups = process.getuid?.() === 0 && (existsSync("/sys/fs/cgroup/pids/cgroup.procs") || (existsSync("/sys/fs/cgroup/cgroup.controllers") && readFileSync("/sys/fs/cgroup/cgroup.controllers", "utf8").includes("pids")));

test.skipIf(!cgroups)("the spawn runs its program in the process waiting in its cgroup, with exactly its argv, environment, cwd and size", async () => {
  await withRpc(async (rpc) => {
    const status = (await rpc.call("daemon.status", {})) as Status;
    expect(status.containment.how).toBe("cgroup");
    const waiting = await waitingProcess(status.containment.cgroup!);
    const env = { PATH, ODD: "a 'quoted' value\nwith a newline and $HOME", EMPTY: "" };
    const argv = ["sh", "-c", 'stty size; printf "[%s]" "$@"; echo; read x', "zero", "a b", "c'd", "-e", "x=y"];
    const spawned = (await rpc.call("spawn", { session: "warm", argv, cwd: "/tmp", env, cols: 91, rows: 17 })) as { pid: number };
    expect(spawned.pid).toBe(waiting.pid);
    await rpc.call("wait", { session: "warm", text: ["[a b][c'd][-e][x=y]"], timeoutMs: 10_000 });
    expect(((await rpc.call("snapshot", { session: "warm" })) as { text: string }).text).toContain("17 91");
    expect(readFileSync(`/proc/${spawned.pid}/cmdline`, "utf8")).toBe(argv.join("\0") + "\0");
    const environ = readFileSync(`/proc/${spawned.pid}/environ`, "utf8").split("\0").filter(Boolean);
    expect(environ.filter((line) => !line.startsWith("TUIWRIGHT_SESSION_MARK=")).sort()).toEqual(
      [`PATH=${PATH}`, `ODD=${env.ODD}`, "EMPTY=", "TERM=xterm-256color"].sort(),
    );
    expect(readlinkSync(`/proc/${spawned.pid}/cwd`)).toBe("/tmp");
    expect(inCgroup(spawned.pid, waiting.cgroup)).toBe(true);
    await rpc.call("kill", { session: "warm" });
  });
});

test.skipIf(!cgroups)("a spawn of a missing program is the usual error, and the next spawn still finds a process waiting in its cgroup", async () => {
  await withRpc(async (rpc) => {
    const status = (await rpc.call("daemon.status", {})) as Status;
    expect(status.containment.how).toBe("cgroup");
    const waiting = await waitingProcess(status.containment.cgroup!);
    const failed = await rpc.call("spawn", { session: "missing", argv: ["no-such-program-here"], env: { PATH } }).then(() => null, (error: Error & { errorName?: string }) => error);
    expect(failed?.message).toContain("no such program");
    // The failed spawn took the cgroup made ahead: a new one is made, and a process waits in it.
    const next = await waitingProcess(status.containment.cgroup!, waiting.pid);
    expect(next.cgroup).not.toBe(waiting.cgroup);
    const spawned = (await rpc.call("spawn", { session: "after", argv: ["sh", "-c", "echo started; read x"], env: { PATH } })) as { pid: number };
    await rpc.call("wait", { session: "after", text: ["started"], timeoutMs: 10_000 });
    expect(spawned.pid).toBe(next.pid);
    expect(inCgroup(spawned.pid, next.cgroup)).toBe(true);
    await rpc.call("kill", { session: "after" });
  });
});
