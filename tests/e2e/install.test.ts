// The release and the curl installer end to end: `bun run release` builds the linux-x64
// artifact, a loopback HTTP server serves it the way GitHub releases do, and
// `curl -fsSL URL/install.sh | sh` installs it into a clean HOME with PATH=/usr/bin:/bin.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
let dir: string;
let server: ReturnType<typeof Bun.serve>;
let base: string;

/** Serves DIR/<path> over http on 127.0.0.1 only; 404 for anything else. */
function serveDir(root: string): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = decodeURIComponent(new URL(request.url).pathname);
      if (path.includes("..")) return new Response("bad path", { status: 400 });
      const file = Bun.file(join(root, path));
      return file.size > 0 ? new Response(file) : new Response("not found", { status: 404 });
    },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tw-install-"));
  chmodSync(dir, 0o700);
  const release = join(dir, "srv", "download", `v${VERSION}`);
  const built = Bun.spawn([process.execPath, join(ROOT, "scripts/release.ts"), "--targets", "linux-x64", "--out", release], {
    cwd: ROOT, stdout: "pipe", stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(built.stdout).text(), new Response(built.stderr).text(), built.exited]);
  if (code !== 0) throw new Error(`release failed (${code}): ${out}${err}`);
  cpSync(join(ROOT, "scripts/install.sh"), join(release, "install.sh"));
  mkdirSync(join(dir, "srv", "latest"));
  symlinkSync(release, join(dir, "srv", "latest", "download"));
  // A mirror whose artifact was altered after SHA256SUMS was written.
  const evil = join(dir, "evil", "latest", "download");
  mkdirSync(evil, { recursive: true });
  cpSync(join(release, "SHA256SUMS"), join(evil, "SHA256SUMS"));
  writeFileSync(join(evil, "tuiwright-linux-x64.gz"), Bun.gzipSync(new TextEncoder().encode("#!/bin/sh\necho owned\n")));
  // A mirror whose (checksum-correct) musl build cannot run here, as on Alpine without libstdc++.
  const broken = join(dir, "broken", "latest", "download");
  mkdirSync(broken, { recursive: true });
  const unrunnable = Bun.gzipSync(new TextEncoder().encode("#!/bin/sh\necho 'Error loading shared library libstdc++.so.6' >&2\nexit 127\n"));
  writeFileSync(join(broken, "tuiwright-linux-x64-musl.gz"), unrunnable);
  writeFileSync(join(broken, "SHA256SUMS"), `${new Bun.CryptoHasher("sha256").update(unrunnable).digest("hex")}  tuiwright-linux-x64-musl.gz\n`);
  server = serveDir(join(dir));
  base = `http://127.0.0.1:${server.port}`;
}, 300_000);

afterAll(() => {
  server?.stop(true);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Result = { code: number; stdout: string; stderr: string };

async function sh(script: string, env: Record<string, string>): Promise<Result> {
  const proc = Bun.spawn(["/bin/sh", "-c", script], { env, cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

function cleanHome(): string {
  const home = mkdtempSync(join(dir, "home-"));
  chmodSync(home, 0o700);
  return home;
}

describe("install.sh against a loopback release server", () => {
  test("curl | sh installs a working binary into ~/.local/bin of a clean HOME, and re-running changes nothing", async () => {
    const home = cleanHome();
    const env = { PATH: "/usr/bin:/bin", HOME: home, TUIWRIGHT_BASE_URL: `${base}/srv` };
    const first = await sh(`curl -fsSL ${base}/srv/latest/download/install.sh | sh`, env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const bin = join(home, ".local/bin/tuiwright");
    expect(first.stdout).toContain(`installed ${VERSION}+`);
    expect(first.stdout).toContain(`${home}/.local/bin is not on your PATH`);
    expect(first.stdout).toContain("Next steps:");
    expect(first.stdout).toContain(`Uninstall: ${bin} daemon stop && rm ${bin}`);

    const version = await sh(`${bin} --version`, env);
    expect(version.stdout.trim()).toMatch(new RegExp(`^${VERSION.replaceAll(".", "\\.")}\\+[0-9a-f]{12}$`));
    // The binary works: a session on a real PTY through its own daemon, then stopped.
    const sessionEnv = { ...env, TUIWRIGHT_SOCKET: join(home, "tw.sock"), TUIWRIGHT_NS: "install-test" };
    const spawned = await sh(`${bin} spawn --session s -- bash --norc --noprofile && ${bin} type --session s 'echo $((6*7))' && ${bin} press --session s Enter && ${bin} wait --session s --text 42 >/dev/null && ${bin} --plain snapshot --session s`, sessionEnv);
    // doctor is clean: nothing fails (Carbonyl, not installed by the installer, is a warning).
    const doctor = await sh(`${bin} doctor`, sessionEnv);
    const stopped = await sh(`${bin} daemon stop`, sessionEnv);
    expect(doctor.stdout).toContain("no problems found");
    expect(doctor.code).toBe(0);
    expect(spawned.stderr).toBe("");
    expect(spawned.stdout).toMatch(/^42$/m);
    expect(stopped.code).toBe(0);

    const again = await sh(`curl -fsSL ${base}/srv/latest/download/install.sh | sh`, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`is already installed at ${bin}`);
  }, 120_000);

  test("--version X downloads that release; PREFIX chooses the directory; an unknown version fails clearly", async () => {
    const prefix = join(cleanHome(), "opt");
    const env = { PATH: `/usr/bin:/bin:${prefix}/bin`, HOME: cleanHome(), PREFIX: prefix, TUIWRIGHT_BASE_URL: `${base}/srv` };
    const pinned = await sh(`sh ${join(ROOT, "scripts/install.sh")} --version ${VERSION}`, env);
    expect(pinned.code).toBe(0);
    expect(pinned.stdout).toContain(`/download/v${VERSION}`);
    expect(pinned.stdout).not.toContain("is not on your PATH");
    expect(existsSync(join(prefix, "bin/tuiwright"))).toBe(true);

    const missing = await sh(`sh ${join(ROOT, "scripts/install.sh")} --version 9.9.9`, env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`could not download ${base}/srv/download/v9.9.9/SHA256SUMS (is 9.9.9 a released version?)`);

    const bad = await sh(`sh ${join(ROOT, "scripts/install.sh")} --version latest-ish`, env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('version "latest-ish" is not X.Y.Z');
  }, 120_000);

  test("a checksum mismatch is refused with a clear message and nothing is installed", async () => {
    const home = cleanHome();
    const result = await sh(`sh ${join(ROOT, "scripts/install.sh")}`, { PATH: "/usr/bin:/bin", HOME: home, TUIWRIGHT_BASE_URL: `${base}/evil` });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("checksum mismatch for tuiwright-linux-x64.gz");
    expect(result.stderr).toContain("nothing was installed");
    expect(existsSync(join(home, ".local/bin/tuiwright"))).toBe(false);
  }, 60_000);

  test("a binary that does not run here is not installed, with the reason and the musl hint", async () => {
    const home = cleanHome();
    const result = await sh(`sh ${join(ROOT, "scripts/install.sh")}`, { PATH: "/usr/bin:/bin", HOME: home, TUIWRIGHT_BASE_URL: `${base}/broken`, TUIWRIGHT_PLATFORM: "linux-x64-musl" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the downloaded binary does not run here (linux-x64-musl): Error loading shared library libstdc++.so.6");
    expect(result.stderr).toContain("apk add libstdc++ libgcc");
    expect(existsSync(join(home, ".local/bin/tuiwright"))).toBe(false);
  }, 60_000);

  test("bad arguments, no HOME and a platform with no build are errors that say what to do", async () => {
    const script = join(ROOT, "scripts/install.sh");
    const unknown = await sh(`sh ${script} --frobnicate`, { PATH: "/usr/bin:/bin", HOME: cleanHome() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown argument "--frobnicate"');

    const noHome = await sh(`sh ${script}`, { PATH: "/usr/bin:/bin" });
    expect(noHome.code).toBe(1);
    expect(noHome.stderr).toContain("HOME is not set: pass --prefix DIR");

    const platform = await sh(`sh ${script}`, { PATH: "/usr/bin:/bin", HOME: cleanHome(), TUIWRIGHT_BASE_URL: `${base}/srv`, TUIWRIGHT_PLATFORM: "linux-riscv64" });
    expect(platform.code).toBe(1);
    expect(platform.stderr).toContain("tuiwright-linux-riscv64.gz (no build for linux-riscv64 in this release?)");
  }, 60_000);
});
