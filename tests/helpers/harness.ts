// Test harness: an isolated tuiwright world per test file (namespace, socket dir, state dir),
// driving the compiled binary. The daemon's exit can be awaited (daemon-process.ts: not our
// child, so a timed-out test's clean-up by bun leaves it to the file's later tests), and
// disposal checks that nothing it started is left running.
import { afterAll, beforeAll } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RpcClient } from "../../lib/transport/rpc-client.ts";
import { DaemonProcess } from "./daemon-process.ts";

export const BIN = resolve(import.meta.dir, "../../dist/tuiwright");

/** The checkout's Carbonyl (an optional npm dependency), named explicitly: tuiwright itself
 * only looks in $CARBONYL, PATH and its own data directory. */
export const REPO_CARBONYL = resolve(import.meta.dir, "../../node_modules/@fathyb/carbonyl-linux-amd64/build/carbonyl");
const carbonylEnv = (): Record<string, string> => (!process.env.CARBONYL && existsSync(REPO_CARBONYL) ? { CARBONYL: REPO_CARBONYL } : {});

export type RunResult = { code: number; stdout: string; stderr: string };

let counter = 0;

export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Resolves once `pid` has died (exited or a zombie), or after `withinMs`: the kernel sends no
 * event when a process that is not our child dies, so this looks at /proc, bounded. */
export async function processGone(pid: number, withinMs = 5000): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (processAlive(pid)) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}

export class World implements AsyncDisposable {
  readonly dir: string;
  readonly namespace: string;
  readonly socketPath: string;
  readonly env: Record<string, string>;
  daemon: DaemonProcess | null = null;
  readonly #sessionPids = new Set<number>();

  private constructor(extraEnv: Record<string, string>) {
    this.dir = mkdtempSync(join(tmpdir(), "tw-test-"));
    chmodSync(this.dir, 0o700);
    this.namespace = `t${process.pid}-${++counter}`;
    this.socketPath = join(this.dir, "run", `${this.namespace}.sock`);
    this.env = {
      ...(process.env as Record<string, string>),
      ...carbonylEnv(),
      TUIWRIGHT_NS: this.namespace,
      TUIWRIGHT_SOCKET: this.socketPath,
      XDG_STATE_HOME: join(this.dir, "state"),
      // A home of its own: the programs the tests start read no rc file or config of the
      // machine's user (root's ~/.bashrc here runs pyenv init — slow — and a pyenv lock left
      // stale made every interactive bash wait 60 s for it).
      HOME: join(this.dir, "home"),
      TUIWRIGHT_DEBUG: "1",
      ...extraEnv,
    };
    mkdirSync(this.env.HOME!, { recursive: true, mode: 0o700 });
    // As for a user whose fish has started once: with no generated_completions directory, an
    // interactive fish scans every man page in a background python (~8 CPU-s) — at each test
    // World's first fish, which loaded the machine under the other test files.
    mkdirSync(join(this.env.HOME!, ".local/share/fish/generated_completions"), { recursive: true });
    delete this.env.TUIWRIGHT_SESSION;
    // A CI runner's CI=true would reach every program the tests start (through the client's
    // environment) and change how some behave — Gemini CLI refuses to start interactively, Claude
    // Code draws differently. The programs run as a user would, the same here and in CI.
    delete this.env.CI;
  }

  /** A world whose daemon is already running (started as our child). */
  static async start(extraEnv: Record<string, string> = {}): Promise<World> {
    const world = new World(extraEnv);
    await world.startDaemon();
    return world;
  }

  /** A world with no daemon: the first `spawn` auto-starts one. */
  static empty(extraEnv: Record<string, string> = {}): World {
    return new World(extraEnv);
  }

  async startDaemon(): Promise<void> {
    // stderr to a file: an unread pipe would block the daemon once its logs filled it.
    const log = openSync(this.daemonLogPath, "a");
    const { daemon, line } = await DaemonProcess.start(BIN, this.env, log);
    if (!daemon) throw new Error(`daemon did not start: ${line}${this.daemonLog()}`);
    this.daemon = daemon;
  }

  get daemonLogPath(): string {
    return join(this.dir, "daemon.stderr");
  }

  daemonLog(): string {
    return existsSync(this.daemonLogPath) ? readFileSync(this.daemonLogPath, "utf8") : "";
  }

  async run(args: string[], options: { stdin?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
    const proc = Bun.spawn([BIN, ...args], {
      env: { ...this.env, ...options.env },
      cwd: options.cwd ?? this.dir,
      stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  }

  /** Runs a verb with --json and returns the parsed result; throws with stderr on failure. */
  async json<T = any>(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<T> {
    const result = await this.run(["--json", ...args], options);
    if (result.code !== 0) throw new Error(`tuiwright ${args.join(" ")} exited ${result.code}: ${result.stdout}${result.stderr}`);
    const value = JSON.parse(result.stdout);
    if ((args[0] === "spawn" || args[0] === "browse") && typeof value.pid === "number") this.#sessionPids.add(value.pid);
    return value as T;
  }

  /** Starts a session and returns its name. */
  async spawn(argv: string[], flags: string[] = []): Promise<{ name: string; pid: number }> {
    return this.json(["spawn", ...flags, "--", ...argv]);
  }

  async rpc(): Promise<RpcClient> {
    return RpcClient.connect(this.socketPath);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (existsSync(this.socketPath)) {
      const listed = await this.run(["--json", "list"]);
      if (listed.code === 0) for (const s of JSON.parse(listed.stdout).sessions) this.#sessionPids.add(s.pid);
      const stopped = await this.run(["daemon", "stop"]);
      if (stopped.code !== 0) throw new Error(`daemon stop failed: ${stopped.stderr}`);
    }
    if (this.daemon) await this.daemon.exited;
    const survivors = [...this.#sessionPids].filter(processAlive);
    rmSync(this.dir, { recursive: true, force: true });
    if (survivors.length > 0) throw new Error(`processes left behind: ${survivors.join(", ")}`);
  }
}

/**
 * The World every test of a file shares: started before the file's first test, disposed (with
 * its leftover checks) after its last. Returns a stand-in that forwards to that World, so tests
 * write `world.json(...)` as if they held it.
 */
export function useWorld(extraEnv: Record<string, string> = {}): World {
  let current: World | null = null;
  beforeAll(async () => { current = await World.start(extraEnv); });
  afterAll(async () => { await current?.[Symbol.asyncDispose](); });
  return new Proxy({} as World, {
    get(_target, property) {
      if (!current) throw new Error("useWorld(): the World is used before beforeAll started it");
      const value = Reflect.get(current, property, current);
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
}
