// The runtime's exported functions (§9.2): independent functions over a table of desktops.
// Starting apps needs their workers, so createDesktop, restore and serialize are async here
// (the document's signatures are synchronous); getSnapshot is synchronous as specified.
import { randomBytes } from "node:crypto";
import { desktopError } from "./aotui-codes.ts";
import { Desktop, type DesktopConfig, type DesktopState } from "./desktop.ts";
import { loadAppFolder } from "./app-manifest.ts";
import { SYSTEM_APPS } from "./system-apps.ts";

const desktops = new Map<string, Desktop>();

const ALL_SYSTEM_APPS = SYSTEM_APPS.map((app) => app.manifest.id);

/** A fresh desktop: system apps installed and opened, then the given app folders installed. */
export async function createDesktop(config: DesktopConfig = {}): Promise<Desktop> {
  const id = `desktop_${randomBytes(4).toString("hex")}`;
  const desktop = new Desktop(id, Date.now(), config);
  desktops.set(id, desktop);
  try {
    const system = desktop.installSystemApps(config.systemApps ?? ALL_SYSTEM_APPS);
    for (const dir of config.apps ?? []) desktop.install(dir);
    desktop.log("Desktop initialized.");
    for (const app of system) await desktop.open(app.alias);
  } catch (error) {
    destroyDesktop(id);
    throw error;
  }
  return desktop;
}

export function destroyDesktop(id: string): void {
  const desktop = desktops.get(id);
  if (!desktop) throw desktopError("desktop-not-found", `no desktop ${JSON.stringify(id)}`);
  desktop.destroy();
  desktops.delete(id);
}

export function getDesktop(id: string): Desktop {
  const desktop = desktops.get(id);
  if (!desktop) throw desktopError("desktop-not-found", `no desktop ${JSON.stringify(id)}`);
  return desktop;
}

export function listDesktops(): Desktop[] {
  return [...desktops.values()];
}

/** The Markdown the agent reads. Also registers it: `desktop.snapshot()` gives its id. */
export function getSnapshot(desktop: Desktop): string {
  return desktop.snapshot().markup;
}

export function serialize(desktop: Desktop): Promise<DesktopState> {
  return desktop.serialize();
}

/** A saved state's parts beyond §9.3 (logs, counters) are optional: a state without them (one
 * written by hand, or by another AOTUI runtime) restores with an empty log and fresh counters.
 * Anything of the wrong shape is refused naming the field. */
function checkState(state: DesktopState): DesktopState {
  if (typeof state !== "object" || state === null || typeof state.id !== "string" || !Array.isArray(state.apps) || !Array.isArray(state.installed)) {
    throw desktopError("invalid-command", "not a saved desktop state (needs id, createdAt, apps, installed)");
  }
  const wrong = (field: string, want: string) => desktopError("invalid-command", `not a saved desktop state: ${field} must be ${want}`, { field });
  state.installed.forEach((app, i) => {
    if (typeof app !== "object" || app === null || typeof app.alias !== "string" || typeof app.appId !== "string" || (app.dir !== null && typeof app.dir !== "string")) {
      throw wrong(`installed[${i}]`, "{alias, appId, dir (a path, or null for a system app)}");
    }
  });
  state.apps.forEach((app, i) => {
    if (typeof app !== "object" || app === null || typeof app.alias !== "string") throw wrong(`apps[${i}]`, "an object with the app's alias");
  });
  const logs = state.logs ?? [];
  if (!Array.isArray(logs) || !logs.every((l) => typeof l?.number === "number" && typeof l?.text === "string")) throw wrong("logs", "a list of {number, text}");
  const counters = state.counters ?? { log: logs.at(-1)?.number ?? 0, view: 0, snapshot: 0, app: 0 };
  if (typeof counters !== "object" || counters === null || !["log", "view", "snapshot", "app"].every((k) => Number.isInteger(counters[k as keyof typeof counters]))) {
    throw wrong("counters", "{log, view, snapshot, app} whole numbers");
  }
  return { ...state, logs, counters };
}

/** The app folders whose code a saved state runs (what `desktop restore` says it will run). */
export function foldersOf(state: DesktopState): string[] {
  return [...new Set(state.installed.flatMap((app) => (app.dir === null ? [] : [app.dir])))];
}

/** What restoring `saved` would run, checked as the restore checks it, running nothing: the state
 * is well-formed, no desktop has its id, and every app folder it names is one we may run (ours or
 * root's, writable by nobody else: loadAppFolder throws naming the first that is not). */
export function previewRestore(saved: DesktopState): { desktop: string; folders: string[] } {
  const state = checkState(saved);
  if (desktops.has(state.id)) throw desktopError("invalid-command", `desktop ${state.id} exists already; destroy it first`);
  const folders = foldersOf(state);
  for (const folder of folders) loadAppFolder(folder);
  return { desktop: state.id, folders };
}

/** A desktop from a saved state: same id, apps, views, logs and app data. */
export async function restore(saved: DesktopState, config: Omit<DesktopConfig, "apps" | "systemApps"> = {}): Promise<Desktop> {
  const state = checkState(saved);
  if (desktops.has(state.id)) throw desktopError("invalid-command", `desktop ${state.id} exists already; destroy it first`);
  const desktop = new Desktop(state.id, state.createdAt, config);
  desktops.set(state.id, desktop);
  try {
    for (const app of state.installed) {
      if (app.dir === null) desktop.installSystemApps([app.appId], [app.alias]);
      else desktop.install(app.dir, app.alias);
    }
    desktop.setCounters(state);
    for (const app of state.apps) {
      await desktop.open(app.alias, { appData: app.appData, hasAppData: "appData" in app, views: app.views, operationLog: app.operationLog, collapsed: app.status === "minimized" });
    }
  } catch (error) {
    destroyDesktop(state.id);
    throw error;
  }
  return desktop;
}
