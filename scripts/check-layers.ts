// Checks the layering DESIGN.md describes, so it is a rule and not prose:
//  1. each folder of lib/ (and the entry folders) imports only from the folders its row allows;
//  2. main.ts's static import closure (what every CLI start loads) holds no valibot, xterm,
//     smol-toml, MCP SDK or daemon code — the heavy parts load through entries/ by path — and
//     no node:fs (~1 ms of every start: lib/runtime/node-fs.ts loads it at the first call).
// `bun scripts/check-layers.ts` exits 1 naming each offending import. Type-only imports are
// erased at build time and do not count. A folder missing from the table is an error too.
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

/** Folder → the folders it may import from (besides itself). Lower layers first. */
export const ALLOWED: Record<string, string[]> = {
  "lib/protocol": [],
  "lib/runtime": ["lib/protocol"],
  "lib/pty": ["lib/protocol", "lib/runtime"],
  "lib/terminal": ["lib/protocol"],
  "lib/outline": ["lib/protocol", "lib/terminal"],
  "lib/selector": ["lib/protocol", "lib/terminal", "lib/outline"],
  "lib/adapters": ["lib/protocol", "lib/runtime", "lib/terminal", "lib/outline"],
  "lib/render": ["lib/protocol", "lib/terminal", "lib/outline"],
  "lib/record": ["lib/protocol", "lib/runtime", "lib/terminal"],
  "lib/shell": ["lib/protocol", "lib/terminal", "lib/waits"],
  "lib/waits": ["lib/protocol", "lib/terminal", "lib/outline", "lib/selector"],
  "lib/browser": ["lib/protocol", "lib/runtime", "lib/outline"],
  /** The daemon⇄worker protocol (messages, op and event types) and the daemon's end of it. */
  "lib/link": ["lib/protocol", "lib/runtime"],
  /** Inside a session worker: the session core and its facets (shell, browser, snapshot). */
  "lib/worker": ["lib/protocol", "lib/runtime", "lib/pty", "lib/terminal", "lib/outline", "lib/selector", "lib/waits", "lib/adapters", "lib/render", "lib/record", "lib/shell", "lib/browser", "lib/link"],
  "lib/transport": ["lib/protocol", "lib/runtime"],
  "lib/desktop": ["lib/protocol", "lib/runtime", "lib/outline", "lib/adapters", "lib/transport"],
  "lib/daemon": ["lib/protocol", "lib/runtime", "lib/terminal", "lib/adapters", "lib/render", "lib/shell", "lib/browser", "lib/link", "lib/transport", "lib/desktop"],
  "lib/present": ["lib/protocol", "lib/outline"],
  "lib/cli": ["lib/present", "lib/protocol", "lib/runtime", "lib/terminal", "lib/outline", "lib/record", "lib/transport"],
  "lib/mcp": ["lib/present", "lib/protocol", "lib/runtime", "lib/outline", "lib/transport"],
  "lib/http": ["lib/protocol", "lib/runtime", "lib/transport", "lib/cli", "lib/mcp"],
  "lib/client": ["lib/protocol", "lib/runtime", "lib/record", "lib/transport"],
  workers: ["lib/protocol", "lib/runtime", "lib/link", "lib/worker", "lib/desktop"],
  entries: ["*"],
  ".": ["lib/cli", "lib/runtime"],
};

/** Imports that break the table today, each to be removed (not added to). */
export const KNOWN: Set<string> = new Set([]);

/** Cycles that exist today, each to be cut (not added to). */
export const KNOWN_CYCLES: Set<string> = new Set([]);

/** What the thin CLI must never load at start. */
const HEAVY = [/^valibot$/, /^@valibot\//, /^@xterm\//, /^smol-toml$/, /^@modelcontextprotocol\//, /^@resvg\//, /^(node:)?fs$/];

type Import = { from: string; to: string; typeOnly: boolean };

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm;

/** Files whose text is given instead of read (tests plant imports this way). */
let planted = new Map<string, string>();

function importsOf(file: string): Import[] {
  const text = planted.get(file) ?? readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(IMPORT)].map((m) => ({ from: file, to: m[3]!, typeOnly: m[2] !== undefined || /^\s*import\s+\{\s*type\s[^}]*\}\s+from/.test(m[0]) }));
}

function resolveRelative(from: string, to: string): string | null {
  return to.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(from), to)) : null;
}

/** A file's layer: its folder, except that lib/protocol's subfolders (compat tables, generated
 * data) are part of the protocol layer. */
function folderOf(file: string): string {
  const dir = dirname(file);
  if (dir.startsWith("lib/protocol/")) return "lib/protocol";
  return dir === "" ? "." : dir;
}

export function checkLayers(plant: Record<string, string> = {}): string[] {
  planted = new Map(Object.entries(plant));
  const problems: string[] = [];
  const found = ["main.ts", ...["lib/**/*.ts", "workers/*.ts", "entries/*.ts"].flatMap((p) => [...new Glob(p).scanSync({ cwd: ROOT })])];
  const files = [...new Set([...found, ...planted.keys()])].filter((f) => !f.endsWith(".d.ts")).sort();
  for (const file of files) {
    const folder = folderOf(file);
    const allowed = ALLOWED[folder];
    if (!allowed) {
      problems.push(`${file}: folder ${folder} has no row in scripts/check-layers.ts (say which layers it may import)`);
      continue;
    }
    for (const edge of importsOf(file)) {
      const target = resolveRelative(file, edge.to);
      if (target === null || edge.typeOnly || !target.endsWith(".ts")) continue; // packages, or data files (manifests, SKILL.md)
      const targetFolder = folderOf(target);
      if (targetFolder === folder || allowed.includes("*") || allowed.includes(targetFolder)) continue;
      if (KNOWN.has(`${file} -> ${target}`)) continue;
      problems.push(`${file} imports ${target}: ${folder} may import only ${allowed.join(", ") || "nothing outside itself"}`);
    }
  }
  problems.push(...checkThinClosure(), ...checkCycles(files));
  return problems;
}

/** Import cycles between files (type-only imports aside): each is a tangle to cut. */
function checkCycles(files: string[]): string[] {
  const graph = new Map(files.map((file) => [file, importsOf(file).filter((e) => !e.typeOnly).map((e) => resolveRelative(file, e.to)).filter((t): t is string => t !== null && t.endsWith(".ts"))]));
  const problems: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") {
        const cycle = [...stack.slice(stack.indexOf(next)), next].join(" -> ");
        if (!KNOWN_CYCLES.has(cycle)) problems.push(`import cycle: ${cycle}`);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return problems;
}

/** main.ts's static closure: every non-type import followed, dynamic imports (by path) not. */
function checkThinClosure(): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const queue = ["main.ts"];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (file.startsWith("lib/daemon/")) problems.push(`the thin CLI loads daemon code: ${file} (reached from main.ts)`);
    for (const edge of importsOf(file)) {
      if (edge.typeOnly) continue;
      const target = resolveRelative(file, edge.to);
      if (target === null) {
        if (HEAVY.some((pattern) => pattern.test(edge.to))) problems.push(`the thin CLI loads ${edge.to}: imported by ${file} (reached from main.ts)`);
        continue;
      }
      // A known violation is reported by the table check; its file is light (no packages above).
      if (target.endsWith(".ts") && !KNOWN.has(`${file} -> ${target}`)) queue.push(target);
    }
  }
  return problems;
}

if (import.meta.main) {
  const problems = checkLayers();
  for (const problem of problems) console.error(problem);
  console.log(problems.length === 0 ? "layers: ok" : `layers: ${problems.length} problem(s)`);
  process.exit(problems.length === 0 ? 0 : 1);
}
