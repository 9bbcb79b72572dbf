// scripts/check-ai-cli-versions.ts without the network: the latest versions from a file.
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareVersions, readPins } from "../../../scripts/check-ai-cli-versions.ts";

const root = join(import.meta.dir, "../../..");
const dir = mkdtempSync(join(tmpdir(), "tw-cli-versions-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [join(root, "scripts/check-ai-cli-versions.ts"), ...args], { encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("the pins of install-ai-clis.sh agree with each manifest's tested version", () => {
  const pins = readPins(root);
  expect(pins.map((p) => p.cli).sort()).toEqual(["claude", "codex", "gemini", "opencode", "pi"]);
  for (const pin of pins) expect({ cli: pin.cli, tested: pin.tested }).toEqual({ cli: pin.cli, tested: pin.pinned });
});

test("a CLI whose latest npm version is newer than its pin is reported behind (exit 1); all current exits 0", () => {
  const pins = readPins(root);
  const current = Object.fromEntries(pins.map((p) => [p.pkg, p.pinned]));
  const file = join(dir, "latest.json");
  writeFileSync(file, JSON.stringify(current));
  expect(run("--latest", file)).toMatchObject({ code: 0 });
  const claude = pins.find((p) => p.cli === "claude")!;
  writeFileSync(file, JSON.stringify({ ...current, [claude.pkg]: "99.0.0" }));
  const behind = run("--latest", file, "--json");
  expect(behind.code).toBe(1);
  const rows = JSON.parse(behind.stdout);
  expect(rows.find((r: any) => r.cli === "claude")).toMatchObject({ pinned: claude.pinned, latest: "99.0.0", status: "behind" });
  expect(rows.filter((r: any) => r.status === "current").length).toBe(4);
  // npm without an answer for a package: unknown, not current.
  writeFileSync(file, JSON.stringify({}));
  expect(run("--latest", file).stdout).toContain("unknown (npm did not answer)");
});

test("bad flags and a bad versions file get a clear error and exit code", () => {
  expect(run("--frobnicate")).toMatchObject({ code: 64, stderr: expect.stringContaining('unknown flag "--frobnicate"') });
  expect(run("--latest")).toMatchObject({ code: 64, stderr: expect.stringContaining("--latest needs a FILE") });
  const bad = join(dir, "bad.json");
  writeFileSync(bad, "{not json");
  expect(run("--latest", bad)).toMatchObject({ code: 65, stderr: expect.stringContaining(`cannot read ${bad}`) });
});

test("versions compare by number, not as text", () => {
  expect(compareVersions("2.1.330", "2.1.332")).toBe(-1);
  expect(compareVersions("0.169.0", "0.99.9")).toBe(1);
  expect(compareVersions("1.18.33", "1.18.33")).toBe(0);
  expect(compareVersions("1.0.0-beta.3", "1.0.0")).toBe(0);
});
