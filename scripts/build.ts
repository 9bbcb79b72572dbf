// Builds dist/tuiwright: one executable holding the CLI, the daemon and the session worker. The build id is a hash of the sources, so a
// changed binary refuses to talk to an old daemon while an identical rebuild does not.
// `bun scripts/build.ts [--target bun-linux-arm64] [--outfile PATH]`: the release script builds every platform through this.
import { Glob } from "bun";
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { METHOD_FACTS_FILE, methodFactsSource } from "./gen-method-facts.ts";
import { lazySdkSchemas } from "./lazy-sdk-schemas.ts";

const { values: flags } = parseArgs({ options: { target: { type: "string" }, outfile: { type: "string" } } });
const root = new URL("..", import.meta.url).pathname;
// The thin CLI's plain-data view of the method table, regenerated so it can never drift.
await Bun.write(METHOD_FACTS_FILE, methodFactsSource());
const hash = createHash("sha256");
for (const pattern of ["main.ts", "scripts/lazy-sdk-schemas.ts", "lib/**/*.ts", "entries/*.ts", "workers/*.ts", "adapters/*.toml", "SKILL.md", "package.json", "bun.lock"]) {
  for (const file of [...new Glob(pattern).scanSync({ cwd: root })].sort()) {
    hash.update(file);
    hash.update(await Bun.file(`${root}/${file}`).bytes());
  }
}
const buildId = hash.digest("hex").slice(0, 12);
const outfile = flags.outfile ?? "dist/tuiwright";
// Every worker and entries/ file is its own entry point (loaded by path at run time).
const entries = ["entries/*.ts", "workers/*.ts"].flatMap((pattern) => [...new Glob(pattern).scanSync({ cwd: root })].sort());
// The MCP SDK's protocol schemas are built on first use, not when it loads (scripts/lazy-sdk-schemas.ts).
const built = await Bun.build({
  entrypoints: ["main.ts", ...entries].map((entry) => resolve(root, entry)),
  root,
  compile: { ...(flags.target ? { target: flags.target as Bun.Build.CompileTarget } : {}), outfile: resolve(root, outfile) },
  bytecode: true,
  format: "esm",
  minify: true,
  define: { TUIWRIGHT_BUILD_ID: JSON.stringify(buildId) },
  plugins: [lazySdkSchemas],
  throw: false,
});
for (const log of built.logs) console.error(log);
if (!built.success) process.exit(1);
console.log(`built ${outfile}${flags.target ? ` for ${flags.target}` : ""} (build ${buildId})`);
