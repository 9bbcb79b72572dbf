// Keeping up with the AI coding CLIs: which of the versions the manifests were tested with
// (scripts/install-ai-clis.sh pins them; each adapters/<cli>.toml says `tested = "PKG VERSION"`)
// are behind npm's latest. Asks npm (`npm view PKG version`, one look-up per CLI), so it is not
// part of the default test run.
//
//   bun scripts/check-ai-cli-versions.ts          report; exit 0 when every pin is current,
//                                                 1 when one is behind, 2 when pins disagree
//   bun scripts/check-ai-cli-versions.ts --json   the same as JSON
//   --latest FILE                                 read the latest versions from a JSON object
//                                                 {"pkg": "version"} instead of asking npm
//
// To run the manifests' tests against a newer CLI: install it into another tools directory
// (`npm install --prefix DIR PKG@VERSION`) and run the tests with TUIWRIGHT_AI_CLIS=DIR.
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

export type Pin = { cli: string; pkg: string; pinned: string; tested: string | null };
export type Row = Pin & { latest: string | null; status: "current" | "behind" | "ahead" | "unknown" | "mismatch"; note?: string };

/** The pins of install-ai-clis.sh ("pkg@version" in its PACKAGES list) and each manifest's `tested`. */
export function readPins(root: string): Pin[] {
  const script = readFileSync(join(root, "scripts/install-ai-clis.sh"), "utf8");
  const list = /PACKAGES=\(([\s\S]*?)\)/.exec(script)?.[1] ?? "";
  const specs = [...list.matchAll(/"((?:@[^/"]+\/)?[^@"]+)@([^"]+)"/g)].map((m) => ({ pkg: m[1]!, pinned: m[2]! }));
  const tested = new Map<string, { cli: string; version: string }>();
  for (const file of readdirSync(join(root, "adapters")).filter((f) => f.endsWith(".toml"))) {
    const m = /^tested = "(\S+) (\S+)"/m.exec(readFileSync(join(root, "adapters", file), "utf8"));
    if (m) tested.set(m[1]!, { cli: file.replace(/\.toml$/, ""), version: m[2]! });
  }
  return specs.map(({ pkg, pinned }) => ({ cli: tested.get(pkg)?.cli ?? pkg, pkg, pinned, tested: tested.get(pkg)?.version ?? null }));
}

/** Compares dotted numeric versions (a pre-release suffix is ignored): -1, 0 or 1. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/[-+].*$/, "").split(".").map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export function compare(pins: Pin[], latest: (pkg: string) => string | null): Row[] {
  return pins.map((pin) => {
    const newest = latest(pin.pkg);
    if (pin.tested !== null && pin.tested !== pin.pinned) return { ...pin, latest: newest, status: "mismatch", note: `adapters/${pin.cli}.toml says it was tested with ${pin.tested}, install-ai-clis.sh pins ${pin.pinned}` };
    if (newest === null) return { ...pin, latest: null, status: "unknown", note: "npm did not answer" };
    const order = compareVersions(pin.pinned, newest);
    return { ...pin, latest: newest, status: order < 0 ? "behind" : order > 0 ? "ahead" : "current" };
  });
}

function npmLatest(pkg: string): string | null {
  const result = spawnSync("npm", ["view", pkg, "version"], { encoding: "utf8", timeout: 60_000 });
  const version = result.status === 0 ? result.stdout.trim().split("\n").at(-1)?.trim() : "";
  return version && /^\d+\.\d+/.test(version) ? version : null;
}

function main(argv: string[]): number {
  const json = argv.includes("--json");
  const at = argv.indexOf("--latest");
  for (const arg of argv) if (arg.startsWith("-") && arg !== "--json" && arg !== "--latest") {
    console.error(`check-ai-cli-versions: unknown flag ${JSON.stringify(arg)} (flags: --json, --latest FILE)`);
    return 64;
  }
  let latest: (pkg: string) => string | null = npmLatest;
  if (at >= 0) {
    const file = argv[at + 1];
    if (!file) { console.error("check-ai-cli-versions: --latest needs a FILE (a JSON object {\"pkg\": \"version\"})"); return 64; }
    let table: Record<string, string>;
    try {
      table = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      console.error(`check-ai-cli-versions: cannot read ${file}: ${(error as Error).message}`);
      return 65;
    }
    latest = (pkg) => (typeof table[pkg] === "string" ? table[pkg] : null);
  }
  const rows = compare(readPins(join(import.meta.dir, "..")), latest);
  if (json) console.log(JSON.stringify(rows, null, 2));
  else for (const row of rows) console.log(`${row.cli.padEnd(9)} ${row.pkg.padEnd(32)} pinned ${row.pinned.padEnd(9)} latest ${(row.latest ?? "?").padEnd(9)} ${row.status}${row.note ? ` (${row.note})` : ""}`);
  if (rows.some((row) => row.status === "mismatch")) return 2;
  return rows.some((row) => row.status === "behind" || row.status === "unknown") ? 1 : 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
