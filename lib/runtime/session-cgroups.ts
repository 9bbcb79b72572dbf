// A control group per session (the pids controller), where the daemon may create them: every
// process a session starts — however it forks, calls setsid or double-forks — stays in the
// session's cgroup, which caps how many tasks it can have (pids.max: a fork bomb stops there, not
// at the user's or the machine's limit, which would also stop the daemon) and lists them all
// (cgroup.procs) so `kill` and `daemon stop` end every one. Bun puts the program in its cgroup
// before it runs (Bun.spawn's `cgroup`), so not even its first fork escapes.
//
// Where: a cgroup v1 pids hierarchy whose directory we can write (root, usually), or cgroup v2
// with the pids controller where the daemon's own cgroup is the root or is delegated to it alone
// (e.g. `systemd-run --user -p Delegate=yes`): v2 lets a cgroup with processes have no child
// cgroups with controllers, so the daemon first moves itself into a leaf of its own cgroup.
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import type { TaskLimit } from "./task-limits.ts";

export type PidsHierarchy = { version: 1 | 2; /** the daemon's own cgroup directory */ own: string; /** the mount point */ mount: string };

/** Where the pids controller's hierarchy is mounted and which directory is our cgroup in it,
 * from /proc/self/cgroup and /proc/self/mountinfo. v2 is preferred when it has the controller. */
export function locatePidsHierarchy(cgroupFile: string, mountinfo: string, v2HasPids: (dir: string) => boolean): PidsHierarchy | null {
  const mounts = mountinfo.split("\n").map((line) => {
    const [left, right] = line.split(" - ");
    const fields = left?.split(" ") ?? [];
    const [fstype, , superOptions] = right?.split(" ") ?? [];
    return { root: unescapeMount(fields[3] ?? ""), point: unescapeMount(fields[4] ?? ""), fstype, superOptions: superOptions?.split(",") ?? [] };
  });
  const placed = (path: string, mount: { root: string; point: string }): string | null => {
    if (mount.root === "/") return path === "/" ? mount.point : mount.point + path;
    if (path !== mount.root && !path.startsWith(`${mount.root}/`)) return null; // not visible from this mount
    return mount.point + path.slice(mount.root.length);
  };
  const lines = cgroupFile.split("\n").filter(Boolean).map((line) => {
    const first = line.indexOf(":");
    const second = line.indexOf(":", first + 1);
    return { id: line.slice(0, first), controllers: line.slice(first + 1, second).split(","), path: line.slice(second + 1) };
  });
  const unified = lines.find((l) => l.id === "0" && l.controllers.join("") === "");
  const v2Mount = mounts.find((m) => m.fstype === "cgroup2");
  if (unified && v2Mount) {
    const own = placed(unified.path, v2Mount);
    if (own && v2HasPids(own)) return { version: 2, own, mount: v2Mount.point };
  }
  const v1 = lines.find((l) => l.controllers.includes("pids"));
  const v1Mount = mounts.find((m) => m.fstype === "cgroup" && m.superOptions.includes("pids"));
  if (v1 && v1Mount) {
    const own = placed(v1.path, v1Mount);
    if (own) return { version: 1, own, mount: v1Mount.point };
  }
  return null;
}

function unescapeMount(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_m, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

const read = (path: string): string => readFileSync(path, "utf8");

/** Writes a cgroup control file, which exists or the write is wrong (never creates a file). */
function writeControl(path: string, value: string): void {
  const fd = openSync(path, constants.O_WRONLY);
  try {
    writeSync(fd, value);
  } finally {
    closeSync(fd);
  }
}

/** Moves process `pid` into the cgroup `dir`, off the calling thread: the kernel's cgroup
 * migration waits out an RCU grace period (measured 10-15 ms on a cgroup v1 hierarchy), which
 * would stall the thread's other sessions. */
export async function joinCgroup(dir: string, pid: number): Promise<void> {
  const file = await open(`${dir}/cgroup.procs`, constants.O_WRONLY);
  try {
    await file.write(String(pid));
  } finally {
    await file.close();
  }
}

export class SessionCgroups {
  readonly version: 1 | 2;
  /** The directory holding this daemon's session cgroups. */
  readonly base: string;
  readonly #hierarchy: PidsHierarchy;
  #next = 1;

  private constructor(hierarchy: PidsHierarchy, base: string) {
    this.version = hierarchy.version;
    this.#hierarchy = hierarchy;
    this.base = base;
  }

  /** Sets up `<own cgroup>/<prefix><pid>` for this daemon's sessions; null (and why) when this
   * machine does not let us. `prefix` names the user and namespace, so a later daemon of the
   * same ones can find a crashed predecessor's cgroups. */
  static open(prefix: string): { cgroups: SessionCgroups | null; why: string } {
    let hierarchy: PidsHierarchy | null;
    try {
      hierarchy = locatePidsHierarchy(read("/proc/self/cgroup"), read("/proc/self/mountinfo"), (dir) => {
        try {
          return read(`${dir}/cgroup.controllers`).split(/\s+/).includes("pids");
        } catch {
          return false;
        }
      });
    } catch {
      hierarchy = null;
    }
    if (!hierarchy) return { cgroups: null, why: "no pids cgroup controller is mounted" };
    try {
      const refused = hierarchy.version === 2 ? prepareV2(hierarchy) : null;
      if (refused) return { cgroups: null, why: refused };
      const base = `${hierarchy.own}/${prefix}${process.pid}`;
      mkdirSync(base);
      if (hierarchy.version === 2) writeControl(`${base}/cgroup.subtree_control`, "+pids");
      return { cgroups: new SessionCgroups(hierarchy, base), why: "" };
    } catch (error) {
      return { cgroups: null, why: `cannot create cgroups in ${hierarchy.own} (${(error as { code?: string }).code ?? String(error)})` };
    }
  }

  /** The pids.max of every cgroup from ours up to the hierarchy's root, against its pids.current. */
  enclosingLimits(): TaskLimit[] {
    const limits: TaskLimit[] = [];
    for (let dir = this.#hierarchy.own; dir.length >= this.#hierarchy.mount.length; dir = dir.slice(0, dir.lastIndexOf("/"))) {
      try {
        const max = read(`${dir}/pids.max`).trim();
        if (/^\d+$/.test(max)) limits.push({ what: `pids.max of the cgroup ${dir} (${max})`, max: Number(max), used: Number(read(`${dir}/pids.current`).trim()) });
      } catch {
        // the root cgroup has no pids.max
      }
      if (dir === this.#hierarchy.mount) break;
    }
    return limits;
  }

  /** Caps all sessions together (the base cgroup's pids.max). */
  capTotal(tasks: number): void {
    writeControl(`${this.base}/pids.max`, String(tasks));
  }

  /** A new cgroup for one session, holding at most `tasks` tasks. */
  create(tasks: number): string {
    const dir = `${this.base}/s${this.#next++}`;
    mkdirSync(dir);
    try {
      writeControl(`${dir}/pids.max`, String(tasks));
    } catch (error) {
      rmdirSync(dir);
      throw error;
    }
    return dir;
  }

  /** Removes this daemon's cgroups (each must be empty by now); false if one could not go. */
  close(): boolean {
    return removeTree(this.base);
  }

  /** The cgroups crashed daemons left beside ours: `<own>/<prefix>…-<pid>` whose daemon is gone. */
  staleBases(prefix: string): string[] {
    let names: string[];
    try {
      names = readdirSync(this.#hierarchy.own);
    } catch {
      return [];
    }
    return names.filter((name) => {
      const pid = name.startsWith(prefix) ? /-(\d+)$/.exec(name)?.[1] : undefined;
      return pid !== undefined && Number(pid) !== process.pid && !existsSync(`/proc/${pid}`);
    }).map((name) => `${this.#hierarchy.own}/${name}`);
  }
}

/** The processes in a cgroup and its children. */
export function cgroupMembers(dir: string): number[] {
  const pids: number[] = [];
  const visit = (path: string) => {
    try {
      for (const line of read(`${path}/cgroup.procs`).split("\n")) if (line) pids.push(Number(line));
      for (const entry of readdirSync(path, { withFileTypes: true })) if (entry.isDirectory()) visit(`${path}/${entry.name}`);
    } catch {
      // removed meanwhile
    }
  };
  visit(dir);
  return pids;
}

/** cgroup v2's cgroup.kill (Linux 5.14): SIGKILL to every process in it, atomically with forks. */
export function killCgroup(dir: string): boolean {
  try {
    writeControl(`${dir}/cgroup.kill`, "1");
    return true;
  } catch {
    return false;
  }
}

/** rmdir of a cgroup and its children (each empty of processes); false if one stayed. */
export function removeTree(dir: string): boolean {
  let entries: string[] = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return !existsSync(dir);
  }
  let removed = true;
  for (const name of entries) removed = removeTree(`${dir}/${name}`) && removed;
  try {
    rmdirSync(dir);
  } catch (error) {
    return (error as { code?: string }).code === "ENOENT" && removed;
  }
  return removed;
}

/** cgroup v2 lets only a cgroup without processes enable controllers for its children (the root
 * excepted): the daemon moves itself into a leaf first — only when it is alone in its cgroup, so
 * it never moves a process that is not its own. Returns why not, or null when ready. */
function prepareV2(hierarchy: PidsHierarchy): string | null {
  const control = `${hierarchy.own}/cgroup.subtree_control`;
  if (read(control).split(/\s+/).includes("pids")) return null;
  if (hierarchy.own !== hierarchy.mount) {
    const members = read(`${hierarchy.own}/cgroup.procs`).split("\n").filter(Boolean).map(Number);
    if (members.length !== 1 || members[0] !== process.pid) return `the daemon shares its cgroup ${hierarchy.own} with other processes (start it in a delegated cgroup of its own)`;
    const leaf = `${hierarchy.own}/tuiwright-daemon`;
    if (!existsSync(leaf)) mkdirSync(leaf);
    writeControl(`${leaf}/cgroup.procs`, String(process.pid));
  }
  writeControl(control, "+pids");
  return null;
}
