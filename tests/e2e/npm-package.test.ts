// The npm packages end to end: `scripts/npm-packages.ts --pack` builds tuiwright and
// @tuiwright/linux-x64, npm installs both tarballs into a scratch project, and then `npx
// tuiwright` runs, and one vim script drives a session through the compiled library from Node,
// Deno and Bun — on the packaged binary's daemon, which the CLI shares.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { World } from "../helpers/harness.ts";
import { runnableBlocks } from "../helpers/doc-blocks.ts";

const ROOT = resolve(import.meta.dir, "../..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const DENO = join(ROOT, "node_modules/.bin/deno");
let dir: string;
let project: string;
// Only for its isolated socket and state directories: the packaged binary starts the daemon.
const world = World.empty();

type Result = { code: number; stdout: string; stderr: string };

async function run(argv: string[], env: Record<string, string> = world.env, cwd = project): Promise<Result> {
  const proc = Bun.spawn(argv, { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

function must(result: Result, what: string): Result {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.stdout}${result.stderr}`);
  return result;
}

const VIM_SCRIPT = `import { connect, expectSession } from "tuiwright";
const client = await connect();
const vim = await client.spawn({ session: process.argv[2], argv: ["vim", "-u", "NONE", "-N", "-i", "NONE"], cols: 80, rows: 24 });
await expectSession(vim).toShow(/^~/m);
await vim.press("i", { wait: { text: ["-- INSERT --"] } });
await vim.type("typed by " + process.argv[2]);
await vim.press("Escape", { wait: { text: ["-- INSERT --"], gone: true } });
await expectSession(vim).toShow("typed by " + process.argv[2]);
console.log(JSON.stringify({ version: client.version, firstRow: (await vim.text()).split("\\n")[0] }));
client.close();
`;

/** The portable client against the frame limit: a 2 MB manifest is refused before sending, and
 * 1.5 MB of text reaches `cat` whole (sent as several requests). */
const FRAMES_SCRIPT = `import { connect } from "tuiwright";
const client = await connect();
let refused = null, message = "";
try { await client.call("adapter.check", { source: "#".repeat(2 << 20), file: "big.toml" }); } catch (error) { refused = error.errorName; message = error.message; }
const session = await client.spawn({ argv: ["bash", "-c", "stty raw -echo; head -c 1500000 | wc -c; echo typed-all; exec cat"], session: "frames" });
await session.type("x".repeat(1_500_000), { wait: { text: ["typed-all"], timeoutMs: 30000 } });
await session.wait({ text: ["1500000"], timeoutMs: 1000 });
await session.kill();
client.close();
console.log(JSON.stringify({ refused, message, typed: 1_500_000 }));
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tw-npm-"));
  const out = join(dir, "packages");
  must(await run([process.execPath, join(ROOT, "scripts/npm-packages.ts"), "--targets", "linux-x64", "--out", out, "--pack"], process.env as Record<string, string>, ROOT), "npm-packages");
  project = join(dir, "project");
  must(await run(["mkdir", "-p", project], process.env as Record<string, string>, dir), "mkdir");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  writeFileSync(join(project, "vim.mjs"), VIM_SCRIPT);
  writeFileSync(join(project, "frames.mjs"), FRAMES_SCRIPT);
  must(await run(["npm", "install", "--no-fund", "--no-audit", "--prefer-offline", join(out, `tuiwright-${VERSION}.tgz`), join(out, `tuiwright-linux-x64-${VERSION}.tgz`)], process.env as Record<string, string>), "npm install");
}, 300_000);

afterAll(async () => {
  // Stop the packaged binary's daemon (the world's own disposal uses dist/tuiwright).
  if (project && existsSync(join(project, "node_modules/.bin/tuiwright"))) await run([join(project, "node_modules/.bin/tuiwright"), "daemon", "stop"]);
  await world[Symbol.asyncDispose]();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the npm package", () => {
  test("npx tuiwright and bunx tuiwright run the platform package's binary", async () => {
    const version = must(await run(["npx", "--no-install", "tuiwright", "--version"]), "npx");
    expect(version.stdout).toMatch(new RegExp(`^${VERSION.replaceAll(".", "\\.")}\\+[0-9a-f]{12}\\n$`));
    const bunx = must(await run([process.execPath, "x", "tuiwright", "--version"]), "bun x");
    expect(bunx.stdout).toBe(version.stdout);
    const usage = await run(["npx", "--no-install", "tuiwright", "snapshto"]);
    expect(usage.code).toBe(64);
    expect(usage.stderr).toContain("did you mean snapshot?");
    const installed = JSON.parse(readFileSync(join(project, "node_modules/tuiwright/package.json"), "utf8"));
    expect(installed.optionalDependencies).toMatchObject({ "@tuiwright/linux-x64": VERSION, "@tuiwright/darwin-arm64": VERSION, "@tuiwright/linux-arm64-musl": VERSION });
  }, 60_000);

  test("a Node script drives vim through the library, on the daemon the CLI uses", async () => {
    const node = must(await run(["node", "vim.mjs", "from-node"]), "node vim.mjs");
    const result = JSON.parse(node.stdout);
    expect(result.firstRow).toBe("typed by from-node");
    const cliVersion = (await run([join(project, "node_modules/.bin/tuiwright"), "--version"])).stdout.trim();
    expect(result.version).toBe(cliVersion);
    // The CLI sees the library's session: one daemon, one version.
    const listed = must(await run([join(project, "node_modules/.bin/tuiwright"), "--json", "list"]), "list");
    expect(JSON.parse(listed.stdout).sessions.map((s: { name: string }) => s.name)).toContain("from-node");
    const text = must(await run([join(project, "node_modules/.bin/tuiwright"), "--plain", "snapshot", "--session", "from-node"]), "snapshot");
    expect(text.stdout.split("\n")[0]).toBe("typed by from-node");
  }, 60_000);

  test("from Node, a request over the 1 MiB frame limit fails at once (no hang) and long text is typed in pieces", async () => {
    const node = must(await run(["node", "frames.mjs"]), "node frames.mjs");
    expect(JSON.parse(node.stdout)).toEqual({ refused: "bad-data", message: expect.stringContaining("exceeds the 1 MiB frame limit (adapter.check)"), typed: 1_500_000 });
  });

  test("the same script runs on Deno and on Bun", async () => {
    const deno = must(await run([DENO, "run", "-A", "vim.mjs", "from-deno"]), "deno run");
    expect(JSON.parse(deno.stdout).firstRow).toBe("typed by from-deno");
    const bun = must(await run([process.execPath, "vim.mjs", "from-bun"]), "bun vim.mjs");
    expect(JSON.parse(bun.stdout).firstRow).toBe("typed by from-bun");
  }, 60_000);

  test("the declarations type-check a consumer and reject a wrong parameter", async () => {
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "esnext", lib: ["esnext", "dom"], strict: true, noEmit: true, skipLibCheck: false, types: [] } }));
    writeFileSync(join(project, "check.ts"), [
      'import { connect, TuiwrightError, type Result } from "tuiwright";',
      "export async function main(): Promise<string> {",
      "  await using client = await connect({ namespace: \"x\" });",
      '  const s = await client.spawn({ argv: ["vim"], cols: 80 });',
      "  const snap: Result<\"snapshot\"> = await s.snapshot({ format: \"text\" });",
      "  // @ts-expect-error: spawn takes argv, not command",
      '  await client.spawn({ command: ["vim"] });',
      "  return snap.text ?? String(TuiwrightError);",
      "}",
    ].join("\n"));
    const tsc = await run([join(ROOT, "node_modules/.bin/tsc"), "-p", "."]);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
  }, 60_000);

  test("the launcher reports a missing binary clearly (exit 69)", async () => {
    const missing = await run([join(project, "node_modules/.bin/tuiwright"), "--version"], { ...world.env, TUIWRIGHT_BIN: join(dir, "nope") });
    expect(missing.code).toBe(69);
    expect(missing.stderr).toContain(`TUIWRIGHT_BIN is "${join(dir, "nope")}", which does not exist`);
  });
});

/** The README's and docs' `js run` blocks, as a user copies them into a project with the package
 * installed: a `node:test` file runs under `node --test` and `deno test -A --no-check`, a script under `node`
 * and `deno run -A` (the flag the docs name). Each must end by itself and leave no session. */
describe("the library examples in README.md and docs/", () => {
  for (const block of runnableBlocks("js")) {
    const isTest = block.code.includes('from "node:test"');
    const file = `${block.file.replace(/\W+/g, "-")}-${block.line}${isTest ? ".test" : ""}.mjs`;
    test(`${block.file}:${block.line} runs as written on Node and on Deno`, async () => {
      writeFileSync(join(project, file), block.code);
      const tuiwright = join(project, "node_modules/.bin/tuiwright");
      const sessions = async () => JSON.parse(must(await run([tuiwright, "--json", "list"]), "list").stdout).sessions.length as number;
      const before = await sessions();
      must(await run(isTest ? ["node", "--test", file] : ["node", file]), `node ${file}`);
      expect(await sessions()).toBe(before);
      must(await run(isTest ? [DENO, "test", "-A", "--no-check", file] : [DENO, "run", "-A", file]), `deno ${file}`);
      expect(await sessions()).toBe(before);
    }, 120_000);
  }
});
