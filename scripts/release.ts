// `bun run release [--version X] [--targets linux-x64,darwin-arm64] [--out DIR]`: builds the
// binary for every platform Bun can cross-compile to, gzips each, writes SHA256SUMS, stamps the
// version into package.json and adds a CHANGELOG.md entry when the version is new. The layout
// of DIR is what install.sh downloads: tuiwright-<platform>.gz next to SHA256SUMS.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { TARGETS } from "./targets.ts";


const root = new URL("..", import.meta.url).pathname;

function fail(message: string): never {
  console.error(`release: ${message}`);
  process.exit(64);
}

const { values: flags } = parseArgs({
  options: {
    version: { type: "string" },
    targets: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (flags.help) {
  console.log("usage: bun run release [--version X.Y.Z] [--targets linux-x64,...] [--out DIR]");
  console.log(`targets: ${Object.keys(TARGETS).join(", ")}`);
  process.exit(0);
}

const packagePath = join(root, "package.json");
const packageText = readFileSync(packagePath, "utf8");
const packageVersion = (JSON.parse(packageText) as { version: string }).version;
const version = (flags.version ?? packageVersion).replace(/^v/, "");
if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) fail(`version "${version}" is not semver (X.Y.Z or X.Y.Z-pre)`);
const platforms = flags.targets ? flags.targets.split(",").map((t) => t.trim()) : Object.keys(TARGETS);
for (const platform of platforms) {
  if (!TARGETS[platform]) fail(`unknown target "${platform}"; known: ${Object.keys(TARGETS).join(", ")}`);
}
const outDir = flags.out ?? join(root, "dist", "release", `v${version}`);

// Stamp: the binary's --version comes from package.json (lib/runtime/self.ts).
if (version !== packageVersion) {
  writeFileSync(packagePath, packageText.replace(`"version": "${packageVersion}"`, `"version": "${version}"`));
  console.log(`stamped package.json ${packageVersion} → ${version}`);
}
addChangelogEntry(version);

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const sums: string[] = [];
const rows: string[] = [];
for (const platform of platforms) {
  const raw = join(outDir, `tuiwright-${platform}`);
  const built = Bun.spawnSync([process.execPath, join(root, "scripts/build.ts"), "--target", TARGETS[platform]!, "--outfile", raw], {
    cwd: root, stdout: "ignore", stderr: "inherit",
  });
  if (built.exitCode !== 0) fail(`building ${platform} (${TARGETS[platform]}) failed with exit ${built.exitCode}`);
  const bytes = readFileSync(raw);
  // Level 9, no name or time in the header: the same binary gives the same artifact.
  const packed = Bun.gzipSync(bytes, { level: 9 });
  const artifact = `tuiwright-${platform}.gz`;
  writeFileSync(join(outDir, artifact), packed);
  rmSync(raw);
  sums.push(`${createHash("sha256").update(packed).digest("hex")}  ${artifact}`);
  rows.push(`${platform.padEnd(18)} ${mb(bytes.length).padStart(9)} ${mb(packed.length).padStart(9)}  ${((packed.length / bytes.length) * 100).toFixed(0)}%`);
}
writeFileSync(join(outDir, "SHA256SUMS"), `${sums.join("\n")}\n`);
writeFileSync(join(outDir, "VERSION"), `${version}\n`);
console.log(`${"platform".padEnd(18)} ${"raw".padStart(9)} ${"gzip -9".padStart(9)}`);
for (const row of rows) console.log(row);
console.log(`wrote ${outDir} (tuiwright ${version}: ${platforms.length} artifacts, SHA256SUMS, VERSION)`);

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** A `## vX — date` section listing the commits since the previous tag, unless one exists. */
function addChangelogEntry(version: string): void {
  const path = join(root, "CHANGELOG.md");
  const current = existsSync(path) ? readFileSync(path, "utf8") : "# Changelog\n";
  if (current.includes(`\n## v${version} `) || current.includes(`\n## v${version}\n`)) return;
  const previous = Bun.spawnSync(["git", "describe", "--tags", "--abbrev=0"], { cwd: root, stderr: "ignore" });
  const range = previous.exitCode === 0 ? [`${previous.stdout.toString().trim()}..HEAD`] : [];
  const log = Bun.spawnSync(["git", "log", "--no-merges", "--format=- %s", ...range], { cwd: root, stderr: "ignore" });
  const lines = log.exitCode === 0 ? log.stdout.toString().trim() : "";
  const date = new Date().toISOString().slice(0, 10);
  const entry = `## v${version} — ${date}\n\n${lines || "- (no commits since the previous tag)"}\n`;
  const [head, ...rest] = current.split(/\n(?=## )/);
  writeFileSync(path, [head!.trimEnd() + "\n", entry, ...rest].join("\n"));
  console.log(`CHANGELOG.md: added v${version}`);
}
