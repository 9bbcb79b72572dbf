// The daemon's sessions by name, and which one was used last (the default target).
import { basename } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";
import type { ExitStatusValue, Params, SessionInfoValue } from "../protocol/methods.ts";
import type { SessionWorker } from "../link/worker-handle.ts";
import type { SessionBounds } from "./containment.ts";

export type SessionEntry = {
  name: string;
  worker: SessionWorker;
  argv: string[];
  cwd: string;
  cols: number;
  rows: number;
  startedAt: string;
  revision: number;
  hash: string;
  title: string;
  exit: ExitStatusValue | null;
  crashed: string | null;
  /** The recording's path, or null. */
  cast: string | null;
  /** What it was started with, for `reset`. */
  spawnParams: Params<"spawn">;
  /** Resolves when the program has ended (or its worker crashed). */
  ended: Promise<void>;
  /** What bounds its processes and finds them all when it is killed. */
  bounds: SessionBounds;
};

export class SessionRegistry {
  readonly #sessions = new Map<string, SessionEntry>();
  readonly #reserved = new Set<string>();
  #current: string | null = null;

  get size(): number {
    return this.#sessions.size + this.#reserved.size;
  }

  get current(): string | null {
    return this.#current;
  }

  has(name: string): boolean {
    return this.#sessions.has(name);
  }

  /** The named session without marking it used (for internal lookups). */
  get(name: string): SessionEntry | undefined {
    return this.#sessions.get(name);
  }

  all(): SessionEntry[] {
    return [...this.#sessions.values()];
  }

  /** Claims a name for a session being started; a taken name is a usage error. */
  reserve(requested: string | undefined, argv: string[]): string {
    if (requested !== undefined) {
      if (this.#taken(requested)) {
        throw new TuiwrightError("usage", `session ${JSON.stringify(requested)} already exists`, {
          hint: `pick another --session name, or remove it with \`tuiwright kill --session ${requested}\``,
        });
      }
      this.#reserved.add(requested);
      return requested;
    }
    const stem = basename(argv[0] ?? "session").replace(/[^A-Za-z0-9_.-]/g, "").replace(/^[^A-Za-z0-9]+/, "").slice(0, 48) || "session";
    let name = stem;
    for (let n = 2; this.#taken(name); n++) name = `${stem}-${n}`;
    this.#reserved.add(name);
    return name;
  }

  release(name: string): void {
    this.#reserved.delete(name);
  }

  add(entry: SessionEntry): void {
    this.#reserved.delete(entry.name);
    this.#sessions.set(entry.name, entry);
    this.#current = entry.name;
  }

  remove(name: string): void {
    this.#sessions.delete(name);
    if (this.#current === name) this.#current = this.all().at(-1)?.name ?? null;
  }

  /** The named session, or the most recently used one; marks it as most recently used. */
  resolve(name: string | undefined): SessionEntry {
    const target = name ?? this.#current;
    if (target === null) {
      throw new TuiwrightError("no-such-session", "there are no sessions", { hint: "start one with `tuiwright spawn -- PROGRAM`" });
    }
    const entry = this.#sessions.get(target);
    if (!entry) {
      const names = [...this.#sessions.keys()];
      throw new TuiwrightError("no-such-session", `no session named ${JSON.stringify(target)}${names.length ? ` (sessions: ${names.join(", ")})` : ""}`);
    }
    this.#current = entry.name;
    return entry;
  }

  info(entry: SessionEntry): SessionInfoValue {
    return {
      name: entry.name,
      pid: entry.worker.pid,
      argv: entry.argv,
      cwd: entry.cwd,
      cols: entry.cols,
      rows: entry.rows,
      state: entry.crashed ? "crashed" : entry.exit ? "exited" : "running",
      exit: entry.exit,
      startedAt: entry.startedAt,
      revision: entry.revision,
      title: entry.title,
      cast: entry.cast,
      kind: entry.spawnParams.browser !== undefined ? "browser" : entry.spawnParams.shell !== undefined ? "shell" : "program",
    };
  }

  #taken(name: string): boolean {
    return this.#sessions.has(name) || this.#reserved.has(name);
  }
}
