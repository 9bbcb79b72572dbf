// App worker entry: hosts one HTML5 application of an AOTUI desktop in a headless DOM
// (linkedom: measured faster to start than happy-dom, see bench/RESULTS.md), one document per
// view, runs its script, watches its views with MutationObserver and dispatches operations.
import { parseHTML } from "linkedom";
import { desktopError } from "../lib/desktop/aotui-codes.ts";
import { readAppScript } from "../lib/desktop/app-manifest.ts";
import { guardedNetwork, makeAotuiApi, type AppHooks, type ViewHandle } from "../lib/desktop/app-api.ts";
import type { FromApp, StartMessage, ToApp, ViewUpdate } from "../lib/desktop/app-messages.ts";
import { extractView, newListCache, noteMutation, type ListCache } from "../lib/desktop/extract-view.ts";
import { asTuiwrightError, shortMessage } from "../lib/protocol/errors.ts";

declare const self: Worker;

const views: ViewHandle[] = [];
const listCaches = new Map<number, ListCache>();
const dirty = new Set<number>();
const mountChanges = new Map<number, boolean>();
const hooks: AppHooks = {};
let started = false;
let flushScheduled = false;

function send(message: FromApp): void {
  self.postMessage(message);
}

function wire(error: unknown) {
  return asTuiwrightError(error).toJsonRpc();
}

function newView(name: string, html: string | undefined, mounted: boolean): ViewHandle {
  const window = parseHTML(html ?? `<!doctype html><html><head></head><body view="${name.replace(/"/g, "&quot;")}"></body></html>`) as any;
  const document = window.document;
  if (html !== undefined && !document.querySelector("[view]") && document.body) document.body.setAttribute("view", name);
  const view: ViewHandle = { ordinal: views.length, document, window, mounted };
  views.push(view);
  const cache = newListCache();
  listCaches.set(view.ordinal, cache);
  new window.MutationObserver((records: any[]) => {
    for (const record of records) noteMutation(cache, record);
    markDirty(view.ordinal);
  }).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  markDirty(view.ordinal);
  return view;
}

function markDirty(ordinal: number): void {
  dirty.add(ordinal);
  if (started && !flushScheduled) {
    flushScheduled = true;
    queueMicrotask(flush);
  }
}

function updates(all: boolean): ViewUpdate[] {
  const out: ViewUpdate[] = [];
  for (const view of views) {
    if (!all && !dirty.has(view.ordinal) && !mountChanges.has(view.ordinal)) continue;
    out.push({ model: extractView(view.document, view.ordinal, listCaches.get(view.ordinal)), mounted: all || mountChanges.has(view.ordinal) ? view.mounted : undefined });
  }
  dirty.clear();
  mountChanges.clear();
  return out;
}

function flush(): void {
  flushScheduled = false;
  const changed = updates(false);
  if (changed.length > 0) send({ kind: "views", views: changed });
}

/** Lets MutationObserver callbacks (microtasks) and already-resolved async work settle. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

async function runScript(source: string, label: string): Promise<void> {
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  const g = globalThis as any;
  const run = new AsyncFunction("window", "document", "aotui", `${source}\n//# sourceURL=${label}`);
  await run(g.window, g.document, g.aotui);
}

async function start(message: StartMessage): Promise<void> {
  const isHtml = /\.html?$/.test(message.entryPath);
  // The desktop read the entry through the trusted reader (lib/desktop/app-manifest.ts).
  const source = message.source;
  if (source === undefined) throw desktopError("app-failed", `no source for ${message.appId}`);
  const main = newView("Main", isHtml ? source : undefined, true);
  const api = makeAotuiApi({
    permissions: message.permissions,
    dir: message.dir,
    createView: (name, html, mounted) => newView(name, html, mounted),
    setMounted(document, mounted) {
      const view = views.find((v) => v.document === document);
      if (!view) throw new Error("aotui.mount/dismount: not a view document of this app");
      if (view.mounted === mounted) return;
      view.mounted = mounted;
      mountChanges.set(view.ordinal, mounted);
      markDirty(view.ordinal);
    },
    hooks,
  });
  const network = guardedNetwork(message.permissions);
  const g = globalThis as any;
  Object.assign(g, {
    window: main.window, document: main.document, aotui: api,
    CustomEvent: main.window.CustomEvent, Event: main.window.Event, MutationObserver: main.window.MutationObserver,
    HTMLElement: main.window.HTMLElement, Node: main.window.Node,
    fetch: network.fetch, XMLHttpRequest: network.XMLHttpRequest, WebSocket: network.WebSocket,
  });
  Object.assign(main.window, { aotui: api, fetch: network.fetch, XMLHttpRequest: network.XMLHttpRequest, WebSocket: network.WebSocket });
  if (isHtml) {
    for (const script of [...main.document.querySelectorAll("script")]) {
      const src = script.getAttribute("src");
      const code = src ? readAppScript(message.dir, message.entryPath, src) : script.textContent;
      await runScript(code, src ?? `${message.appId}/inline`);
    }
  } else {
    await runScript(source, message.entryPath);
  }
  if (message.hasAppData && hooks.restore) await hooks.restore(message.appData);
  await settle();
  started = true;
  send({ kind: "ready", views: updates(true) });
}

async function operation(message: Extract<ToApp, { kind: "operation" }>): Promise<void> {
  const view = views[message.ordinal];
  if (!view) throw desktopError("desktop-not-found", `the app has no view #${message.ordinal}`);
  const waits: Promise<unknown>[] = [];
  const detail = {
    operation: message.operation,
    args: message.args,
    stable_keys: message.stable_keys,
    /** An async handler hands its promise here; the command's ack waits for it. */
    waitUntil(promise: unknown) { waits.push(Promise.resolve(promise)); },
  };
  const container = view.document.querySelector("[view]") ?? view.document.body;
  try {
    container.dispatchEvent(new view.window.CustomEvent("aotui:operation", { detail, bubbles: true }));
    await Promise.all(waits);
  } catch (error) {
    const known = asTuiwrightError(error);
    if (known.errorName === "desktop-permission") throw known;
    // The app said no (its handler threw): its own words, and the app carries on.
    const said = shortMessage(error instanceof Error ? error.message : String(error), 500);
    throw desktopError("app-refused", `the app refused ${message.operation}: ${said}`, { app_message: said });
  }
}

self.addEventListener("unhandledrejection", (event: any) => {
  event.preventDefault?.();
  console.error("aotui app: unhandled rejection:", event.reason);
});

self.addEventListener("message", async (event: MessageEvent) => {
  const message = event.data as ToApp;
  switch (message.kind) {
    case "start":
      try {
        await start(message);
      } catch (error) {
        const e = asTuiwrightError(error);
        send({ kind: "start-failed", error: e.errorName === "internal" ? desktopError("app-failed", `the app failed to start: ${e.message}`).toJsonRpc() : e.toJsonRpc() });
      }
      return;
    case "operation":
      try {
        await operation(message);
        await settle();
        flush();
        send({ kind: "reply", id: message.id, value: { ok: true } });
      } catch (error) {
        await settle();
        flush();
        send({ kind: "reply", id: message.id, error: wire(error) });
      }
      return;
    case "serialize":
      try {
        const data = hooks.serialize ? await hooks.serialize() : undefined;
        send({ kind: "reply", id: message.id, value: { has: hooks.serialize !== undefined, data: data === undefined ? undefined : JSON.parse(JSON.stringify(data)) } });
      } catch (error) {
        send({ kind: "reply", id: message.id, error: desktopError("app-failed", `the app's serialize hook failed: ${(error as Error).message}`).toJsonRpc() });
      }
      return;
  }
});
