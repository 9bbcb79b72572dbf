// aoapp.json (§3.5): read and validated field by field, so a broken manifest names the field
// and what is wrong with it instead of failing later inside the app's worker.
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, relative } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";
import { checkCodeFolder, checkInsideCodeFolder } from "../runtime/owned-dir.ts";
import { readTrustedFile } from "../runtime/trusted-file.ts";
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

/** What an app folder may hold: aoapp.json like a manifest, scripts and pages up to 32 MiB. */
export const MAX_APP_MANIFEST_BYTES = 1 << 20;
export const MAX_APP_FILE_BYTES = 32 << 20;

const CODE_HINT = "an app folder is code that runs as you: it must be owned by you (or root) and writable only by you, in a directory others cannot write (chmod go-w, or move it into your home)";

/** A desktop error for a failure of the trusted reader or the folder check: another user's or
 * a writable folder or file is E_PERMISSION (exit 77); a FIFO, device or huge file a bad manifest. */
function asAppError(error: unknown, field: string): TuiwrightError {
  if (!(error instanceof TuiwrightError)) throw error;
  if (error.errorName === "permission") return desktopError("desktop-permission", error.message, { field }, CODE_HINT);
  if (error.errorName === "no-such-file") return desktopError(field === "(folder)" ? "desktop-not-found" : "bad-app-manifest", error.message, { field });
  return desktopError("bad-app-manifest", error.message, { field });
}

/** `relative` (a path inside the app folder, as aoapp.json or a page names it) read through
 * the trusted reader: never outside the folder, every directory on the way checked. */
export function readAppFile(folder: string, relative: string, maxBytes = MAX_APP_FILE_BYTES): string {
  const clean = normalize(relative);
  if (isAbsolute(relative) || clean === ".." || clean.startsWith("../")) {
    throw desktopError("bad-app-manifest", `${JSON.stringify(relative)} is outside the app folder ${folder}`, { field: "entry" });
  }
  try {
    checkInsideCodeFolder(folder, dirname(clean), "app folder", CODE_HINT);
    return readTrustedFile(join(folder, clean), { what: "app file", maxBytes, trusted: true, badName: "bad-app-manifest" }).toString("utf8");
  } catch (error) {
    throw asAppError(error, relative === "aoapp.json" ? "(file)" : "entry");
  }
}

/** A page's `<script src>`, relative to the page, read like the entry (inside the folder only). */
export function readAppScript(given: string, entryPath: string, src: string): string {
  let folder: string;
  try {
    folder = checkCodeFolder(given, "app folder", CODE_HINT);
  } catch (error) {
    throw asAppError(error, "(folder)");
  }
  return readAppFile(folder, relative(folder, join(dirname(entryPath), src)));
}

/** Reads DIR/aoapp.json and checks that its entry can run: the folder and every file read from
 * it are code, so they must be ours (or root's) and writable by nobody else (exit 77 otherwise),
 * and regular files of bounded size (a FIFO never blocks the daemon). `dir` is the folder's real
 * path: what runs is what was checked. */
export function loadAppFolder(given: string): { manifest: AppManifest; entryPath: string; dir: string } {
  let dir: string;
  try {
    dir = checkCodeFolder(given, "app folder", CODE_HINT);
  } catch (error) {
    throw asAppError(error, "(folder)");
  }
  const path = join(dir, "aoapp.json");
  if (!existsSync(path)) throw desktopError("bad-app-manifest", `${path}: missing (an app folder needs aoapp.json)`, { field: "(file)" });
  let raw: unknown;
  const text = readAppFile(dir, "aoapp.json", MAX_APP_MANIFEST_BYTES);
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw desktopError("bad-app-manifest", `${path}: not valid JSON: ${(error as Error).message}`, { field: "(file)" });
  }
  const manifest = validateManifest(raw, path);
  const entryPath = join(dir, manifest.entry);
  if (!existsSync(entryPath)) throw desktopError("bad-app-manifest", `${path}: entry ${JSON.stringify(manifest.entry)} does not exist in ${dir}`, { field: "entry" });
  readAppFile(dir, manifest.entry); // fails now, with the reason, rather than in the app's worker
  return { manifest, entryPath, dir };
}
