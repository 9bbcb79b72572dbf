// aoapp.json (§3.5): read and validated field by field, so a broken manifest names the field
// and what is wrong with it instead of failing later inside the app's worker.
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, normalize } from "node:path";
import { desktopError } from "./aotui-codes.ts";
import { PERMISSION_SYNTAX } from "./permissions.ts";

export type AppManifest = {
  id: string;
  name: string;
  version: string;
  entry: string;
  system: boolean;
  permissions: string[];
};

const KNOWN = ["id", "name", "version", "entry", "system", "permissions", "description"];
const REVERSE_DOMAIN = /^[A-Za-z][\w-]*(\.[A-Za-z0-9][\w-]*)+$/;

export function validateManifest(raw: unknown, where: string): AppManifest {
  const fail = (field: string, problem: string) => desktopError("bad-app-manifest", `${where}: ${field} ${problem}`, { field });
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw fail("(top level)", "must be a JSON object");
  const m = raw as Record<string, unknown>;
  for (const key of Object.keys(m)) if (!KNOWN.includes(key)) throw fail(key, `is not a known field (known: ${KNOWN.join(", ")})`);
  if (typeof m.id !== "string" || !REVERSE_DOMAIN.test(m.id)) throw fail("id", `must be a reverse-domain string such as "com.example.todo", got ${JSON.stringify(m.id)}`);
  if (typeof m.name !== "string" || m.name.trim() === "") throw fail("name", `must be a non-empty string, got ${JSON.stringify(m.name)}`);
  if (typeof m.version !== "string" || !/^\d+\.\d+\.\d+([-+][\w.-]+)?$/.test(m.version)) throw fail("version", `must be a version such as "1.0.0", got ${JSON.stringify(m.version)}`);
  if (typeof m.entry !== "string" || m.entry === "") throw fail("entry", `must be the path of the app's script (.js) or page (.html), got ${JSON.stringify(m.entry)}`);
  if (isAbsolute(m.entry) || normalize(m.entry).startsWith("..")) throw fail("entry", `must be a path inside the app's folder, got ${JSON.stringify(m.entry)}`);
  if (!/\.(js|mjs|html?)$/.test(m.entry)) throw fail("entry", `must end in .js, .mjs or .html, got ${JSON.stringify(m.entry)}`);
  if (m.system !== undefined && typeof m.system !== "boolean") throw fail("system", `must be true or false, got ${JSON.stringify(m.system)}`);
  if (m.description !== undefined && typeof m.description !== "string") throw fail("description", "must be a string");
  const permissions = m.permissions ?? [];
  if (!Array.isArray(permissions)) throw fail("permissions", "must be an array of strings such as \"fs:read:/tmp\"");
  permissions.forEach((p, i) => {
    if (typeof p !== "string" || !PERMISSION_SYNTAX.test(p)) throw fail(`permissions[${i}]`, `must be resource:action[:scope] such as "fs:read:/tmp" or "net:http:example.com", got ${JSON.stringify(p)}`);
  });
  return { id: m.id, name: m.name, version: m.version, entry: m.entry, system: m.system === true, permissions: permissions as string[] };
}

/** Reads DIR/aoapp.json and checks that its entry exists. */
export function loadAppFolder(dir: string): { manifest: AppManifest; entryPath: string } {
  const path = join(dir, "aoapp.json");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw desktopError("desktop-not-found", `no app folder at ${dir}`);
  if (!existsSync(path)) throw desktopError("bad-app-manifest", `${path}: missing (an app folder needs aoapp.json)`, { field: "(file)" });
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw desktopError("bad-app-manifest", `${path}: not valid JSON: ${(error as Error).message}`, { field: "(file)" });
  }
  const manifest = validateManifest(raw, path);
  const entryPath = join(dir, manifest.entry);
  if (!existsSync(entryPath)) throw desktopError("bad-app-manifest", `${path}: entry ${JSON.stringify(manifest.entry)} does not exist in ${dir}`, { field: "entry" });
  return { manifest, entryPath };
}
