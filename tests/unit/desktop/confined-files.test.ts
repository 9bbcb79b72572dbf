// App permissions hold on what is really reached: a symlink inside a granted folder that points
// outside reads and writes nothing outside (nor does a hard link, or a folder swapped for a
// symlink); fetch and XMLHttpRequest refuse a redirect to a host the app was not granted, and
// Bun's proxy/unix options, which would route around the host check.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guardedNetwork } from "../../../lib/desktop/app-api.ts";
import { ConfinedFiles } from "../../../lib/desktop/confined-files.ts";
import { allowsFile } from "../../../lib/desktop/permissions.ts";

let root: string;
let app: string;
let outside: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "tw-confined-"));
  chmodSync(root, 0o700);
  app = join(root, "app");
  outside = join(root, "outside");
  mkdirSync(join(app, "data", "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "the secret");
  writeFileSync(join(app, "data", "mine.txt"), "mine");
  symlinkSync(join(outside, "secret.txt"), join(app, "data", "link"));
  symlinkSync(outside, join(app, "data", "door"));
  symlinkSync(join(app, "data", "mine.txt"), join(app, "data", "inside-link"));
  linkSync(join(outside, "secret.txt"), join(app, "data", "hard"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  return "allowed";
}

test("a relative scope is the app's own folder; a symlink out of it is refused by what it really is", () => {
  const files = new ConfinedFiles(["fs:read:data", "fs:write:data"], app);
  expect(files.readText(join(app, "data", "mine.txt"))).toBe("mine");
  expect(files.readText(join(app, "data", "inside-link"))).toBe("mine"); // a symlink that stays inside is fine
  expect(refusal(() => files.readText(join(app, "data", "link")))).toBe(`E_PERMISSION: fs:read of ${join(app, "data", "link")} (it is ${join(outside, "secret.txt")}) is not granted by this app's permissions`);
  expect(refusal(() => files.readText(join(app, "data", "door", "secret.txt")))).toContain("is not granted");
  expect(refusal(() => files.list(join(app, "data", "door")))).toContain("is not granted");
  expect(files.list(join(app, "data")).map((e) => e.name)).toEqual(["door", "hard", "inside-link", "link", "mine.txt", "sub"]);
  expect(refusal(() => files.readText(join(app, "data", "..", "..", "outside", "secret.txt")))).toContain("is not granted");
  expect(refusal(() => files.readText("/etc/hostname"))).toContain("is not granted");
});

test("writes: never through a symlink out, never to a file with another name elsewhere, and nothing is changed before the check", () => {
  const files = new ConfinedFiles(["fs:read:data", "fs:write:data"], app);
  files.writeText(join(app, "data", "new.txt"), "fresh");
  expect(readFileSync(join(app, "data", "new.txt"), "utf8")).toBe("fresh");
  expect(refusal(() => files.writeText(join(app, "data", "link"), "pwned"))).toContain("is not granted");
  expect(refusal(() => files.writeText(join(app, "data", "door", "planted.txt"), "pwned"))).toContain("is not granted");
  expect(existsSync(join(outside, "planted.txt"))).toBe(false);
  expect(refusal(() => files.writeText(join(app, "data", "hard"), "pwned"))).toContain("the file has 2 names (hard links)");
  expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("the secret");
  // A symlink that stays inside is still not written through (O_NOFOLLOW): the link is refused, plainly.
  expect(refusal(() => files.writeText(join(app, "data", "inside-link"), "x"))).toContain("it is a symbolic link");
});

test("a FIFO is refused, not waited on", () => {
  const fifo = join(app, "data", "fifo");
  Bun.spawnSync(["mkfifo", fifo]);
  const files = new ConfinedFiles(["fs:read:data"], app);
  expect(refusal(() => files.readText(fifo))).toContain("not a regular file");
});

test("a granted folder that is itself a symlink is granted as what it is", () => {
  symlinkSync(join(app, "data"), join(root, "data-alias"));
  expect(allowsFile([`fs:read:${join(root, "data-alias")}`], "read", join(app, "data", "mine.txt"))).toBe(true);
  expect(allowsFile([`fs:read:${join(root, "data-alias")}`], "read", join(outside, "secret.txt"))).toBe(false);
});

test("fetch and XMLHttpRequest: a redirect to an ungranted host is refused; the proxy and unix options are refused", async () => {
  let port = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request: Request): Response {
      const url = new URL(request.url);
      if (url.pathname === "/away") return new Response(null, { status: 302, headers: { location: `http://localhost:${port}/secret` } });
      if (url.pathname === "/near") return new Response(null, { status: 301, headers: { location: "/here" } });
      if (url.pathname === "/here") return new Response("here");
      return new Response("secret");
    },
  });
  port = server.port ?? 0;
  try {
    const { fetch, XMLHttpRequest } = guardedNetwork(["net:http:127.0.0.1"]);
    const base = `http://127.0.0.1:${server.port}`;
    expect(await (await fetch(`${base}/near`)).text()).toBe("here");
    expect(await fetch(`${base}/away`).then(() => "fetched", (e: Error) => e.message)).toBe(`E_PERMISSION: net access to http://localhost:${server.port}/secret (a redirect from ${base}/away) is not granted by this app's permissions`);
    expect((await fetch(`${base}/away`, { redirect: "manual" })).status).toBe(302);
    expect(await fetch(`${base}/here`, { proxy: `http://localhost:${server.port}` } as any).then(() => "fetched", (e: Error) => e.message)).toContain("fetch's proxy option (it routes around the host check) is not granted");
    expect(await fetch(`${base}/here`, { unix: "/tmp/x.sock" } as any).then(() => "fetched", (e: Error) => e.message)).toContain("fetch's unix option");
    const xhr = new XMLHttpRequest();
    const failed = new Promise<string>((resolve) => { xhr.onerror = (e: any) => resolve(e.message); xhr.onload = () => resolve("loaded"); });
    xhr.open("GET", `${base}/away`);
    xhr.send();
    expect(await failed).toContain("(a redirect from");
  } finally {
    server.stop(true);
  }
});
