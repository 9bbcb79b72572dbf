import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAppFolder, validateManifest } from "../../../lib/desktop/app-manifest.ts";
import { allowsFile, allowsUrl } from "../../../lib/desktop/permissions.ts";
import { createDesktop, listDesktops } from "../../../lib/desktop/index.ts";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";

const root = mkdtempSync(join(tmpdir(), "tw-aoapp-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const good = { id: "com.example.x", name: "X", version: "1.0.0", entry: "main.js", system: false, permissions: ["fs:read:/tmp"] };

function problem(raw: unknown): TuiwrightError {
  try {
    validateManifest(raw, "x/aoapp.json");
  } catch (error) {
    return error as TuiwrightError;
  }
  throw new Error("expected the manifest to be refused");
}

test("a valid manifest", () => {
  expect(validateManifest(good, "x")).toEqual(good);
  expect(validateManifest({ ...good, system: undefined, permissions: undefined }, "x")).toMatchObject({ system: false, permissions: [] });
});

test("each broken field is named with what is wrong", () => {
  const cases: [unknown, string, string][] = [
    [[], "(top level)", "must be a JSON object"],
    [{ ...good, id: "todo" }, "id", 'reverse-domain string such as "com.example.todo", got "todo"'],
    [{ ...good, name: "" }, "name", "non-empty string"],
    [{ ...good, version: "one" }, "version", 'must be a version such as "1.0.0", got "one"'],
    [{ ...good, entry: undefined }, "entry", "must be the path"],
    [{ ...good, entry: "../evil.js" }, "entry", "inside the app's folder"],
    [{ ...good, entry: "main.py" }, "entry", "must end in .js, .mjs or .html"],
    [{ ...good, system: "yes" }, "system", 'must be true or false, got "yes"'],
    [{ ...good, permissions: "fs:read:/tmp" }, "permissions", "must be an array"],
    [{ ...good, permissions: ["fs:read:/tmp", "everything"] }, "permissions[1]", 'resource:action[:scope] such as "fs:read:/tmp"'],
    [{ ...good, colour: "red" }, "colour", "is not a known field"],
  ];
  for (const [raw, field, message] of cases) {
    const error = problem(raw);
    expect(error.errorName).toBe("bad-app-manifest");
    expect(error.exitCode).toBe(65);
    expect(error.details.field).toBe(field);
    expect(error.message).toContain(`x/aoapp.json: ${field} `);
    expect(error.message).toContain(message);
  }
});

test("folders: missing aoapp.json, bad JSON, missing entry", () => {
  const dir = (name: string, files: Record<string, string>) => {
    const path = join(root, name);
    mkdirSync(path);
    for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
    return path;
  };
  const message = (path: string) => {
    try {
      loadAppFolder(path);
    } catch (error) {
      return (error as Error).message;
    }
    return "loaded";
  };
  expect(message(dir("empty", {}))).toContain("aoapp.json: missing");
  expect(message(dir("badjson", { "aoapp.json": "{ id: 1" }))).toContain("not valid JSON");
  expect(message(dir("noentry", { "aoapp.json": JSON.stringify(good) }))).toContain('entry "main.js" does not exist');
  expect(message(join(root, "nowhere"))).toContain("no app folder");
});

test("createDesktop with a broken app folder fails with the field, and leaves no desktop behind", async () => {
  const path = join(root, "broken");
  mkdirSync(path);
  writeFileSync(join(path, "aoapp.json"), JSON.stringify({ ...good, version: 7 }));
  const error = await createDesktop({ apps: [path], systemApps: [] }).then(() => null, (e) => e as TuiwrightError);
  expect(error?.errorName).toBe("bad-app-manifest");
  expect(error?.message).toContain("version must be a version");
  expect(listDesktops()).toEqual([]);
});

test("permissions: fs scopes are directories, net scopes hosts", () => {
  expect(allowsFile(["fs:read:/tmp"], "read", "/tmp/a/b")).toBe(true);
  expect(allowsFile(["fs:read:/tmp"], "read", "/tmpx")).toBe(false);
  expect(allowsFile(["fs:read:/tmp"], "read", "/tmp/../etc/passwd")).toBe(false);
  expect(allowsFile(["fs:read:/tmp"], "write", "/tmp/a")).toBe(false);
  expect(allowsFile(["fs:read:*"], "read", "/etc/passwd")).toBe(true);
  expect(allowsUrl(["net:http:*.example.com"], "https://api.example.com/x")).toBe(true);
  expect(allowsUrl(["net:http:example.com"], "https://evil.com/")).toBe(false);
  expect(allowsUrl(["net:http:example.com"], "wss://example.com/")).toBe(false);
  expect(allowsUrl(["net:ws:example.com"], "wss://example.com/")).toBe(true);
});
