// `bun scripts/npm-packages.ts [--targets linux-x64,...] [--out DIR] [--pack]`: the npm
// packages, the way esbuild and Bun ship theirs:
//   tuiwright               the `tuiwright` command (a Node launcher) and the client library,
//                           compiled to JavaScript with .d.ts; runs on Node ≥ 20, Deno and Bun
//   @tuiwright/<platform>   one per platform, holding the binary; npm installs only the one
//                           whose os/cpu/libc match (they are optionalDependencies of tuiwright)
// --pack runs `npm pack` in each, leaving the .tgz files in DIR.
import { chmodSync, copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { TARGETS } from "./targets.ts";

const root = new URL("..", import.meta.url).pathname;
const { values: flags } = parseArgs({ options: { targets: { type: "string" }, out: { type: "string" }, pack: { type: "boolean" } } });
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; dependencies: Record<string, string> };
const version = pkg.version;
const outDir = flags.out ?? join(root, "dist", "npm");
const platforms = flags.targets ? flags.targets.split(",").map((t) => t.trim()) : Object.keys(TARGETS);
for (const platform of platforms) if (!TARGETS[platform]) fail(`unknown target "${platform}"; known: ${Object.keys(TARGETS).join(", ")}`);

function fail(message: string): never {
  console.error(`npm-packages: ${message}`);
  process.exit(64);
}

function run(cmd: string[], cwd = root): string {
  const result = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) fail(`${cmd.join(" ")} failed (${result.exitCode}):\n${result.stdout}${result.stderr}`);
  return result.stdout.toString();
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

const REPOSITORY = { type: "git", url: "git+https://github.com/tuiwright/tuiwright.git" };
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

// One package per platform: the binary, with os/cpu/libc so npm skips the others.
for (const platform of platforms) {
  const dir = join(outDir, `tuiwright-${platform}`);
  mkdirSync(join(dir, "bin"), { recursive: true });
  run([process.execPath, join(root, "scripts/build.ts"), "--target", TARGETS[platform]!, "--outfile", join(dir, "bin", "tuiwright")]);
  const [os, cpu, libc] = platform.split("-") as [string, string, string | undefined];
  writeJson(join(dir, "package.json"), {
    name: `@tuiwright/${platform}`,
    version,
    description: `The tuiwright binary for ${platform} (installed by the tuiwright package)`,
    license: "MIT",
    repository: REPOSITORY,
    os: [os],
    cpu: [cpu],
    ...(os === "linux" ? { libc: [libc === "musl" ? "musl" : "glibc"] } : {}),
    files: ["bin/tuiwright"],
    preferUnplugged: true,
  });
  copyFileSync(join(root, "LICENSE"), join(dir, "LICENSE"));
}

// The main package: launcher, library, types.
const main = join(outDir, "tuiwright");
mkdirSync(join(main, "bin"), { recursive: true });
run([process.execPath, "build", "lib/client/portable.ts", "--target=node", "--format=esm", "--outfile", join(main, "lib", "index.js")]);
run([process.execPath, "build", "lib/client/launcher.ts", "--target=node", "--format=esm", "--outfile", join(main, "bin", "launcher.js")]);
const launcher = readFileSync(join(main, "bin", "launcher.js"), "utf8");
writeFileSync(join(main, "bin", "tuiwright.js"), `#!/usr/bin/env node\n${launcher}`);
rmSync(join(main, "bin", "launcher.js"));
chmodSync(join(main, "bin", "tuiwright.js"), 0o755);

// Declarations: tsc emits lib/'s tree; relative imports become .js as the consumer expects.
const typesOut = join(root, "dist", "npm-types");
rmSync(typesOut, { recursive: true, force: true });
run([join(root, "node_modules", ".bin", "tsc"), "-p", "tsconfig.npm.json"]);
for (const file of readdirSync(typesOut, { recursive: true, withFileTypes: false }) as string[]) {
  if (!file.endsWith(".d.ts")) continue;
  const target = join(main, "types", file);
  mkdirSync(join(target, ".."), { recursive: true });
  writeFileSync(target, readFileSync(join(typesOut, file), "utf8").replace(/(["'])(\.\.?\/[^"']+)\.ts\1/g, "$1$2.js$1"));
}
const types = "./types/client/portable.d.ts";

writeJson(join(main, "package.json"), {
  name: "tuiwright",
  version,
  description: "Drive terminal programs on pseudo-terminals for agents and CI: a terminal DOM with snapshots, refs, keys and waits",
  license: "MIT",
  repository: REPOSITORY,
  type: "module",
  bin: { tuiwright: "bin/tuiwright.js" },
  main: "./lib/index.js",
  types,
  exports: { ".": { types, default: "./lib/index.js" }, "./package.json": "./package.json" },
  engines: { node: ">=20" },
  files: ["bin", "lib", "types", "deno.json", "README.md", "LICENSE"],
  // The result types are valibot's inferred types: needed by TypeScript only, never loaded.
  dependencies: { valibot: pkg.dependencies.valibot },
  optionalDependencies: Object.fromEntries(Object.keys(TARGETS).map((p) => [`@tuiwright/${p}`, version])),
});
writeJson(join(main, "deno.json"), { name: "@tuiwright/client", version, exports: "./lib/index.js" });
copyFileSync(join(root, "LICENSE"), join(main, "LICENSE"));
writeFileSync(join(main, "README.md"), `# tuiwright

Drive terminal programs (editors, REPLs, TUIs, shells) on pseudo-terminals: snapshot the screen
as text or an outline with refs, press keys, type, and wait on screen state without sleeping.

\`\`\`sh
npx tuiwright spawn --session s -- vim
npx tuiwright snapshot --session s
\`\`\`

\`\`\`js
import { connect } from "tuiwright";   // Node >= 20, Deno, Bun
const client = await connect();        // starts the packaged binary's daemon if needed
const vim = await client.spawn({ argv: ["vim"] });
await vim.type("ihello");
await vim.wait({ text: ["hello"] });
console.log(await vim.text());
await vim.kill();
client.close();
\`\`\`

The binary comes from the optional dependency for your platform (@tuiwright/linux-x64, …);
set TUIWRIGHT_BIN to use another one. Full documentation: the repository's README.md.
`);

console.log(`wrote ${relative(root, outDir) || outDir}: tuiwright, ${platforms.map((p) => `@tuiwright/${p}`).join(", ")}`);
if (flags.pack) {
  for (const dir of ["tuiwright", ...platforms.map((p) => `tuiwright-${p}`)]) {
    const tarball = run(["npm", "pack", "--silent", "--pack-destination", outDir], join(outDir, dir)).trim().split("\n").pop();
    console.log(`packed ${join(outDir, tarball ?? "?")}`);
  }
}
