// One desktop (§9.1): its installed and open applications, their views, the snapshot
// registry, the single-writer input and the signal output. Isolated from every other desktop.
import type { Evidence } from "../outline/types.ts";
import { asDesktopError, desktopError } from "./aotui-codes.ts";
import { AppHost, type AppHostHooks } from "./app-host.ts";
import { loadAppFolder, readAppFile, type AppManifest } from "./app-manifest.ts";
import type { ViewUpdate } from "./app-messages.ts";
import { convertArgs } from "./convert-args.ts";
import { parseContextCommand, type ParsedCommand } from "./dsl.ts";
import { InputLock } from "./input-stream.ts";
import { pageCount, renderDesktopShown, type RenderedApp, type RenderedView } from "./render-markdown.ts";
import { SignalOutputStream } from "./signal-stream.ts";
import { SnapshotRegistry, type RegisteredView } from "./snapshot-registry.ts";
import { SYSTEM_APPS, USER_MESSAGE_OPERATION } from "./system-apps.ts";
import type { ViewModel } from "./view-model.ts";

export type DesktopConfig = {
  /** System apps to pre-install and open (default: all: system.chat, system.thoughts). */
  systemApps?: string[];
  /** Folders of HTML5 apps (each with aoapp.json) to install. */
  apps?: string[];
  /** How long an operation may take before E_TIMEOUT (default 10 000 ms). */
  operationTimeoutMs?: number;
};

/** A command: the structured form of §5.5, or the agent's text (`<context …>…</context>`). */
export type Command =
  | { app: string; view?: string; operation: string; args?: Record<string, unknown>; snapshot_id?: string; owner?: string; holder?: unknown }
  | { text: string; snapshot_id?: string; owner?: string; holder?: unknown };

export type CommandAck = {
  status: "ok"; command: string; app?: string; view?: string; operation?: string; args?: Record<string, unknown>; stable_keys?: string[]; result?: unknown;
  /** Terminal apps: what showed that the operation succeeded (manifest rules and the cells they matched). */
  evidence?: Evidence[];
  /** Terminal apps: the program's own words for the outcome (vim's `"x" 2L, 10B written`). */
  message?: string;
};

export type SavedView = { ordinal: number; id: string; mounted: boolean; hidden: boolean };

export type AppState = {
  appId: string;
  status: "running" | "minimized";
  mountedViews: string[];
  appData?: unknown;
  /** Beyond §9.3 (additive), so a restore gives the same Markdown: */
  alias: string;
  dir: string | null;
  views: SavedView[];
  operationLog: string[];
};

export type DesktopState = {
  id: string;
  createdAt: number;
  apps: AppState[];
  /** Beyond §9.3 (additive): */
  installed: { alias: string; appId: string; dir: string | null }[];
  logs: { number: number; text: string }[];
  counters: { log: number; view: number; snapshot: number; app: number };
};

/** What the desktop calls on a running app: an HTML5 app's worker, or another kind of app. */
export interface AppBackend {
  call(message: { kind: "operation"; ordinal: number; operation: string; args: Record<string, unknown>; stable_keys: string[] } | { kind: "serialize" }, timeoutMs: number): Promise<any>;
  terminate(): void;
  /** An operation that timed out and has not finished since (the app is not responding). */
  overdue?(): { operation: string; sinceMs: number } | null;
  /** Brings the app's views up to date with what it shows now (a terminal's screen). */
  sync?(): Promise<void>;
}

/** An application that is not an HTML5 app folder (a terminal session): it starts itself. */
export type ExternalApp = {
  manifest: AppManifest;
  start(hooks: AppHostHooks): Promise<{ host: AppBackend; views: ViewUpdate[] }>;
};

/** Applications a desktop can open without installing them first (terminal sessions). */
export type AppProvider = {
  offers(): { alias: string; appId: string; name: string }[];
  provide(target: string): Promise<ExternalApp | null>;
};

type Installed = { alias: string; manifest: AppManifest; dir: string | null; entryPath: string; source?: string; external?: ExternalApp };

type OpenView = { ordinal: number; id: string; model: ViewModel; mounted: boolean; hidden: boolean; page: number };

type OpenApp = {
  installed: Installed;
  host: AppBackend | null;
  state: "starting" | "running" | "collapsed" | "crashed";
  note?: string;
  views: Map<number, OpenView>;
  operationLog: string[];
  savedViews?: SavedView[];
};

const LOG_LIMIT = 20;
const OPERATION_LOG_LIMIT = 10;

export type RestoreSpec = { appData?: unknown; hasAppData: boolean; views: SavedView[]; operationLog: string[]; collapsed: boolean };

/** An app folder's entry, read when the app opens (through the trusted reader, checked again:
 * the worker runs exactly these bytes). */
function appEntrySource(installed: { dir: string | null; manifest: AppManifest }): string {
  const { dir } = loadAppFolder(installed.dir!);
  return readAppFile(dir, installed.manifest.entry);
}

export class Desktop {
  readonly id: string;
  readonly createdAt: number;
  readonly output: SignalOutputStream;
  readonly input: {
    /** `holder`: who took it (the daemon passes the connection); then only it can write or release. */
    acquire(owner: string, holder?: unknown): void;
    release(owner?: string, holder?: unknown): void;
    execute(command: Command | string): Promise<CommandAck>;
    readonly owner: string | null;
  };
  readonly #lock = new InputLock();
  readonly #registry = new SnapshotRegistry();
  readonly #installed: Installed[] = [];
  readonly #open = new Map<string, OpenApp>();
  readonly #logs: { number: number; text: string }[] = [];
  readonly #timeoutMs: number;
  #logCounter = 0;
  #viewCounter = 0;
  #appCounter = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #provider: AppProvider | null = null;
  #destroyed = false;

  constructor(id: string, createdAt: number, config: DesktopConfig = {}) {
    this.id = id;
    this.createdAt = createdAt;
    this.output = new SignalOutputStream(id);
    this.#timeoutMs = config.operationTimeoutMs ?? 10_000;
    const lock = this.#lock;
    this.input = {
      acquire: (owner, holder) => lock.acquire(owner, holder),
      release: (owner, holder) => lock.release(owner, holder),
      execute: (command) => this.execute(command),
      get owner() { return lock.owner; },
    };
  }

  // ── installation and lifecycle ─────────────────────────────────────────────────────────

  /** Installs the built-in system apps by id (unknown ids are refused). */
  installSystemApps(ids: string[], aliases?: string[]): Installed[] {
    return ids.map((id, i) => {
      const builtin = SYSTEM_APPS.find((app) => app.manifest.id === id);
      if (!builtin) throw desktopError("desktop-not-found", `no system app ${JSON.stringify(id)} (known: ${SYSTEM_APPS.map((a) => a.manifest.id).join(", ")})`);
      return this.#install({ alias: aliases?.[i] ?? "", manifest: builtin.manifest, dir: null, entryPath: builtin.manifest.entry, source: builtin.source });
    });
  }

  /** Installs the HTML5 app in DIR (validates its aoapp.json); returns its app id (app_N). */
  install(dir: string, alias?: string): string {
    const existing = this.#installed.find((app) => app.dir === dir);
    if (existing) return existing.alias;
    const { manifest, entryPath } = loadAppFolder(dir);
    if (this.#installed.some((app) => app.manifest.id === manifest.id)) throw desktopError("invalid-command", `an app with id ${manifest.id} is already installed on this desktop`);
    return this.#install({ alias: alias ?? "", manifest: { ...manifest, system: manifest.system }, dir, entryPath }).alias;
  }

  /** Installs an application that starts itself (a terminal session); returns its app id. */
  installExternal(app: ExternalApp): string {
    const existing = this.#installed.find((a) => a.manifest.id === app.manifest.id);
    if (existing) return existing.alias;
    return this.#install({ alias: "", manifest: app.manifest, dir: null, entryPath: "", external: app }).alias;
  }

  #install(app: Installed): Installed {
    if (!app.alias) app.alias = `app_${++this.#appCounter}`;
    else this.#appCounter = Math.max(this.#appCounter, Number(app.alias.replace(/\D/g, "")) || 0);
    this.#installed.push(app);
    return app;
  }

  log(text: string): void {
    this.#logs.push({ number: ++this.#logCounter, text });
    if (this.#logs.length > LOG_LIMIT) this.#logs.shift();
  }

  #find(target: string): Installed {
    const app = this.#installed.find((a) => a.alias === target || a.manifest.id === target);
    if (!app) throw desktopError("desktop-not-found", `no application ${JSON.stringify(target)} is installed (see view_1)`);
    return app;
  }

  /** An installed app, or one the provider (the daemon's sessions) can make for this target. */
  async #findOrProvide(target: string): Promise<Installed> {
    const known = this.#installed.find((a) => a.alias === target || a.manifest.id === target);
    if (known || !this.#provider) return known ?? this.#find(target);
    const external = await this.#provider.provide(target);
    if (!external) return this.#find(target);
    const alias = this.installExternal(external);
    return this.#find(alias);
  }

  /** Offers applications the desktop has not installed (listed in view_1 under the target the
   * provider understands, e.g. session:NAME) and makes them on `open`. */
  setProvider(provider: AppProvider): void {
    this.#provider = provider;
  }

  #openApp(target: string): OpenApp {
    const installed = this.#find(target);
    const app = this.#open.get(installed.alias);
    if (!app) throw desktopError("desktop-not-found", `application ${installed.alias} is not open (open it with: open --application ${installed.alias})`);
    return app;
  }

  /** Opens an installed app: starts its worker and waits for its first views. */
  async open(target: string, restore?: RestoreSpec): Promise<string> {
    this.#alive();
    const installed = await this.#findOrProvide(target);
    const already = this.#open.get(installed.alias);
    if (already) {
      if (already.state === "collapsed") already.state = "running";
      return installed.alias;
    }
    const app: OpenApp = { installed, host: null, state: "starting", views: new Map(), operationLog: restore?.operationLog ?? [], savedViews: restore?.views };
    this.#open.set(installed.alias, app);
    try {
      const hooks: AppHostHooks = {
        views: (updates) => {
          if (this.#open.get(installed.alias) !== app) return;
          this.#applyViews(app, updates);
          this.output.emit("dom_mutation");
        },
        late: (operation, error) => {
          if (this.#open.get(installed.alias) !== app) return;
          this.#opLog(app, `(late) ${operation} finished after its timeout → ${error ? error.message : "ok"}`);
          this.output.emit("dom_mutation");
        },
        crashed: (reason) => {
          app.state = "crashed";
          app.note = `The application crashed: ${reason}. Close it and open it again.`;
          this.log(`${installed.alias} (${installed.manifest.name}) crashed: ${reason}`);
          this.output.emit("dom_mutation");
        },
      };
      const { host, views } = installed.external
        ? await installed.external.start(hooks)
        : await AppHost.start(
          { kind: "start", appId: installed.manifest.id, dir: installed.dir ?? "", entryPath: installed.entryPath, permissions: installed.manifest.permissions, source: installed.source ?? appEntrySource(installed), appData: restore?.appData, hasAppData: restore?.hasAppData ?? false },
          hooks,
        );
      if (this.#destroyed || this.#open.get(installed.alias) !== app) {
        host.terminate();
        throw desktopError("desktop-not-found", "the desktop was destroyed while the app started");
      }
      app.host = host;
      this.#applyViews(app, views);
      app.state = restore?.collapsed ? "collapsed" : "running";
    } catch (error) {
      // Only our own entry: the app may have been closed and opened again meanwhile.
      if (this.#open.get(installed.alias) === app) this.#open.delete(installed.alias);
      this.log(`${installed.alias} (${installed.manifest.name}) failed to open: ${(error as Error).message}`);
      throw error;
    }
    if (!restore) this.log(`Opened ${installed.alias} (${installed.manifest.name}).`);
    this.output.emit("app_opened");
    return installed.alias;
  }

  #applyViews(app: OpenApp, updates: ViewUpdate[]): void {
    for (const update of updates) {
      const ordinal = update.model.ordinal;
      const existing = app.views.get(ordinal);
      if (existing) {
        existing.model = update.model;
        if (update.mounted !== undefined) existing.mounted = update.mounted;
        continue;
      }
      const saved = app.savedViews?.find((v) => v.ordinal === ordinal);
      const id = saved?.id ?? `view_${String(++this.#viewCounter).padStart(3, "0")}`;
      if (saved) this.#viewCounter = Math.max(this.#viewCounter, Number(saved.id.replace(/\D/g, "")) || 0);
      app.views.set(ordinal, { ordinal, id, model: update.model, mounted: saved?.mounted ?? update.mounted ?? true, hidden: saved?.hidden ?? false, page: 1 });
    }
  }

  close(target: string): void {
    const app = this.#openApp(target);
    if (app.installed.manifest.system) throw desktopError("desktop-permission", `${app.installed.alias} (${app.installed.manifest.name}) is a system app and cannot be closed`, {}, "system apps stay open; collapse --application hides one");
    app.host?.terminate();
    this.#open.delete(app.installed.alias);
    this.log(`Closed ${app.installed.alias} (${app.installed.manifest.name}).`);
    this.output.emit("app_closed");
  }

  // ── reading ────────────────────────────────────────────────────────────────────────────

  /** The Markdown of §4.1 and the id under which the registry keeps what it showed. */
  snapshot(): { markup: string; snapshot_id: string } {
    const { markup, visible } = this.#render();
    return { markup, snapshot_id: this.#registry.register(visible).id };
  }

  /** Waits until every app's views show what it shows now (terminal apps read their screens). */
  async sync(): Promise<void> {
    await Promise.all([...this.#open.values()].map((app) => (app.state === "running" ? app.host?.sync?.().catch(() => undefined) : undefined)));
  }

  /** The Markdown without registering a snapshot (observers: the agent's ids stay valid). */
  peek(): string {
    return this.#render().markup;
  }

  #render(): { markup: string; visible: RegisteredView[] } {
    this.#alive();
    const apps: RenderedApp[] = [];
    const owners = new Map<RenderedView, string>();
    for (const app of this.#open.values()) {
      const views = [...app.views.values()].sort((a, b) => a.ordinal - b.ordinal);
      const overdue = app.state === "running" ? app.host?.overdue?.() ?? null : null;
      const note = app.state === "collapsed" ? `Collapsed: show it with show --application ${app.installed.alias}`
        : overdue ? `Not responding: operation ${overdue.operation} has not finished after ${Math.round(overdue.sinceMs / 1000)} s; its views may be out of date. It may still finish; close --application ${app.installed.alias} ends it.`
        : app.note;
      apps.push({ alias: app.installed.alias, name: app.installed.manifest.name, state: app.state, ...(overdue ? { condition: "not-responding" } : {}), note, operationLog: app.operationLog, views });
      if (app.state !== "running") continue;
      for (const view of views) owners.set(view, app.installed.alias);
    }
    const installed = this.#installed.map((a) => ({ alias: a.alias, name: a.manifest.name }));
    for (const offer of this.#provider?.offers() ?? []) if (!this.#installed.some((a) => a.manifest.id === offer.appId)) installed.push({ alias: offer.alias, name: offer.name });
    const { markup, shown } = renderDesktopShown({ installed, logs: this.#logs, apps });
    // Only what the agent was shown can be referenced by what it read.
    const visible: RegisteredView[] = [];
    for (const [view, alias] of owners) if (shown.has(view)) visible.push({ appAlias: alias, viewId: view.id, model: view.model });
    return { markup, visible };
  }

  list(): { alias: string; appId: string; name: string; system: boolean; state: string }[] {
    return this.#installed.map((a) => ({ alias: a.alias, appId: a.manifest.id, name: a.manifest.name, system: a.manifest.system, state: this.#open.get(a.alias)?.state ?? "installed" }));
  }

  // ── commands ───────────────────────────────────────────────────────────────────────────

  /** Runs one command (one at a time per desktop); the ack comes after the handler ran and
   * the app's views were updated. */
  execute(command: Command | string): Promise<CommandAck> {
    const normalised = typeof command === "string" ? { text: command } : command;
    try {
      this.#alive();
      this.#lock.check(normalised.owner, normalised.holder);
    } catch (error) {
      return Promise.reject(error);
    }
    const run = this.#queue.then(() => this.#execute(normalised));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #execute(command: Command): Promise<CommandAck> {
    const parsed: ParsedCommand = "text" in command
      ? parseContextCommand(command.text)
      : { kind: "execute", app: command.app, view: command.view, operation: command.operation, args: Object.entries(command.args ?? {}).map(([name, value]) => ({ name, short: false, value: value as any })) };
    const text = "text" in command ? command.text.trim() : `execute ${command.operation} on ${command.app}`;
    if (parsed.kind === "system") return this.#system(parsed.verb, parsed.target, text, parsed.page);
    if (!parsed.app) throw desktopError("invalid-command", `execute needs the application: <context app_id="app_N" view_id="view_NNN">execute ${parsed.operation} …</context>`);
    const app = this.#openApp(parsed.app);
    const alias = app.installed.alias;
    if (app.state === "collapsed") throw desktopError("desktop-not-found", `${alias} is collapsed; show --application ${alias} first`);
    if (app.state !== "running" || !app.host) throw desktopError("app-failed", `${alias} is ${app.state}${app.note ? `: ${app.note}` : ""}`);
    const overdue = app.host.overdue?.() ?? null;
    if (overdue) {
      throw desktopError("busy", `${alias} is not responding: operation ${overdue.operation} has not finished after ${Math.round(overdue.sinceMs / 1000)} s`, { operation: overdue.operation }, `wait and read the desktop again, or close --application ${alias} (and open it) to end it`);
    }
    const view = this.#viewFor(app, parsed.view, parsed.operation);
    const spec = view.model.operations.find((op) => op.id === parsed.operation)!;
    const dslLine = "text" in command ? command.text.replace(/^\s*<context[^>]*>|<\/context>\s*$/g, "").trim() : text;
    try {
      const snapshotId = command.snapshot_id;
      let snapshot: ReturnType<SnapshotRegistry["get"]> | undefined;
      const { args, stableKeys } = convertArgs(parsed.operation, spec.args, parsed.args, (listId, index) => {
        snapshot ??= this.#registry.get(snapshotId);
        return SnapshotRegistry.resolveItem(snapshot, alias, view.id, listId, index);
      }, (type) => [...app.views.values()].flatMap((v) => v.model.blocks.flatMap((b) => (b.kind === "list" && b.type === type ? [b.id] : []))));
      const reply = await app.host.call({ kind: "operation", ordinal: view.ordinal, operation: parsed.operation, args, stable_keys: stableKeys }, this.#timeoutMs);
      this.#opLog(app, `${dslLine} → ok`);
      return {
        status: "ok", command: dslLine, app: alias, view: view.id, operation: parsed.operation, args, stable_keys: stableKeys,
        ...(reply?.result !== undefined ? { result: reply.result } : {}),
        ...(reply?.evidence !== undefined ? { evidence: reply.evidence } : {}),
        ...(reply?.message !== undefined ? { message: reply.message } : {}),
      };
    } catch (error) {
      const e = asDesktopError(error);
      this.#opLog(app, `${dslLine} → ${e.message}`);
      this.output.emit("dom_mutation");
      throw e;
    }
  }

  #opLog(app: OpenApp, line: string): void {
    app.operationLog.push(line.replace(/\s+/g, " "));
    if (app.operationLog.length > OPERATION_LOG_LIMIT) app.operationLog.shift();
  }

  #viewFor(app: OpenApp, viewId: string | undefined, operation: string): OpenView {
    const views = [...app.views.values()];
    if (viewId !== undefined) {
      const view = views.find((v) => v.id === viewId);
      if (!view) throw desktopError("desktop-not-found", `${app.installed.alias} has no view ${viewId} (its views: ${views.map((v) => v.id).join(", ") || "none"})`);
      if (!view.mounted) throw desktopError("desktop-not-found", `view ${viewId} is not mounted (mount --view ${viewId})`);
      if (view.hidden) throw desktopError("desktop-not-found", `view ${viewId} is hidden (show --view ${viewId})`);
      if (!view.model.operations.some((op) => op.id === operation)) throw desktopError("desktop-not-found", `view ${viewId} has no operation ${JSON.stringify(operation)} (it has: ${view.model.operations.map((op) => op.id).join(", ") || "none"})`);
      return view;
    }
    const view = views.find((v) => v.mounted && !v.hidden && v.model.operations.some((op) => op.id === operation));
    if (!view) throw desktopError("desktop-not-found", `no mounted view of ${app.installed.alias} has an operation ${JSON.stringify(operation)}`);
    return view;
  }

  async #system(verb: string, target: string, text: string, page?: number): Promise<CommandAck> {
    const ack: CommandAck = { status: "ok", command: text.replace(/^\s*<context[^>]*>|<\/context>\s*$/g, "").trim() };
    switch (verb) {
      case "open":
        return { ...ack, app: await this.open(target) };
      case "close":
        this.close(target);
        return { ...ack, app: this.#find(target).alias };
      case "collapse":
      case "show-application": {
        const app = this.#openApp(target);
        if (app.state === "running" || app.state === "collapsed") app.state = verb === "collapse" ? "collapsed" : "running";
        this.log(`${verb === "collapse" ? "Collapsed" : "Showed"} ${app.installed.alias}.`);
        this.output.emit("dom_mutation");
        return { ...ack, app: app.installed.alias };
      }
      case "page": {
        const { app, view } = this.#findView(target);
        const pages = pageCount(view.model);
        if (page === undefined || page < 1 || page > pages) throw desktopError("invalid-command", `view ${view.id} has ${pages} page${pages === 1 ? "" : "s"}; page --view ${view.id} --page N takes 1..${pages}`);
        view.page = page;
        this.output.emit("dom_mutation");
        return { ...ack, app: app.installed.alias, view: view.id };
      }
      default: {
        const { app, view } = this.#findView(target);
        if (verb === "mount") view.mounted = true;
        else if (verb === "dismount") view.mounted = false;
        else view.hidden = verb === "hide";
        this.log(`${verb === "show-view" ? "show" : verb} --view ${view.id} (${app.installed.alias}).`);
        this.output.emit("dom_mutation");
        return { ...ack, app: app.installed.alias, view: view.id };
      }
    }
  }

  #findView(viewId: string): { app: OpenApp; view: OpenView } {
    for (const app of this.#open.values()) for (const view of app.views.values()) if (view.id === viewId) return { app, view };
    if (/^view_[012]$/.test(viewId)) throw desktopError("invalid-command", `${viewId} is a desktop view and is always shown`);
    throw desktopError("desktop-not-found", `no view ${JSON.stringify(viewId)} in any open application`);
  }

  /** The product layer hands the chat app a message from the user (not an agent command). */
  async say(text: string): Promise<void> {
    this.#alive();
    const app = [...this.#open.values()].find((a) => a.installed.manifest.id === "system.chat");
    if (!app?.host) throw desktopError("desktop-not-found", "this desktop has no ChatWithUser app (system.chat)");
    const view = app.views.get(0)!;
    await app.host.call({ kind: "operation", ordinal: view.ordinal, operation: USER_MESSAGE_OPERATION, args: { content: text }, stable_keys: [] }, this.#timeoutMs);
  }

  // ── serialize / destroy ────────────────────────────────────────────────────────────────

  async serialize(): Promise<DesktopState> {
    this.#alive();
    await this.#queue;
    const apps: AppState[] = [];
    for (const app of this.#open.values()) {
      if (app.state === "starting" || app.state === "crashed" || app.installed.external) continue;
      const saved = app.host ? await app.host.call({ kind: "serialize" }, this.#timeoutMs) : { has: false };
      const views = [...app.views.values()].map((v) => ({ ordinal: v.ordinal, id: v.id, mounted: v.mounted, hidden: v.hidden }));
      apps.push({
        appId: app.installed.manifest.id,
        status: app.state === "collapsed" ? "minimized" : "running",
        mountedViews: views.filter((v) => v.mounted).map((v) => v.id),
        ...(saved.has ? { appData: saved.data ?? null } : {}),
        alias: app.installed.alias,
        dir: app.installed.dir,
        views,
        operationLog: [...app.operationLog],
      });
    }
    return {
      id: this.id,
      createdAt: this.createdAt,
      apps,
      installed: this.#installed.filter((a) => !a.external).map((a) => ({ alias: a.alias, appId: a.manifest.id, dir: a.dir })),
      logs: this.#logs.map((l) => ({ ...l })),
      counters: { log: this.#logCounter, view: this.#viewCounter, snapshot: this.#registry.toJSON().counter, app: this.#appCounter },
    };
  }

  /** @internal restore() sets the counters the saved desktop had reached. */
  setCounters(state: DesktopState): void {
    this.#logs.splice(0, this.#logs.length, ...state.logs.map((l) => ({ ...l })));
    this.#logCounter = state.counters.log;
    this.#viewCounter = Math.max(this.#viewCounter, state.counters.view);
    this.#registry.setCounter(state.counters.snapshot);
    this.#appCounter = Math.max(this.#appCounter, state.counters.app);
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    for (const app of this.#open.values()) app.host?.terminate();
    this.#open.clear();
    this.output.clear();
  }

  get destroyed(): boolean {
    return this.#destroyed;
  }

  #alive(): void {
    if (this.#destroyed) throw desktopError("desktop-not-found", `desktop ${this.id} has been destroyed`);
  }
}
