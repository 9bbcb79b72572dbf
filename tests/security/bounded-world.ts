// A tuiwright world for tests that let a session loose on the machine (fork bombs, escaping
// processes): its daemon and every CLI call run in a guard cgroup of our own whose pids.max
// bounds everything they start, as root or as a second user (with `ulimit -u` set by prlimit),
// and disposal kills every process in the guard by pid — even when a test failed or the daemon
// died. Needs root (to create the guard cgroup and to switch users).
import { chmodSync, chownSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, processAlive } from "../helpers/harness.ts";

export const isRoot = process.getuid?.() === 0;

export type User = { name: string; uid: number; gid: number };

export type RunResult = { code: number; stdout: string; stderr: string };

function passwd(name: string): User | null {
  const line = readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(":");
  return { name, uid: Number(uid), gid: Number(gid) };
}

/** A local user of the tests' own, created if missing (root only). */
export function ensureUser(name: string): User {
  if (!passwd(name)) {
    const made = Bun.spawnSync(["useradd", "--no-create-home", "--shell", "/bin/sh", name]);
    if (made.exitCode !== 0 && !passwd(name)) throw new Error(`useradd ${name}: ${made.stderr.toString()}`);
  }
  return passwd(name)!;
}

/** A cgroup whose pids.max caps everything started in it, in whichever pids hierarchy is
 * mounted (v2 preferred): `daemon` and `clients` are its leaves (cgroup v2 puts processes in
 * leaves only). null when no pids hierarchy is writable here. */
export class GuardCgroup {
  private constructor(readonly path: string) {}

  static create(maxTasks: number): GuardCgroup | null {
    for (const root of pidsRoots()) {
      const path = join(root, `tw-guard-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
      try {
        mkdirSync(path);
      } catch {
        continue;
      }
      try {
        writeFileSync(join(path, "pids.max"), String(maxTasks));
        if (existsSync(join(path, "cgroup.subtree_control"))) writeFileSync(join(path, "cgroup.subtree_control"), "+pids");
        mkdirSync(join(path, "daemon"));
        mkdirSync(join(path, "clients"));
        return new GuardCgroup(path);
      } catch {
        new GuardCgroup(path).remove();
      }
    }
    return null;
  }

  /** Every process in the guard and the cgroups below it. */
  members(): number[] {
    const pids: number[] = [];
    const visit = (dir: string) => {
      try {
        for (const line of readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n")) if (line) pids.push(Number(line));
        for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) visit(join(dir, entry.name));
      } catch {
        // removed meanwhile
      }
    };
    visit(this.path);
    return pids;
  }

  /** SIGKILL to every member, again until none is left (a bomb forks between our reads). */
  async killAll(withinMs = 20_000): Promise<void> {
    const deadline = performance.now() + withinMs;
    for (let left = this.members(); left.length > 0; left = this.members()) {
      if (performance.now() > deadline) throw new Error(`guard cgroup ${this.path}: processes ${left.join(", ")} survived SIGKILL`);
      for (const pid of left) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone already
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  remove(): void {
    const removeTree = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeTree(join(dir, entry.name));
      rmdirSync(dir);
    };
    try {
      removeTree(this.path);
    } catch {
      // a process still in it: killAll reported it
    }
  }
}

/** Why a BoundedWorld cannot be made here (null: it can), probed once when the tests load: root,
 * and a guard cgroup that can really be created and removed. A test that needs one is reported
 * as skipped with this reason (test.skipIf), never passed without running. */
export const noGuardCgroup: string | null = (() => {
  if (!isRoot) return "a guard cgroup and a second user need root (CI runs as root)";
  const probe = GuardCgroup.create(1);
  if (!probe) return "no writable pids cgroup hierarchy for the guard cgroup";
  probe.remove();
  return null;
})();

/** Mount points of the pids controller: cgroup2 with pids enabled for children, or v1's pids. */
function pidsRoots(): string[] {
  const roots: string[] = [];
  for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const [left, right] = line.split(" - ");
    const point = left?.split(" ")[4];
    const [fstype, , options] = right?.split(" ") ?? [];
    if (!point) continue;
    if (fstype === "cgroup2") {
      try {
        if (readFileSync(join(point, "cgroup.subtree_control"), "utf8").split(/\s+/).includes("pids")) roots.unshift(point);
      } catch {
        // not readable
      }
    } else if (fstype === "cgroup" && options?.split(",").includes("pids")) {
      roots.push(point);
    }
  }
  return roots;
}

/** A daemon of its own, in the guard (as `user` under `ulimit -u nproc`, or as root). */
export class BoundedWorld implements AsyncDisposable {
  readonly dir: string;
  readonly env: Record<string, string>;
  readonly socketPath: string;
  daemonPid = 0;
  #daemonExited: Promise<number> | null = null;
  #daemonProcess: { readonly signalCode: NodeJS.Signals | number | null } | null = null;
  readonly #bin: string;

  private constructor(readonly guard: GuardCgroup, readonly user: User | null, readonly nproc: number | null) {
    this.dir = mkdtempSync("/tmp/tw-bounded-");
    chmodSync(this.dir, 0o755);
    // The binary where the user can run it, however the checkout's directories are set.
    this.#bin = join(this.dir, "tuiwright");
    try {
      linkSync(BIN, this.#bin);
    } catch {
      copyFileSync(BIN, this.#bin);
    }
    chmodSync(this.#bin, 0o755);
    const home = join(this.dir, "home");
    mkdirSync(join(home, "run"), { recursive: true, mode: 0o700 });
    if (user) for (const path of [home, join(home, "run")]) chownSync(path, user.uid, user.gid);
    chmodSync(home, 0o700);
    this.socketPath = join(home, "run", "tuiwright", "bounded.sock");
    this.env = { HOME: home, PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8", TERM: "xterm-256color", XDG_RUNTIME_DIR: join(home, "run"), XDG_STATE_HOME: join(home, "state"), TUIWRIGHT_NS: "bounded" };
  }

  /** Throws when no guard cgroup can be made (then nothing may be let loose): tests that need one
   * skip on `noGuardCgroup` first, so a failure here is a real one. */
  static async start(options: { user?: User; nproc?: number; guardTasks: number }): Promise<BoundedWorld> {
    const guard = GuardCgroup.create(options.guardTasks);
    if (!guard) throw new Error(`no guard cgroup could be made (${noGuardCgroup ?? "the probe at load could make one"})`);
    const world = new BoundedWorld(guard, options.user ?? null, options.nproc ?? null);
    try {
      await world.#startDaemon();
    } catch (error) {
      await world[Symbol.asyncDispose]();
      throw error;
    }
    return world;
  }

  /** argv run as the world's user, under its process limit, with its environment only. */
  #argv(argv: string[]): string[] {
    const asUser = this.user ? ["setpriv", `--reuid=${this.user.uid}`, `--regid=${this.user.gid}`, "--clear-groups"] : [];
    const limit = this.nproc ? ["prlimit", `--nproc=${this.nproc}:${this.nproc}`, "--"] : [];
    return [...limit, ...asUser, "env", "-i", ...Object.entries(this.env).map(([k, v]) => `${k}=${v}`), ...argv];
  }

  async #startDaemon(): Promise<void> {
    const daemon = Bun.spawn(this.#argv([this.#bin, "daemon", "run"]), {
      cgroup: join(this.guard.path, "daemon"), cwd: this.dir, env: {}, stdin: "ignore", stdout: "pipe", stderr: Bun.file(join(this.dir, "daemon.stderr")),
    });
    this.daemonPid = daemon.pid;
    this.#daemonProcess = daemon;
    this.#daemonExited = daemon.exited;
    const reader = daemon.stdout.getReader();
    let line = "";
    while (!line.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      line += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    if (!line.startsWith("ready")) throw new Error(`daemon did not start: ${line}${this.daemonLog()}`);
  }

  daemonLog(): string {
    return existsSync(join(this.dir, "daemon.stderr")) ? readFileSync(join(this.dir, "daemon.stderr"), "utf8") : "";
  }

  daemonAlive(): boolean {
    return processAlive(this.daemonPid);
  }

  /** What a failed check shows about the daemon: alive, or how it ended, and its log's tail. */
  async daemonReport(): Promise<{ alive: boolean; exitCode?: number; signal?: NodeJS.Signals | number | null; logTail: string }> {
    const logTail = this.daemonLog().split("\n").slice(-40).join("\n");
    if (this.daemonAlive()) return { alive: true, logTail };
    const exitCode = (await this.#daemonExited) ?? -1;
    return { alive: false, exitCode, signal: this.#daemonProcess?.signalCode ?? null, logTail };
  }

  async run(args: string[]): Promise<RunResult> {
    const proc = Bun.spawn(this.#argv([this.#bin, ...args]), { cgroup: join(this.guard.path, "clients"), cwd: this.dir, env: {}, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  }

  async json<T = any>(args: string[]): Promise<T> {
    const result = await this.run(["--json", ...args]);
    if (result.code !== 0) throw new Error(`tuiwright ${args.join(" ")} exited ${result.code}: ${result.stdout}${result.stderr}`);
    return JSON.parse(result.stdout) as T;
  }

  /** Live processes of the world's user (or, as root, in the guard), the daemon's threads aside. */
  processes(): number[] {
    return this.guard.members().filter(processAlive);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    try {
      if (this.daemonAlive()) await this.run(["daemon", "stop"]);
    } finally {
      await this.guard.killAll();
      await this.#daemonExited;
      this.guard.remove();
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
