// bench/RESULTS.md holds other sections too (outline cost, desktop, AI CLIs…), written by other
// benches: a full run replaces only its own table, between markers, and every run appends one
// row to the history table, so a regression shows as a row that got worse.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const BEGIN = "<!-- bench:begin -->";
const END = "<!-- bench:end -->";
const HISTORY_BEGIN = "<!-- bench-history:begin -->";
const HISTORY_END = "<!-- bench-history:end -->";

export type HistoryRow = { date: string; build: string; groups: string; load: string; minutes: string; failed: string; ratios: string };

const HISTORY_HEADER = [
  "## History: one row per `bun run bench` run (`bun bench/run.ts GROUP…` runs too)",
  "",
  "Ratios are ours / the anchor's medians from that run: snapshot/floor is the CLI `snapshot --plain` against a compiled Bun hello-world, the rest against tmux or pexpect. The machine is shared: read the load average beside them.",
  "",
  "| date (UTC) | build | groups | load average (1 5 15 min) | minutes | failed rows | ratios |",
  "|---|---|---|---|---|---|---|",
].join("\n");

function read(path: string): string {
  return existsSync(path) ? readFileSync(path, "utf8") : "# Benchmark results\n";
}

/** Replaces the main table's section (or puts it after the title when there is none yet). */
export function writeMainTable(path: string, body: string): void {
  const text = read(path);
  const section = `${BEGIN}\n${body.trimEnd()}\n${END}`;
  const at = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  const next = at >= 0 && end > at
    ? text.slice(0, at) + section + text.slice(end + END.length)
    : text.replace(/^# Benchmark results\n/, `# Benchmark results\n\n${section}\n`);
  writeFileSync(path, next);
}

export function appendHistory(path: string, row: HistoryRow): void {
  let text = read(path);
  if (!text.includes(HISTORY_END)) text = `${text.trimEnd()}\n\n${HISTORY_BEGIN}\n${HISTORY_HEADER}\n${HISTORY_END}\n`;
  const cell = (s: string) => s.replaceAll("|", "\\|");
  const line = `| ${[row.date, row.build, row.groups, row.load, row.minutes, row.failed, row.ratios].map(cell).join(" | ")} |`;
  writeFileSync(path, text.replace(HISTORY_END, `${line}\n${HISTORY_END}`));
}
