// Where the npm package finds the tuiwright executable: $TUIWRIGHT_BIN (read through the
// settings table, empty = unset), else the platform package installed beside it, else PATH.
import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { binaryPath, platformName } from "../../../lib/client/binary-path.ts";
import { SETTINGS } from "../../../lib/runtime/settings.ts";

const BIN = SETTINGS.bin.env;
const saved = process.env[BIN];
const SCOPE = resolve(import.meta.dir, "../../../node_modules/@tuiwright");
const scopeExisted = existsSync(SCOPE);

afterEach(() => {
  if (saved === undefined) delete process.env[BIN];
  else process.env[BIN] = saved;
  if (!scopeExisted) rmSync(SCOPE, { recursive: true, force: true });
});

/** Installs a stand-in for the platform package (package.json, and bin/tuiwright unless told not). */
function installPlatformPackage(withBinary: boolean): string {
  const dir = `${SCOPE}/${platformName()}`;
  mkdirSync(`${dir}/bin`, { recursive: true });
  writeFileSync(`${dir}/package.json`, JSON.stringify({ name: `@tuiwright/${platformName()}`, version: "0.0.0" }));
  if (withBinary) {
    writeFileSync(`${dir}/bin/tuiwright`, "#!/bin/sh\n");
    chmodSync(`${dir}/bin/tuiwright`, 0o755);
  }
  return `${dir}/bin/tuiwright`;
}

test("this machine has a platform package name: os-cpu, -musl only on a musl libc", () => {
  const name = platformName();
  expect(name).toMatch(/^(linux|darwin)-(x64|arm64)(-musl)?$/);
  const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
  if (glibc) expect(name).not.toEndWith("-musl");
});

test.skipIf(scopeExisted)("without TUIWRIGHT_BIN or a platform package, the bare name is looked up on PATH", () => {
  delete process.env[BIN];
  expect(binaryPath()).toBe("tuiwright");
});

test("TUIWRIGHT_BIN names the executable; empty is the same as unset", () => {
  delete process.env[BIN];
  const fallback = binaryPath();
  process.env[BIN] = "/opt/tuiwright-nightly/tuiwright";
  expect(binaryPath()).toBe("/opt/tuiwright-nightly/tuiwright");
  process.env[BIN] = "";
  expect(binaryPath()).toBe(fallback);
});

/** binaryPath() in a fresh process (module resolution is cached per process, and a package is
 * installed before the program that looks for it starts): without TUIWRIGHT_BIN, then with it
 * set to /usr/local/bin/tuiwright. */
function binaryPathsInNewProcess(): string[] {
  const script = `import { binaryPath } from ${JSON.stringify(resolve(import.meta.dir, "../../../lib/client/binary-path.ts"))};
    delete process.env.${BIN}; const unset = binaryPath();
    process.env.${BIN} = "/usr/local/bin/tuiwright"; console.log(JSON.stringify([unset, binaryPath()]));`;
  const child = Bun.spawnSync(["bun", "-e", script], { stderr: "pipe" });
  expect(child.stderr.toString()).toBe("");
  return JSON.parse(child.stdout.toString());
}

test.skipIf(scopeExisted || platformName() === null)("the platform package's bin/tuiwright is used when installed, and TUIWRIGHT_BIN still wins over it", () => {
  const packaged = installPlatformPackage(true);
  expect(binaryPathsInNewProcess()).toEqual([packaged, "/usr/local/bin/tuiwright"]);
});

test.skipIf(scopeExisted || platformName() === null)("a platform package without its binary falls back to PATH", () => {
  installPlatformPackage(false);
  expect(binaryPathsInNewProcess()).toEqual(["tuiwright", "/usr/local/bin/tuiwright"]);
});
