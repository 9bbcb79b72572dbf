// Finding 12: install.sh takes SHA256SUMS from the same server as the artifact, so a tampered
// server (mirror, release page) that serves a matching SHA256SUMS is not caught by it — and the
// installer runs the download (`--version`). What the installer now does, and SECURITY.md says:
// without a pin it says plainly what the checksum covers; with --sha256 HASH (from a source the
// user trusts) a tampered download is refused before any of it runs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const SCRIPT = resolve(import.meta.dir, "../../scripts/install.sh");
let dir: string;
let server: ReturnType<typeof Bun.serve>;
let marker: string;
let tamperedHash: string;

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tw-sec-install-"));
  chmodSync(dir, 0o700);
  marker = join(dir, "tampered-binary-ran");
  // A tampered server: its artifact leaves a marker when run, and its SHA256SUMS matches it.
  const release = join(dir, "srv", "latest", "download");
  mkdirSync(release, { recursive: true });
  const tampered = Bun.gzipSync(new TextEncoder().encode(`#!/bin/sh\ntouch ${marker}\necho 9.9.9+tampered\n`));
  tamperedHash = sha256(tampered);
  writeFileSync(join(release, "tuiwright-linux-x64.gz"), tampered);
  writeFileSync(join(release, "SHA256SUMS"), `${tamperedHash}  tuiwright-linux-x64.gz\n`);
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const file = Bun.file(join(dir, "srv", decodeURIComponent(new URL(request.url).pathname).replaceAll("..", "")));
      return file.size > 0 ? new Response(file) : new Response("not found", { status: 404 });
    },
  });
});

afterAll(() => {
  server?.stop(true);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function install(args: string[]): Promise<{ code: number; stdout: string; stderr: string; home: string }> {
  const home = mkdtempSync(join(dir, "home-"));
  const env = { PATH: "/usr/bin:/bin", HOME: home, TUIWRIGHT_BASE_URL: `http://127.0.0.1:${server.port}`, TUIWRIGHT_PLATFORM: "linux-x64" };
  const proc = Bun.spawn(["sh", SCRIPT, ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr, home };
}

test("with --sha256 from a trusted source, a tampered server's artifact is refused and never runs", async () => {
  rmSync(marker, { force: true });
  const genuine = "ab".repeat(32);
  const result = await install(["--sha256", genuine]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(`tuiwright-linux-x64.gz does not match the --sha256 you gave: expected ${genuine}, the download is ${tamperedHash}`);
  expect(result.stderr).toContain("nothing was installed, and none of it ran");
  expect(existsSync(marker)).toBe(false);
  expect(existsSync(join(result.home, ".local/bin/tuiwright"))).toBe(false);
});

test("the pinned hash is what is checked: the artifact that matches it installs (and runs only after the check)", async () => {
  rmSync(marker, { force: true });
  const result = await install([`--sha256=${tamperedHash.toUpperCase()}`]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("tuiwright-linux-x64.gz matches the pinned SHA-256");
  expect(existsSync(join(result.home, ".local/bin/tuiwright"))).toBe(true);
  expect(existsSync(marker)).toBe(true);
});

test("without a pin the installer says what the checksum covers (a corrupt download, not a tampered server)", async () => {
  const result = await install([]);
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("matches SHA256SUMS from the same server (this catches a corrupt download, not a tampered server: pass --sha256 HASH");
});

test("a --sha256 that is not a SHA-256 is refused before anything is downloaded", async () => {
  for (const value of ["abc", "g".repeat(64), `${"a".repeat(64)}0`]) {
    const result = await install(["--sha256", value]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`--sha256 "${value}" is not a SHA-256 (64 hex digits)`);
  }
});
