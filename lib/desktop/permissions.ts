// Permissions (`resource:action[:scope]`, §3.5) and the checks the runtime makes for what it
// mediates: fs:read:/dir (or fs:write:/dir) covers that directory and below, fs:read:* all; a
// relative scope (fs:read:data) is inside the app's own folder; net:http:host (or *.domain, or
// *) covers fetch/XHR to that host, net:ws:host WebSockets. Paths are compared as real paths
// (the caller resolves the file's; the scope's is resolved here): see confined-files.ts.
import { realpathSync } from "node:fs";
import { resolve, sep } from "node:path";

export type Permission = { resource: string; action: string; scope: string };

export const PERMISSION_SYNTAX = /^([a-z]+):([a-z]+)(?::(.+))?$/;

export function parsePermission(text: string): Permission | null {
  const match = PERMISSION_SYNTAX.exec(text);
  if (!match) return null;
  return { resource: match[1]!, action: match[2]!, scope: match[3] ?? "*" };
}

function realScope(scope: string, appDir: string): string {
  const lexical = resolve(appDir, scope);
  try {
    return realpathSync(lexical);
  } catch {
    return lexical;
  }
}

/** May an app with these permissions do `action` on the file whose real path is `path`? */
export function allowsFile(permissions: readonly string[], action: "read" | "write", path: string, appDir = process.cwd()): boolean {
  const target = resolve(path);
  return permissions.some((text) => {
    const permission = parsePermission(text);
    if (!permission || permission.resource !== "fs" || permission.action !== action) return false;
    if (permission.scope === "*") return true;
    const root = realScope(permission.scope, appDir);
    return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);
  });
}

/** May it open `url` (http/https by net:http, ws/wss by net:ws)? */
export function allowsUrl(permissions: readonly string[], url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const action = parsed.protocol === "ws:" || parsed.protocol === "wss:" ? "ws" : parsed.protocol === "http:" || parsed.protocol === "https:" ? "http" : null;
  if (!action) return false;
  const host = parsed.hostname;
  return permissions.some((text) => {
    const permission = parsePermission(text);
    if (!permission || permission.resource !== "net" || permission.action !== action) return false;
    const scope = permission.scope;
    if (scope === "*") return true;
    if (scope.startsWith("*.")) return host.endsWith(scope.slice(1)) || host === scope.slice(2);
    return host === scope;
  });
}
