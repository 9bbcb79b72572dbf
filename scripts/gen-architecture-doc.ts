// Writes docs/architecture.md: the layer diagram drawn from the rules scripts/check-layers.ts
// enforces (so the picture is the rule, not a memory of it) and the path of one request.
// `bun scripts/gen-architecture-doc.ts`; tests/unit/architecture-doc.test.ts fails when the
// file is stale.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { METHODS } from "../lib/protocol/methods.ts";
import { ALLOWED } from "./check-layers.ts";

const folders = () => Object.keys(ALLOWED).filter((f) => !ALLOWED[f]!.includes("*"));

/** A folder's rank: 0 for one that imports nothing, else one more than the highest it imports. */
export function layerRanks(allowed: Record<string, string[]> = ALLOWED): Map<string, number> {
  const ranks = new Map<string, number>();
  const rank = (folder: string): number => {
    const known = ranks.get(folder);
    if (known !== undefined) return known;
    const below = (allowed[folder] ?? []).filter((f) => f !== "*");
    const value = below.length === 0 ? 0 : 1 + Math.max(...below.map(rank));
    ranks.set(folder, value);
    return value;
  };
  for (const folder of Object.keys(allowed)) if (!(allowed[folder] ?? []).includes("*")) rank(folder);
  return ranks;
}

/** The allowed imports minus those another allowed path already implies (A→C when A→B→C):
 * what is left is the picture; the table below it lists every allowed import. */
export function directLinks(allowed: Record<string, string[]> = ALLOWED): [string, string][] {
  const reach = (from: string, seen = new Set<string>()): Set<string> => {
    for (const to of allowed[from] ?? []) {
      if (seen.has(to)) continue;
      seen.add(to);
      reach(to, seen);
    }
    return seen;
  };
  const links: [string, string][] = [];
  for (const from of Object.keys(allowed)) {
    const targets = (allowed[from] ?? []).filter((t) => t !== "*");
    for (const to of targets) {
      const implied = targets.some((other) => other !== to && reach(other).has(to));
      if (!implied) links.push([from, to]);
    }
  }
  return links;
}

const id = (folder: string) => (folder === "." ? "main" : folder.replaceAll("/", "_"));
const label = (folder: string) => (folder === "." ? "main.ts" : folder);

/** Which methods the daemon forwards, read from the method table: the forwarded ones, and
 * those that take a session yet have a daemon handler (lifecycle, leases, subscriptions). */
export function forwarding(methods: Record<string, { forward?: true; params: unknown }> = METHODS): { forwarded: string[]; handled: string[] } {
  const takesSession = (params: unknown) => Object.hasOwn((params as { entries?: object }).entries ?? {}, "session");
  const names = Object.keys(methods);
  return {
    forwarded: names.filter((name) => methods[name]!.forward),
    handled: names.filter((name) => !methods[name]!.forward && takesSession(methods[name]!.params)),
  };
}

const { forwarded, handled } = forwarding();
const FORWARD_SENTENCE = `${forwarded.length} methods are: every one that takes a session but ${handled.slice(0, -1).join(", ")} and ${handled.at(-1)}`;

const FLOW = `## One request, end to end

\`tuiwright type --session s1 "hi"\` goes through these, each a layer above:

1. **CLI** — \`main.ts\` → \`lib/cli/run.ts\` parses the words against the verb table
   (\`lib/protocol/methods/*.ts\` rows, \`lib/cli/invocation.ts\`) into one method call with params.
   The thin CLI loads no valibot, xterm or daemon code (checked by scripts/check-layers.ts).
2. **Socket** — \`lib/transport/daemon-connection.ts\` checks the socket directory is yours
   (mode 0700), starts the daemon if none answers (\`tuiwright daemon run\`, \`entries/daemon.ts\`), and
   \`lib/transport/rpc-client.ts\` sends one JSON-RPC 2.0 request as a line of NDJSON on the Unix
   socket, with the client's version in its envelope.
3. **Daemon dispatch** — \`lib/transport/rpc-server.ts\` reads the frame (size and idle limits in
   \`connection-limits.ts\`); \`lib/daemon/dispatch.ts\` finds the method in the table and validates
   the params against its valibot schema (a bad field is a usage error naming its path). A method
   the table marks \`forward\` goes through \`pass-through.ts\`: it looks the session up in
   \`registry.ts\` and checks its write lease, and the rest is the worker's. ${FORWARD_SENTENCE}
   (read from the table). Those, and the methods without a session (lifecycle, events,
   desktops), have their handler in \`lib/daemon/handlers.ts\`.
4. **Worker** — \`lib/link/worker-handle.ts\` posts the op, with the session's slot, to the
   Web Worker thread hosting it (\`workers/session.ts\`; \`worker-pool.ts\` places program and
   shell sessions on a few shared threads, each browser on its own; \`worker-host.ts\` validates
   every message from a thread as untrusted and hands it to its session); in the worker,
   \`lib/worker/ops.ts\` runs the op on the session's kind (\`session-kind.ts\`: \`program-kind.ts\`
   for program and shell sessions, \`browser-kind.ts\` for Carbonyl), which drives the session
   core and its facets (shell, browser, snapshot).
5. **PTY and screen** — \`lib/pty/pty.ts\` writes the encoded keys to the pseudo-terminal
   (\`lib/terminal/keys.ts\` encodes them; flow control in \`flow-control.ts\`); the program's
   output is parsed by @xterm/headless in \`lib/terminal/screen.ts\` (the only importer of xterm),
   and \`lib/waits\` answers when the screen shows what was asked — never after a fixed delay.

The reply goes back the same way: worker → daemon (checks it against the method's result
schema and adds the session name) → socket → CLI,
which prints it (\`lib/present\`) as text or \`--json\`, with the exit code from the error table
(\`lib/protocol/errors.ts\`). MCP (\`lib/mcp\`), HTTP (\`lib/http\`) and the library (\`lib/client\`)
are other clients of the same socket and the same method table.
`;

const HABITS = `
## Habits

- **Checks on every run.** \`scripts/test.sh\` (and so \`.ci/run\` and \`.github/workflows/ci.yml\`, on
  every push and pull request) runs the type check, these layer rules, the file-write check,
  the linter and the build before any test.
- **Lint: oxlint** (\`.oxlintrc.json\`), chosen over Biome by measuring both on this repository
  (2 cores, loaded): oxlint 3.2–5.4 s wall with 67 findings under its defaults; Biome's \`lint\`
  13–21 s with 112 errors and 1085 warnings under its defaults. The correctness and suspicious
  categories are errors, minus the rules the code breaks on purpose (each with its reason); the
  rules it nearly meets are warnings until their last hit is fixed. No formatter has been run
  over the code: reformatting every file would collide with every branch in flight.
- **Flakes are counted, not hidden.** \`scripts/test-runner.ts\` runs each failing file once more on
  its own; a test whose outcome changed is *flaky* — never passed — and more than
  \`TUIWRIGHT_TEST_FLAKY_BUDGET\` (5) of them fail the run. test.sh ends with
  \`N passed, N failed, N flaky\`; \`.ci/run\` adds CI's \`N passed, N failed\`, which agrees with the
  exit status (flaky tests within the budget are in neither number, over it in failed).
- **Settings have one home**: \`lib/runtime/settings.ts\` ([settings.md](settings.md)).
`;

export function architectureDoc(allowed: Record<string, string[]> = ALLOWED): string {
  const ranks = layerRanks(allowed);
  const byRank = new Map<number, string[]>();
  for (const folder of folders()) byRank.set(ranks.get(folder)!, [...(byRank.get(ranks.get(folder)!) ?? []), folder]);
  const top = Math.max(...byRank.keys());
  const lines = [
    "# Architecture",
    "",
    "Generated by `bun scripts/gen-architecture-doc.ts` from the layer rules in `scripts/check-layers.ts`, which `scripts/test.sh` enforces on every import; a test fails when this file is stale. DESIGN.md says why the layers are what they are.",
    "",
    "## Layers",
    "",
    "An arrow is an import a folder may make. Where A may import B and B may import C, A's own right to import C is not drawn (the picture would be a tangle); the table below lists every allowed import. `entries/` may import anything: each entry point is its own bundle, loaded by path when its command runs.",
    "",
    "```mermaid",
    "flowchart TD",
  ];
  for (let rank = top; rank >= 0; rank--) {
    lines.push(`  subgraph rank${rank} [" "]`, "    direction LR");
    for (const folder of (byRank.get(rank) ?? []).sort()) lines.push(`    ${id(folder)}["${label(folder)}"]`);
    lines.push("  end");
  }
  for (const [from, to] of directLinks(allowed)) lines.push(`  ${id(from)} --> ${id(to)}`);
  lines.push("```", "", "| Folder | Rank | May import |", "| --- | --- | --- |");
  for (const folder of folders().sort((a, b) => ranks.get(b)! - ranks.get(a)! || a.localeCompare(b))) {
    const may = allowed[folder]!;
    lines.push(`| \`${label(folder)}\` | ${ranks.get(folder)} | ${may.length === 0 ? "nothing (only itself)" : may.map((f) => `\`${f}\``).join(", ")} |`);
  }
  lines.push("| `entries` | — | anything |", "", FLOW, HABITS.trimStart());
  return `${lines.join("\n")}`;
}

export const ARCHITECTURE_DOC = resolve(import.meta.dir, "../docs/architecture.md");

if (import.meta.main) writeFileSync(ARCHITECTURE_DOC, architectureDoc());
