// `tuiwright doctor`: every check says what it found; a problem comes with its fix and makes the
// exit code 1, while missing optional parts (zsh, fish, Carbonyl) are only warnings.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";

const worlds: World[] = [];
afterAll(async () => { for (const world of worlds) await world[Symbol.asyncDispose](); });

async function world(start: boolean): Promise<World> {
  const w = start ? await World.start() : World.empty();
  worlds.push(w);
  return w;
}

test("a fresh machine is clean: every check listed, no daemon yet is fine", async () => {
  const w = await world(false);
  const result = await w.run(["doctor"]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  for (const name of ["tuiwright", "socket directory", "daemon", "state directory", "shell bash", "carbonyl", "user manifests", "retention"]) {
    expect(result.stdout).toMatch(new RegExp(`^(ok|warn)\\s+${name}\\s`, "m"));
  }
  expect(result.stdout).toContain("not running for namespace");
  expect(result.stdout.trim().split("\n").at(-1)).toBe("no problems found");
  const json = JSON.parse((await w.run(["--json", "doctor"])).stdout);
  expect(json.ok).toBe(true);
  expect(json.checks.find((c: any) => c.name === "daemon")).toMatchObject({ status: "ok" });
});

test("with a daemon running, doctor reports its pid and version", async () => {
  const w = await world(true);
  const json = JSON.parse((await w.run(["--json", "doctor"])).stdout);
  const version = (await w.run(["--version"])).stdout.trim();
  expect(json.checks.find((c: any) => c.name === "daemon").detail).toBe(`running, pid ${w.daemon!.pid}, version ${version} (same as this CLI)`);
});

test("an unsafe socket directory and a broken config are failures with fixes (exit 1)", async () => {
  const w = await world(false);
  const socketDir = join(w.dir, "run");
  mkdirSync(socketDir, { mode: 0o755 });
  chmodSync(socketDir, 0o755);
  const config = join(w.dir, "config.toml");
  writeFileSync(config, "[retention]\nkeep = 'many'\n");
  const result = await w.run(["doctor"], { env: { TUIWRIGHT_CONFIG: config } });
  expect(result.code).toBe(1);
  expect(result.stdout).toMatch(/^fail\s+socket directory\s+.*run/m);
  expect(result.stdout).toContain(`fix: remove or fix it (rm -rf ${socketDir} if it is yours)`);
  expect(result.stdout).toMatch(/^fail\s+retention\s+.*retention\.keep must be a whole number/m);
  expect(result.stdout).toContain("2 problem(s): see the fixes above");
});

test("missing zsh and fish are warnings; missing bash is a failure", async () => {
  const w = await world(false);
  const bin = join(w.dir, "bin");
  mkdirSync(bin);
  symlinkSync("/usr/bin/bash", join(bin, "bash"));
  const withBash = await w.run(["doctor"], { env: { PATH: bin } });
  expect(withBash.code).toBe(0);
  expect(withBash.stdout).toMatch(/^warn\s+shell zsh\s+zsh is not on PATH/m);
  expect(withBash.stdout).toContain("fix: apt-get install fish (optional)");
  const without = await w.run(["doctor"], { env: { PATH: join(w.dir, "empty") } });
  expect(without.code).toBe(1);
  expect(without.stdout).toMatch(/^fail\s+shell bash\s+bash is not on PATH/m);
  expect((await w.run(["doctor", "extra"])).code).toBe(64);
});

test("a missing Carbonyl is a warning that says how to count it; with --browser it is a problem (exit 1) with its install command", async () => {
  const w = await world(false);
  const env = { CARBONYL: join(w.dir, "no-carbonyl") };
  const plain = await w.run(["doctor"], { env });
  expect(plain.code).toBe(0);
  expect(plain.stdout).toMatch(/^warn\s+carbonyl\s+.*doctor --browser counts it as a problem/m);
  expect(plain.stdout.trim().split("\n").at(-1)).toMatch(/^no problems found; \d+ warning\(s\) above, for optional parts$/);
  const browser = await w.run(["doctor", "--browser"], { env });
  expect(browser.code).toBe(1);
  expect(browser.stdout).toMatch(/^fail\s+carbonyl\s+.*browser sessions need it/m);
  expect(browser.stdout).toContain("fix: npm install --prefix");
});

test("doctor lists the settings in force, and a variable that does not parse is a failure naming it", async () => {
  const w = await world(false);
  const result = await w.run(["doctor"], { env: { TUIWRIGHT_KEEP_DAYS: "soon", TUIWRIGHT_FRAME_IDLE_MS: "500" } });
  expect(result.code).toBe(1);
  expect(result.stdout).toContain("settings (docs/settings.md):");
  expect(result.stdout).toMatch(/^ {2}TUIWRIGHT_LEASE\s+unset: none$/m);
  expect(result.stdout).toMatch(/^ {2}TUIWRIGHT_KEEP_DAYS\s+= "soon"$/m);
  expect(result.stdout).toMatch(/^ {2}TUIWRIGHT_FRAME_IDLE_MS\s+= "500" \(test\)$/m);
  expect(result.stdout).toMatch(/^fail\s+setting\s+TUIWRIGHT_KEEP_DAYS must be a whole number ≥ 0; got "soon"$/m);
  const json = JSON.parse((await w.run(["--json", "doctor"], { env: { TUIWRIGHT_MCP_TOOLS: "core" } })).stdout);
  expect(json.settings.find((s: any) => s.name === "TUIWRIGHT_MCP_TOOLS")).toEqual({ name: "TUIWRIGHT_MCP_TOOLS", value: "core", default: "core,shell", audience: "user" });
  expect(json.settings.find((s: any) => s.name === "TUIWRIGHT_HISTORY_FLAG")).toBeUndefined();
});
