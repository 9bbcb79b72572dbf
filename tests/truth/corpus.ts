// The whole corpus judged: every cast replayed to every `truth:` marker, each state's outline
// judged against its labels, and the totals per program.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { judge, withoutEvidence, type Claim, type ClickCheck, type Recall } from "./judge.ts";
import { readLabels } from "./labels.ts";
import { replayStates } from "./replay-states.ts";
import { SCENARIOS } from "./scenarios.ts";

export const CASTS = join(import.meta.dir, "casts");
export const LABELS = join(import.meta.dir, "labels");

/** `unevidenced`: semantic facts stated without evidence (withoutEvidence in judge.ts). */
export type StateResult = { cast: string; program: string; marker: string; claims: Claim[]; recall: Recall; clicks: ClickCheck[]; unevidenced: string[] };
export type CorpusResult = { states: StateResult[]; problems: string[] };

export async function judgeCorpus(): Promise<CorpusResult> {
  const states: StateResult[] = [];
  const problems: string[] = [];
  const casts = readdirSync(CASTS).filter((f) => f.endsWith(".cast")).sort();
  for (const file of casts) {
    const cast = file.replace(/\.cast$/, "");
    const labelFile = join(LABELS, `${cast}.toml`);
    if (!existsSync(labelFile)) {
      problems.push(`${cast}: no labels (write tests/truth/labels/${cast}.toml; bun tests/truth/show.ts tests/truth/casts/${file} prints its states)`);
      continue;
    }
    const labels = readLabels(labelFile, SCENARIOS.find((s) => s.name === cast)?.program ?? cast);
    const seen = new Set<string>();
    await replayStates(join(CASTS, file), ({ marker, screen, nodes }) => {
      seen.add(marker);
      const label = labels.states.find((s) => s.marker === marker);
      if (!label) {
        problems.push(`${cast}: marker ${JSON.stringify(marker)} has no label`);
        return;
      }
      const { claims, recall, clicks, labelProblems } = judge(label, nodes, screen.grid());
      for (const p of labelProblems) problems.push(`${cast} ${marker}: ${p}`);
      states.push({ cast, program: labels.program, marker, claims, recall, clicks, unevidenced: withoutEvidence(nodes) });
    });
    for (const s of labels.states) if (!seen.has(s.marker)) problems.push(`${cast}: label ${JSON.stringify(s.marker)} has no marker in the cast`);
  }
  return { states, problems };
}

export type ProgramRow = {
  program: string; states: number; claims: number; falseClaims: number; unjudged: number;
  recall: Recall; clicks: { ok: number; miss: number; fail: number };
};

export function perProgram(states: StateResult[]): ProgramRow[] {
  const rows = new Map<string, ProgramRow>();
  for (const s of states) {
    let row = rows.get(s.program);
    if (!row) {
      row = { program: s.program, states: 0, claims: 0, falseClaims: 0, unjudged: 0, recall: { selected: { labelled: 0, found: 0 }, focus: { labelled: 0, found: 0 }, input: { labelled: 0, found: 0 }, values: { labelled: 0, found: 0 } }, clicks: { ok: 0, miss: 0, fail: 0 } };
      rows.set(s.program, row);
    }
    row.states++;
    for (const c of s.claims) {
      if (c.kind === "click") continue;
      row.claims++;
      if (c.verdict === "false") row.falseClaims++;
      if (c.verdict === "unjudged") row.unjudged++;
    }
    for (const k of Object.keys(row.recall) as (keyof Recall)[]) {
      row.recall[k].labelled += s.recall[k].labelled;
      row.recall[k].found += s.recall[k].found;
    }
    for (const c of s.clicks) row.clicks[c.outcome]++;
  }
  return [...rows.values()].sort((a, b) => a.program.localeCompare(b.program));
}

/** Recall over every kind of label together (the table's "recall" column): labels found / labelled. */
export function recallOf(recall: Recall): { found: number; labelled: number } {
  const all = Object.values(recall);
  return { found: all.reduce((n, r) => n + r.found, 0), labelled: all.reduce((n, r) => n + r.labelled, 0) };
}

const ratio = (r: { labelled: number; found: number }) => (r.labelled === 0 ? "–" : `${r.found}/${r.labelled}`);
const percent = (found: number, labelled: number) => (labelled === 0 ? "–" : `${Math.round((100 * found) / labelled)}%`);

/** The per-program table as markdown (bench/RESULTS.md takes it as is). */
export function recallTable(rows: ProgramRow[]): string {
  const lines = [
    "| program | states | claims | false | unjudged | selected | focus | input | values | recall | clicks ok/miss/fail |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const total: ProgramRow = { program: "**all**", states: 0, claims: 0, falseClaims: 0, unjudged: 0, recall: { selected: { labelled: 0, found: 0 }, focus: { labelled: 0, found: 0 }, input: { labelled: 0, found: 0 }, values: { labelled: 0, found: 0 } }, clicks: { ok: 0, miss: 0, fail: 0 } };
  for (const row of [...rows, total]) {
    if (row !== total) {
      total.states += row.states; total.claims += row.claims; total.falseClaims += row.falseClaims; total.unjudged += row.unjudged;
      for (const k of Object.keys(row.recall) as (keyof Recall)[]) { total.recall[k].labelled += row.recall[k].labelled; total.recall[k].found += row.recall[k].found; }
      total.clicks.ok += row.clicks.ok; total.clicks.miss += row.clicks.miss; total.clicks.fail += row.clicks.fail;
    }
    const { found, labelled } = recallOf(row.recall);
    lines.push(`| ${row.program} | ${row.states} | ${row.claims} | ${row.falseClaims} | ${row.unjudged} | ${ratio(row.recall.selected)} | ${ratio(row.recall.focus)} | ${ratio(row.recall.input)} | ${ratio(row.recall.values)} | ${percent(found, labelled)} | ${row.clicks.ok}/${row.clicks.miss}/${row.clicks.fail} |`);
  }
  return lines.join("\n");
}
