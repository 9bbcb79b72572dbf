// `replay DIR --expect-snapshot GOLDENS`: every DIR/NAME.cast checked against GOLDENS/NAME.snap,
// several at once (--jobs, default one per core). Each check is this binary's own
// `replay CAST --expect-snapshot FILE --json` in a child process, so the checks run on every
// core and a cast that crashes its replay fails alone. A cast that does not pass is tried again
// up to --retries times; one that passes then is flaky (a replay of a finished cast is
// deterministic, so this only happens when something around it was not: a crash, a cast still
// being written). The run reports as CI wants it: a line per cast and a summary, --junit FILE,
// --annotations github; exit 1 when a cast failed.
import { availableParallelism } from "node:os";
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { TuiwrightError } from "../lib/protocol/errors.ts";
import { countOutcomes, githubAnnotations, junitXml, summaryLine, type CastOutcome } from "../lib/record/suite-report.ts";
import { runProcess } from "../lib/runtime/run-process.ts";
import { selfCommand } from "../lib/runtime/self.ts";
import { writeOutputFile } from "../lib/runtime/output-file.ts";
import { printOut } from "../lib/runtime/stdio.ts";

export type SuiteOptions = {
  dir: string;
  goldens: string;
  jobs: number | undefined;
  retries: number;
  junit: string | undefined;
  annotations: "github" | undefined;
  /** Flags each check passes on: --at-marker, --raw, --update, --mask, --outline. */
  passOn: string[];
  update: boolean;
  mode: "human" | "plain" | "json";
};

const MAX_JOBS = 64;
const MAX_RETRIES = 10;

/** The flag values a folder run takes, checked: usage errors name the flag. */
export function suiteLimits(jobs: unknown, retries: unknown, annotations: unknown): { jobs: number | undefined; retries: number; annotations: "github" | undefined } {
  if (jobs !== undefined && (typeof jobs !== "number" || jobs < 1 || jobs > MAX_JOBS)) throw new TuiwrightError("usage", `--jobs must be 1..${MAX_JOBS}, got ${JSON.stringify(jobs)}`);
  if (retries !== undefined && (typeof retries !== "number" || retries < 0 || retries > MAX_RETRIES)) throw new TuiwrightError("usage", `--retries must be 0..${MAX_RETRIES}, got ${JSON.stringify(retries)}`);
  if (annotations !== undefined && annotations !== "github") throw new TuiwrightError("usage", `--annotations must be github, got ${JSON.stringify(annotations)}`);
  return { jobs: jobs as number | undefined, retries: (retries as number | undefined) ?? 0, annotations: annotations as "github" | undefined };
}

function castsIn(dir: string): string[] {
  const names = readdirSync(dir).filter((name) => name.endsWith(".cast") && statSync(join(dir, name)).isFile()).sort();
  if (names.length === 0) throw new TuiwrightError("no-such-file", `no .cast files in ${JSON.stringify(dir)}`, { hint: "give the folder your recordings are in (tuiwright casts lists them)" });
  return names;
}

type Attempt = { status: "passed" | "failed" | "error" | "updated"; message?: string; diff?: string };

/** One `replay CAST --expect-snapshot GOLDEN --json` in a child process. */
async function check(cast: string, golden: string, passOn: string[]): Promise<Attempt> {
  const run = await runProcess([...selfCommand(), "--json", "replay", cast, "--expect-snapshot", golden, ...passOn], { cwd: process.cwd(), env: process.env as Record<string, string> });
  const stdout = new TextDecoder().decode(run.stdout);
  let answer: { match?: boolean; diff?: string; updated?: string; error?: { message?: string } } = {};
  try { answer = JSON.parse(stdout); } catch { /* a crash prints no JSON: stderr says why */ }
  if (run.exitCode === 0) return { status: answer.updated ? "updated" : "passed" };
  if (run.exitCode === 1 && answer.match === false) return { status: "failed", message: `the replay differs from ${golden}`, diff: answer.diff };
  const stderr = new TextDecoder().decode(run.stderr).trim();
  const why = answer.error?.message ?? (stderr.split("\n")[0]?.replace(/^tuiwright: /, "") || `replay exited ${run.exitCode ?? run.signal}`);
  return { status: "error", message: why };
}

async function checkWithRetries(name: string, options: SuiteOptions, began: number): Promise<CastOutcome> {
  const cast = join(options.dir, name);
  const golden = join(options.goldens, `${basename(name, ".cast")}.snap`);
  const startMs = Math.round(performance.now() - began);
  let first: Attempt | null = null;
  let attempt: Attempt = { status: "error" };
  let attempts = 0;
  while (attempts <= (options.update ? 0 : options.retries)) {
    attempts++;
    attempt = await check(cast, golden, options.passOn);
    if (attempt.status === "passed" || attempt.status === "updated") break;
    first ??= attempt;
  }
  const status = attempt.status === "passed" && attempts > 1 ? "flaky" : attempt.status;
  const why = status === "flaky" ? first! : attempt;
  return { name: basename(name, ".cast"), cast, golden, status, attempts, message: why.message, diff: why.diff, startMs, ms: Math.round(performance.now() - began) - startMs };
}

function humanLine(outcome: CastOutcome): string {
  const tag = { passed: "ok  ", flaky: "FLAKY", failed: "FAIL", error: "FAIL", updated: "updated" }[outcome.status];
  const detail = outcome.status === "passed" || outcome.status === "updated" ? ` (${outcome.ms} ms)` : `: ${outcome.message}${outcome.attempts > 1 ? ` (${outcome.attempts} attempts)` : ""}`;
  return `${tag} ${outcome.name}${detail}${outcome.status === "failed" && outcome.diff ? `\n${outcome.diff}` : ""}`;
}

export async function runReplaySuite(options: SuiteOptions): Promise<number> {
  if (!existsSync(options.goldens) || !statSync(options.goldens).isDirectory()) {
    throw new TuiwrightError("no-such-file", `no folder ${JSON.stringify(options.goldens)} for the goldens`, { hint: `create it (mkdir -p ${options.goldens}) and write them with --update` });
  }
  const names = castsIn(options.dir);
  const jobs = Math.min(options.jobs ?? availableParallelism(), names.length);
  const began = performance.now();
  const outcomes: CastOutcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const outcome = await checkWithRetries(names[next++]!, options, began);
      outcomes.push(outcome);
      if (options.mode !== "json") await printOut(humanLine(outcome));
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  outcomes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const ms = Math.round(performance.now() - began);
  if (options.junit) writeOutputFile(options.junit, junitXml(`replay ${options.dir}`, outcomes, ms, new Date()));
  if (options.mode === "json") await printOut(JSON.stringify({ ...countOutcomes(outcomes), jobs, ms, casts: outcomes }));
  else await printOut(summaryLine(outcomes, ms));
  if (options.annotations === "github") for (const line of githubAnnotations(outcomes)) await printOut(line);
  return countOutcomes(outcomes).failed > 0 ? 1 : 0;
}
