// One home per setting: every TUIWRIGHT_* variable tuiwright reads is a row of
// lib/runtime/settings.ts, read only through it, parsed alike (a bad value is a usage error
// naming the variable), and docs/settings.md is the table as generated.
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { SETTINGS, setting, settingsInForce } from "../../../lib/runtime/settings.ts";
import { SETTINGS_DOC, settingsDoc } from "../../../scripts/gen-settings-doc.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const SOURCES = ["main.ts", ...["lib/**/*.ts", "entries/*.ts", "workers/*.ts"].flatMap((p) => [...new Glob(p).scanSync({ cwd: ROOT })])].filter((f) => !f.startsWith("lib/protocol/generated/"));
const NAMES = new Set(Object.values(SETTINGS).map((s) => s.env));

test("no code reads a TUIWRIGHT_ variable but through the settings table", () => {
  const reads = SOURCES.filter((f) => f !== "lib/runtime/settings.ts").flatMap((file) =>
    // `env.TUIWRIGHT_X` not followed by an assignment (setting one for a child is not a read).
    [...readFileSync(resolve(ROOT, file), "utf8").matchAll(/env\.(TUIWRIGHT_[A-Z_]+)\b(?!\s*=[^=])/g)].map((m) => `${file}: ${m[0]}`));
  expect(reads).toEqual([]);
});

test("every TUIWRIGHT_ variable the code names has a row", () => {
  const named = new Set(SOURCES.flatMap((file) => [...readFileSync(resolve(ROOT, file), "utf8").matchAll(/\bTUIWRIGHT_[A-Z_]+\b/g)].map((m) => m[0])));
  named.delete("TUIWRIGHT_BUILD_ID"); // a build-time constant (scripts/build.ts), not a variable
  expect([...named].filter((name) => !NAMES.has(name))).toEqual([]);
});

test("docs/settings.md is the table as generated (bun scripts/gen-settings-doc.ts)", () => {
  expect(readFileSync(SETTINGS_DOC, "utf8")).toBe(settingsDoc());
});

test("a value that does not parse is a usage error naming the variable; empty is unset", () => {
  expect(setting("keep", { TUIWRIGHT_KEEP: "12" })).toBe(12);
  expect(setting("keep", { TUIWRIGHT_KEEP: "" })).toBeUndefined();
  expect(() => setting("keep", { TUIWRIGHT_KEEP: "lots" })).toThrow('TUIWRIGHT_KEEP must be a whole number ≥ 0; got "lots"');
  expect(() => setting("frameIdleMs", { TUIWRIGHT_FRAME_IDLE_MS: "0" })).toThrow('TUIWRIGHT_FRAME_IDLE_MS must be 1..2147483647 ms; got "0"');
  expect(() => setting("adaptersDir", { TUIWRIGHT_ADAPTERS_DIR: "rel" })).toThrow("TUIWRIGHT_ADAPTERS_DIR must be an absolute path");
  try {
    setting("mcpIdleMs", { TUIWRIGHT_MCP_IDLE_MS: "30m" });
  } catch (error) {
    expect((error as { exitCode: number }).exitCode).toBe(64);
  }
  expect(setting("debug", { TUIWRIGHT_DEBUG: "1" })).toBe(true);
  const inForce = settingsInForce({ TUIWRIGHT_NS: "work", TUIWRIGHT_KEEP_DAYS: "soon" });
  expect(inForce.find((s) => s.key === "namespace")).toMatchObject({ value: "work" });
  expect(inForce.find((s) => s.key === "keepDays")?.problem).toContain("TUIWRIGHT_KEEP_DAYS must be a whole number");
  expect(inForce.find((s) => s.key === "socket")?.value).toBeUndefined();
});

test("CI, another tools' convention, is a row too: 1 or true is on, anything else off and never an error; no code reads it but through the table", () => {
  expect(SETTINGS.ci.env).toBe("CI");
  expect(setting("ci", { CI: "true" })).toBe(true);
  expect(setting("ci", { CI: "1" })).toBe(true);
  expect(setting("ci", { CI: "yes" })).toBe(false);
  expect(setting("ci", {})).toBeUndefined();
  const reads = SOURCES.filter((f) => f !== "lib/runtime/settings.ts").flatMap((file) =>
    [...readFileSync(resolve(ROOT, file), "utf8").matchAll(/env\.CI\b(?!\s*=[^=])|env\[["']CI["']\]/g)].map((m) => `${file}: ${m[0]}`));
  expect(reads).toEqual([]);
});
