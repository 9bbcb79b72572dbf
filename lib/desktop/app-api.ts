// What the runtime gives an app inside its worker (window.aotui): views, mount/dismount,
// serialize/restore hooks, and the mediated resources — a file API and fetch/XHR/WebSocket —
// each checked against the app's permissions (E_PERMISSION when not granted).
import { desktopError } from "./aotui-codes.ts";
import { ConfinedFiles } from "./confined-files.ts";
import { allowsUrl } from "./permissions.ts";

export type AppHooks = { serialize?: () => unknown; restore?: (data: unknown) => void | Promise<void> };

export type ViewHandle = { ordinal: number; document: any; window: any; mounted: boolean };

export type ApiHost = {
  permissions: readonly string[];
  /** The app's folder: relative fs scopes are inside it. */
  dir: string;
  createView(name: string, html: string | undefined, mounted: boolean): ViewHandle;
  setMounted(document: any, mounted: boolean): void;
  hooks: AppHooks;
};

function denied(what: string): Error {
  return desktopError("desktop-permission", `${what} is not granted by this app's permissions`);
}

export function makeAotuiApi(host: ApiHost) {
  const { permissions } = host;
  const files = new ConfinedFiles(permissions, host.dir || process.cwd());
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
      readText(path: string): string { return files.readText(String(path)); },
      list(path: string): { name: string; dir: boolean; size: number }[] { return files.list(String(path)); },
      writeText(path: string, text: string): void { files.writeText(String(path), String(text)); },
      /** The app's own folder (relative fs:read/fs:write scopes are inside it). */
      appDir: host.dir,
    },
  };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

/** fetch, XMLHttpRequest and WebSocket that refuse URLs the app's permissions do not cover —
 * including every redirect (followed here, each hop checked) — and Bun's own options that would
 * route around the check (proxy, unix). */
export function guardedNetwork(permissions: readonly string[]) {
  const realFetch = globalThis.fetch.bind(globalThis);
  const fetch = async (input: any, init: any = {}) => {
    const request = input instanceof Request ? input : null;
    let url = request ? request.url : input instanceof URL ? input.href : String(input);
    for (const option of ["proxy", "unix"]) {
      if (init && init[option] !== undefined) throw denied(`fetch's ${option} option (it routes around the host check)`);
    }
    if (!allowsUrl(permissions, url)) throw denied(`net access to ${url}`);
    const follow = init.redirect ?? request?.redirect ?? "follow";
    let method: string = init.method ?? request?.method ?? "GET";
    let body = init.body ?? (request && request.body ? await request.arrayBuffer() : undefined);
    const headers = new Headers(init.headers ?? request?.headers);
    for (let hop = 0; ; hop++) {
      const response = await realFetch(url, { ...init, method, headers, body, redirect: "manual", proxy: undefined, unix: undefined });
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null || follow === "manual") return response;
      if (follow === "error") throw new TypeError(`fetch: ${url} redirected (${response.status}) and redirect is "error"`);
      if (hop >= MAX_REDIRECTS) throw new TypeError(`fetch: more than ${MAX_REDIRECTS} redirects from ${url}`);
      const next = new URL(location, url).href;
      if (!allowsUrl(permissions, next)) throw denied(`net access to ${next} (a redirect from ${url})`);
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        headers.delete("content-type");
      }
      url = next;
    }
  };
  const RealWebSocket = globalThis.WebSocket;
  class WebSocket extends RealWebSocket {
    constructor(url: string | URL, protocols?: string | string[] | Record<string, unknown>) {
      if (!allowsUrl(permissions, String(url))) throw denied(`net access to ${String(url)}`);
      if (protocols && typeof protocols === "object" && !Array.isArray(protocols) && ("proxy" in protocols)) throw denied("WebSocket's proxy option (it routes around the host check)");
      super(url, protocols as any);
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
      fetch(this.#url, { method: this.#method, body: body as any }).then(async (response) => {
        this.status = response.status;
        this.responseText = await response.text();
        this.readyState = 4;
        this.onload?.({ target: this });
      }, (error) => this.onerror?.(error));
    }
  }
  return { fetch, WebSocket, XMLHttpRequest };
}
