// The pieces that find a session's processes and bound them, from the text the kernel gives:
// /proc/self/cgroup and mountinfo (where the pids controller is, v1 or v2, under a cgroup
// namespace too), /proc/self/limits, /proc/PID/stat with an awkward command name, the
// descendants of a set of processes, and the libc the daemon calls through (glibc or musl).
import { expect, test } from "bun:test";
import { libc, libcNames, RLIMIT_NPROC } from "../../../lib/runtime/libc.ts";
import { liveDescendants, parseStat, type ProcessTable } from "../../../lib/runtime/process-table.ts";
import { locatePidsHierarchy } from "../../../lib/runtime/session-cgroups.ts";
import { parseProcessLimit, tightest } from "../../../lib/runtime/task-limits.ts";

const HYBRID_MOUNTS = [
  "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
  "36 30 0:33 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids",
  "39 30 0:36 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
].join("\n");

test("cgroup v1: the pids hierarchy's mount and our directory in it", () => {
  const found = locatePidsHierarchy("8:pids:/jobs/a\n4:memory:/x\n0::/\n", HYBRID_MOUNTS, () => false);
  expect(found).toEqual({ version: 1, own: "/sys/fs/cgroup/pids/jobs/a", mount: "/sys/fs/cgroup/pids" });
  expect(locatePidsHierarchy("8:pids:/\n0::/\n", HYBRID_MOUNTS, () => false)).toEqual({ version: 1, own: "/sys/fs/cgroup/pids", mount: "/sys/fs/cgroup/pids" });
});

test("cgroup v2 is chosen when it has the pids controller; a cgroup namespace's mount root is cut off", () => {
  const mounts = "40 22 0:40 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n";
  expect(locatePidsHierarchy("0::/user.slice/u.service/app.scope\n", mounts, (dir) => dir === "/sys/fs/cgroup/user.slice/u.service/app.scope"))
    .toEqual({ version: 2, own: "/sys/fs/cgroup/user.slice/u.service/app.scope", mount: "/sys/fs/cgroup" });
  // Inside a container whose mount shows the host's /docker/abc as its root.
  const container = "50 40 0:41 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
  expect(locatePidsHierarchy("0::/docker/abc/sub\n", container, () => true)).toEqual({ version: 2, own: "/sys/fs/cgroup/sub", mount: "/sys/fs/cgroup" });
  expect(locatePidsHierarchy("0::/elsewhere\n", container, () => true)).toBeNull();
  // v2 without the controller, and no v1 pids: nothing to use.
  expect(locatePidsHierarchy("0::/a\n", mounts, () => false)).toBeNull();
});

test("a mount point with a space is unescaped", () => {
  const found = locatePidsHierarchy("3:pids:/\n", "36 30 0:33 / /sys/fs/cgroup/my\\040pids rw - cgroup cgroup rw,pids\n", () => false);
  expect(found?.own).toBe("/sys/fs/cgroup/my pids");
});

test("Max processes of /proc/self/limits: a number or unlimited", () => {
  const limits = "Limit                     Soft Limit           Hard Limit           Units\nMax processes             400                  500                  processes\n";
  expect(parseProcessLimit(limits)).toBe(400);
  expect(parseProcessLimit(limits.replace("400 ", "unlimited "))).toBe(Infinity);
  expect(parseProcessLimit("")).toBe(Infinity);
});

test("the tightest limit is the one with the fewest tasks left", () => {
  const user = { what: "user", max: 400, used: 380 };
  const kernel = { what: "kernel", max: 32768, used: 300 };
  expect(tightest([kernel, user])).toEqual({ free: 20, limit: user });
  expect(tightest([{ what: "unlimited", max: Infinity, used: 5 }])).toEqual({ free: Infinity, limit: null });
});

test("a stat line whose command name holds spaces and parentheses", () => {
  expect(parseStat(42, "42 (a) b (c) S 7 42 40 34816 42 4194304")).toEqual({ pid: 42, ppid: 7, pgid: 42, sid: 40, zombie: false, start: "" });
  expect(parseStat(43, "43 (sleep) Z 1 43 43 0")?.zombie).toBe(true);
});

test("descendants: the whole tree below the roots, zombies left out, unknown roots ignored", () => {
  const row = (pid: number, ppid: number, zombie = false) => [pid, { pid, ppid, pgid: pid, sid: pid, zombie, start: "1" }] as const;
  const table: ProcessTable = new Map([row(10, 1), row(11, 10), row(12, 11), row(13, 11, true), row(20, 1), row(21, 20)]);
  expect(liveDescendants(table, [10, 99]).sort()).toEqual([10, 11, 12]);
  expect(liveDescendants(table, [12, 20]).sort()).toEqual([12, 20, 21]);
});

test("libc: glibc's name first, then musl's for the architecture", () => {
  expect(libcNames("x64")).toEqual(["libc.so.6", "libc.musl-x86_64.so.1", "libc.so"]);
  expect(libcNames("arm64")).toEqual(["libc.so.6", "libc.musl-aarch64.so.1", "libc.so"]);
  expect(libcNames("mips")).toEqual(["libc.so.6", "libc.so"]);
});

test("libc loads here and reads and sets a process's RLIMIT_NPROC (a child's, as for a session)", async () => {
  const lib = libc();
  expect(lib).not.toBeNull();
  const child = Bun.spawn(["sleep", "30"]);
  try {
    expect(lib!.setLimit(child.pid, RLIMIT_NPROC, 123n)).toBe(true);
    expect(lib!.getLimit(child.pid, RLIMIT_NPROC)).toEqual([123n, 123n]);
    expect((await Bun.file(`/proc/${child.pid}/limits`).text())).toMatch(/Max processes\s+123\s+123/);
  } finally {
    child.kill();
    await child.exited;
  }
});
