// What the runtime gives an app inside its worker (window.aotui): views, mount/dismount,
// serialize/restore hooks, and the mediated resources — a file API and fetch/XHR/WebSocket —
// each checked against the app's permissions (E_PERMISSION when not granted).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { desktopError } from "./aotui-codes.ts";
import { allowsFile, allowsUrl } from "./permissions.ts";

export type AppHooks = { serialize?: () => unknown; restore?: (data: unknown) => void | Promise<void> };

export type ViewHandle = { ordinal: number; document: any; window: any; mounted: boolean };

export type ApiHost = {
  permissions: readonly string[];
  createView(name: string, html: string | undefined, mounted: boolean): ViewHandle;
  setMounted(document: any, mounted: boolean): void;
  hooks: AppHooks;
};

function denied(what: string): Error {
  return desktopError("desktop-permission", `${what} is not granted by this app's permissions`);
}

export function makeAotuiApi(host: ApiHost) {
  const { permissions } = host;
  const checkFile = (action: "read" | "write", path: string) => {
    if (!allowsFile(permissions, action, path)) throw denied(`fs:${action} of ${path}`);
  };
  return {
    /** A new view (one document); mounted unless told otherwise. */
    createView(name: string, options: { html?: string; mounted?: boolean } = {}) {
      return host.createView(name, options.html, options.mounted ?? true).document;
    },
    mount(document: any) { host.setMounted(document, true); },
    dismount(document: any) { host.setMounted(document, false); },
    onSerialize(fn: () => unknown) { host.hooks.serialize = fn; },
    onRestore(fn: (data: unknown) => void | Promise<void>) { host.hooks.restore = fn; },
    permissions: [...permissions],
    fs: {
      readText(path: string): string { checkFile("read", path); return readFileSync(path, "utf8"); },
      list(path: string): { name: string; dir: boolean; size: number }[] {
        checkFile("read", path);
        return readdirSync(path, { withFileTypes: true }).map((entry) => {
          const full = `${path.replace(/\/$/, "")}/${entry.name}`;
          let size = 0;
          try { size = entry.isDirectory() ? 0 : statSync(full).size; } catch { /* vanished */ }
          return { name: entry.name, dir: entry.isDirectory(), size };
        }).sort((a, b) => a.name.localeCompare(b.name));
      },
      writeText(path: string, text: string): void { checkFile("write", path); writeFileSync(path, text); },
    },
  };
}

/** fetch, XMLHttpRequest and WebSocket that refuse URLs the app's permissions do not cover. */
export function guardedNetwork(permissions: readonly string[]) {
  const realFetch = globalThis.fetch.bind(globalThis);
  const urlOf = (input: any) => (typeof input === "string" ? input : input instanceof URL ? input.href : input?.url ?? String(input));
  const fetch = async (input: any, init?: any) => {
    const url = urlOf(input);
    if (!allowsUrl(permissions, url)) throw denied(`net access to ${url}`);
    return realFetch(input, init);
  };
  const RealWebSocket = globalThis.WebSocket;
  class WebSocket extends RealWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      if (!allowsUrl(permissions, String(url))) throw denied(`net access to ${String(url)}`);
      super(url, protocols);
    }
  }
  /** A small XMLHttpRequest over the guarded fetch (workers have none of their own). */
  class XMLHttpRequest {
    readyState = 0;
    status = 0;
    responseText = "";
    onload: ((event: unknown) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;
    #method = "GET";
    #url = "";
    open(method: string, url: string) { this.#method = method; this.#url = url; this.readyState = 1; }
    send(body?: unknown) {
      if (!allowsUrl(permissions, this.#url)) throw denied(`net access to ${this.#url}`);
      realFetch(this.#url, { method: this.#method, body: body as any }).then(async (response) => {
        this.status = response.status;
        this.responseText = await response.text();
        this.readyState = 4;
        this.onload?.({ target: this });
      }, (error) => this.onerror?.(error));
    }
  }
  return { fetch, WebSocket, XMLHttpRequest };
}
