// The desktop.* methods: AOTUI desktops living in the daemon (lib/desktop/runtime.ts), their
// signals as `desktop.signal` notifications, and input locks held by a connection released
// when it closes (a crashed agent does not lock its desktop forever).
import { writeOutputFile } from "../runtime/output-file.ts";
import { createDesktop, destroyDesktop, foldersOf, getDesktop, listDesktops, previewRestore, restore } from "../desktop/runtime.ts";
import type { Desktop, DesktopState } from "../desktop/desktop.ts";
import type { UpdateSignal } from "../desktop/signal-stream.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import type { Connection } from "../runtime/unix-socket.ts";
import type { Handlers } from "./dispatch.ts";
import type { EventHub } from "./event-hub.ts";
import type { SessionRegistry } from "./registry.ts";
import type { LeaseTable } from "./lease-table.ts";
import { terminalApp, terminalAppId, type TerminalSession } from "../desktop/terminal-app.ts";
import { BUILTIN_MANIFESTS } from "../adapters/builtins.ts";
import { operationsOf, type TerminalOperation } from "../adapters/manifest-operations.ts";
import { parse as parseToml } from "smol-toml";
import { readUserManifest } from "../adapters/read-user-manifest.ts";
import * as v from "valibot";
import { METHODS } from "../protocol/methods.ts";

type DesktopHandlers = Pick<Handlers, Extract<keyof Handlers, `desktop.${string}`>>;

type Subscription = { id: string; connection: Connection; desktop: Desktop; listener: (signal: UpdateSignal) => void };

/** Who subscribed and who holds which lock, per connection. */
export class DesktopConnections {
  readonly #subscriptions = new Map<string, Subscription>();
  readonly #locks = new Map<Connection, { desktop: Desktop; owner: string }[]>();
  #next = 1;

  subscribe(connection: Connection, desktop: Desktop): string {
    const id = `dsub-${this.#next++}`;
    const listener = (signal: UpdateSignal) => {
      connection.send(JSON.stringify({ jsonrpc: "2.0", method: "desktop.signal", params: { subscription: id, ...signal } }) + "\n");
    };
    desktop.output.subscribe(listener);
    this.#subscriptions.set(id, { id, connection, desktop, listener });
    return id;
  }

  held(connection: Connection, desktop: Desktop, owner: string): void {
    const list = this.#locks.get(connection) ?? [];
    if (!list.some((l) => l.desktop === desktop && l.owner === owner)) list.push({ desktop, owner });
    this.#locks.set(connection, list);
  }

  released(desktop: Desktop, owner: string): void {
    for (const list of this.#locks.values()) {
      const index = list.findIndex((l) => l.desktop === desktop && l.owner === owner);
      if (index >= 0) list.splice(index, 1);
    }
  }

  dropConnection(connection: Connection): void {
    for (const subscription of this.#subscriptions.values()) {
      if (subscription.connection !== connection) continue;
      subscription.desktop.output.unsubscribe(subscription.listener);
      this.#subscriptions.delete(subscription.id);
    }
    for (const { desktop, owner } of this.#locks.get(connection) ?? []) {
      if (!desktop.destroyed && desktop.input.owner === owner) desktop.input.release(owner, connection);
    }
    this.#locks.delete(connection);
  }
}

/** The named desktop, or the only one. */
function pick(id: string | undefined): Desktop {
  if (id !== undefined) return getDesktop(id);
  const all = listDesktops();
  if (all.length === 1) return all[0]!;
  if (all.length === 0) throw new TuiwrightError("desktop-not-found", "E_NOT_FOUND: there is no desktop; create one with `tuiwright desktop create`", { details: { aotui: "E_NOT_FOUND", recoverable: true } });
  throw new TuiwrightError("usage", `there are ${all.length} desktops; name one with --desktop (${all.map((d) => d.id).join(", ")})`);
}

/** The [[operations]] of the manifest named `adapter` (the user's file if it overrides the built-in). */
async function manifestOperations(adapter: string | null): Promise<TerminalOperation[]> {
  if (adapter === null) return [];
  const { ManifestCatalog } = await import("../adapters/catalog.ts");
  const entry = new ManifestCatalog().entries().find((e) => e.manifest.name === adapter);
  if (!entry) return [];
  const source = BUILTIN_MANIFESTS.find((m) => m.file === entry.manifest.file)?.source ?? readUserManifest(entry.manifest.file);
  return operationsOf(parseToml(source));
}

/** A session of the registry as the desktop sees it. */
async function sessionForDesktop(registry: SessionRegistry, events: EventHub, leases: LeaseTable | undefined, name: string): Promise<TerminalSession> {
  const entry = registry.resolve(name);
  // Through the method's own schema, so the worker gets the defaults a client call would.
  const call = (op: "snapshot" | "type" | "press" | "wait" | "exec", params: Record<string, unknown>) => {
    // Input goes through the session's write lease like anyone's: a leased session is busy (75).
    if (op === "type" || op === "press" || op === "exec") leases?.check(entry.name, undefined);
    const { session: _s, ...full } = v.parse(METHODS[op].params, params) as Record<string, unknown>;
    return entry.worker.call(op as "snapshot", full as any);
  };
  const first = await call("snapshot", { format: "outline" });
  let cached = { adapter: first.outline?.adapter ?? null, operations: await manifestOperations(first.outline?.adapter ?? null) };
  return {
    name: entry.name,
    call,
    operations(adapter) {
      if (adapter !== cached.adapter) {
        // The program changed (a shell started vim): load the other manifest's operations.
        const next = { adapter, operations: [] as TerminalOperation[] };
        cached = next;
        void manifestOperations(adapter).then((ops) => { next.operations = ops; }, () => {});
      }
      return cached.operations;
    },
    onChange(listener) {
      return events.observe((event) => {
        if (event.session === entry.name && (event.type === "screen" || event.type === "exit")) listener();
      });
    },
    describe: () => ({ argv: entry.argv, exited: entry.crashed ? `crashed: ${entry.crashed}` : entry.exit ? (entry.exit.signal ? `signal ${entry.exit.signal}` : `exit code ${entry.exit.code}`) : null }),
  };
}

export function createDesktopHandlers(connections: DesktopConnections, changed: () => void, registry?: SessionRegistry, events?: EventHub, leases?: LeaseTable): DesktopHandlers {
  /** Every session of the namespace is an application the agent can open: session:NAME. */
  const offerSessions = (desktop: Desktop) => {
    if (!registry || !events) return;
    desktop.setProvider({
      offers: () => registry.all().map((entry) => ({ alias: `session:${entry.name}`, appId: terminalAppId(entry.name), name: `Terminal ${entry.name}` })),
      async provide(target) {
        const name = /^session:(.+)$/.exec(target)?.[1];
        if (name === undefined || !registry.has(name)) return null;
        return terminalApp(await sessionForDesktop(registry, events, leases, name));
      },
    });
  };
  return {
    async "desktop.create"(params) {
      const desktop = await createDesktop({ apps: params.apps, systemApps: params.systemApps, operationTimeoutMs: params.operationTimeoutMs });
      offerSessions(desktop);
      if (params.open) for (const app of desktop.list()) if (app.state === "installed") await desktop.open(app.alias);
      changed();
      return { desktop: desktop.id, apps: desktop.list() };
    },
    async "desktop.destroy"(params) {
      const desktop = pick(params.desktop);
      destroyDesktop(desktop.id);
      changed();
      return { desktop: desktop.id, destroyed: true };
    },
    async "desktop.list"() {
      return { desktops: listDesktops().map((d) => ({ desktop: d.id, createdAt: d.createdAt, owner: d.input.owner, apps: d.list() })) };
    },
    async "desktop.snapshot"(params) {
      const desktop = pick(params.desktop);
      await desktop.sync(); // terminal apps as their screens are now, not as last refreshed
      return { desktop: desktop.id, ...(params.peek ? { markup: desktop.peek(), snapshot_id: "" } : desktop.snapshot()) };
    },
    async "desktop.exec"(params, call) {
      const desktop = pick(params.desktop);
      const ack = await desktop.input.execute({ text: params.command, snapshot_id: params.snapshot_id, owner: params.owner, holder: call.connection });
      return { desktop: desktop.id, ...ack };
    },
    async "desktop.acquire"(params, call) {
      const desktop = pick(params.desktop);
      desktop.input.acquire(params.owner, call.connection);
      connections.held(call.connection, desktop, params.owner);
      return { desktop: desktop.id, owner: params.owner };
    },
    async "desktop.release"(params, call) {
      const desktop = pick(params.desktop);
      desktop.input.release(params.owner, call.connection);
      connections.released(desktop, params.owner);
      return { desktop: desktop.id, released: true };
    },
    async "desktop.say"(params) {
      const desktop = pick(params.desktop);
      await desktop.say(params.text);
      return { desktop: desktop.id };
    },
    async "desktop.install"(params) {
      const desktop = pick(params.desktop);
      const app = desktop.install(params.dir);
      if (params.open) await desktop.open(app);
      return { desktop: desktop.id, app };
    },
    async "desktop.openSession"(params) {
      const desktop = pick(params.desktop);
      if (!registry || !events) throw new TuiwrightError("internal", "sessions are not available here");
      const app = desktop.installExternal(terminalApp(await sessionForDesktop(registry, events, leases, params.session)));
      await desktop.open(app);
      return { desktop: desktop.id, app };
    },
    async "desktop.save"(params) {
      const desktop = pick(params.desktop);
      const state = await desktop.serialize();
      if (params.file === undefined) return { desktop: desktop.id, state };
      // A new file only (a saved state names code to run: never replace one).
      writeOutputFile(params.file, JSON.stringify(state, null, 2) + "\n", { replace: false });
      return { desktop: desktop.id, state, file: params.file };
    },
    async "desktop.restore"(params) {
      const state = params.state as unknown as DesktopState;
      if (params.dryRun) return { ...previewRestore(state), dryRun: true as const, apps: [] };
      const desktop = await restore(state);
      offerSessions(desktop);
      changed();
      // Every folder was checked as code (ours or root's, writable by nobody else) before it ran.
      return { desktop: desktop.id, apps: desktop.list(), folders: foldersOf(state) };
    },
    async "desktop.subscribe"(params, call) {
      const desktop = pick(params.desktop);
      return { desktop: desktop.id, subscription: connections.subscribe(call.connection, desktop) };
    },
  };
}
