// The runtime's exported functions (§9.2): independent functions over a table of desktops.
// Starting apps needs their workers, so createDesktop, restore and serialize are async here
// (the document's signatures are synchronous); getSnapshot is synchronous as specified.
import { randomBytes } from "node:crypto";
import { desktopError } from "./aotui-codes.ts";
import { Desktop, type DesktopConfig, type DesktopState } from "./desktop.ts";
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

/** A desktop from a saved state: same id, apps, views, logs and app data. */
export async function restore(state: DesktopState, config: Omit<DesktopConfig, "apps" | "systemApps"> = {}): Promise<Desktop> {
  if (typeof state !== "object" || state === null || typeof state.id !== "string" || !Array.isArray(state.apps) || !Array.isArray(state.installed)) {
    throw desktopError("invalid-command", "not a saved desktop state (needs id, createdAt, apps, installed)");
  }
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
