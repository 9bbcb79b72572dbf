// How a folder of replay checks (`replay DIR --expect-snapshot GOLDENS`) is reported to CI:
// one line per cast and a summary, JUnit XML (the format CI test views read), and GitHub Actions
// workflow commands (`::error file=…::…`, shown on the file in a pull request). A diff holds text
// programs drew, so every format escapes it: XML entities (and characters XML cannot carry at
// all), workflow-command escapes (a newline in it can never start a command of its own).

/** passed; flaky: passed on a retry; failed: the screen differs; error: no answer (bad cast,
 * missing golden, crash); updated: --update wrote the golden. */
export type CastStatus = "passed" | "flaky" | "failed" | "error" | "updated";

export type CastOutcome = {
  name: string;
  cast: string;
  golden: string;
  status: CastStatus;
  attempts: number;
  /** Why it failed (or, for flaky, why the first attempts did). */
  message?: string;
  diff?: string;
  /** When it started, ms after the run began; and how long its attempts took. */
  startMs: number;
  ms: number;
};

export type SuiteCounts = { passed: number; failed: number; flaky: number; updated: number };

export function countOutcomes(outcomes: CastOutcome[]): SuiteCounts {
  const count = (...statuses: CastStatus[]) => outcomes.filter((outcome) => statuses.includes(outcome.status)).length;
  // Flaky casts passed in the end: counted as passed too, and said separately.
  return { passed: count("passed", "flaky"), failed: count("failed", "error"), flaky: count("flaky"), updated: count("updated") };
}

export function summaryLine(outcomes: CastOutcome[], ms: number): string {
  const { passed, failed, flaky, updated } = countOutcomes(outcomes);
  const seconds = (ms / 1000).toFixed(1);
  if (updated > 0) return `${outcomes.length} casts: ${updated} updated, ${failed} failed (${seconds} s)`;
  return `${outcomes.length} casts: ${passed} passed, ${failed} failed, ${flaky} flaky (${seconds} s)`;
}

// XML 1.0 cannot carry most C0 controls even as references: they are shown as \uXXXX.
const XML_UNREPRESENTABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlEscape(text: string): string {
  return text
    .replace(XML_UNREPRESENTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&apos;")
    .replaceAll("\r", "&#13;");
}

const attr = (name: string, value: string | number) => ` ${name}="${xmlEscape(String(value))}"`;
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** JUnit XML as Jenkins, GitLab and the GitHub test-report actions read it; a flaky cast is a
 * passing testcase with a <flakyFailure> (Maven Surefire's element for a pass after a rerun). */
export function junitXml(suite: string, outcomes: CastOutcome[], ms: number, timestamp: Date): string {
  const failures = outcomes.filter((outcome) => outcome.status === "failed").length;
  const errors = outcomes.filter((outcome) => outcome.status === "error").length;
  const counts = `${attr("tests", outcomes.length)}${attr("failures", failures)}${attr("errors", errors)}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attr("name", "tuiwright replay")}${counts}${attr("time", seconds(ms))}>`,
    `  <testsuite${attr("name", suite)}${counts}${attr("skipped", 0)}${attr("time", seconds(ms))}${attr("timestamp", timestamp.toISOString().replace(/\.\d+Z$/, ""))}>`,
  ];
  for (const outcome of outcomes) {
    const open = `    <testcase${attr("classname", suite)}${attr("name", outcome.name)}${attr("file", outcome.cast)}${attr("time", seconds(outcome.ms))}`;
    const body = `${outcome.message ?? ""}${outcome.diff ? `\n${outcome.diff}` : ""}`;
    const element = outcome.status === "failed" ? "failure" : outcome.status === "error" ? "error" : outcome.status === "flaky" ? "flakyFailure" : null;
    if (!element) { lines.push(`${open}/>`); continue; }
    lines.push(`${open}>`, `      <${element}${attr("message", outcome.message ?? "")}${attr("type", outcome.status)}>${xmlEscape(body)}</${element}>`, "    </testcase>");
  }
  lines.push("  </testsuite>", "</testsuites>", "");
  return lines.join("\n");
}

// The escapes of GitHub's workflow commands (actions/toolkit's command.ts): in the message %, CR
// and LF; in a property also : and , (which separate properties).
const escapeData = (text: string) => text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
const escapeProperty = (text: string) => escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");

/** One workflow command a cast that failed (::error) or passed only on a retry (::warning). */
export function githubAnnotations(outcomes: CastOutcome[]): string[] {
  return outcomes.flatMap((outcome) => {
    if (outcome.status !== "failed" && outcome.status !== "error" && outcome.status !== "flaky") return [];
    const level = outcome.status === "flaky" ? "warning" : "error";
    const title = `${outcome.status === "flaky" ? "flaky " : ""}replay ${outcome.name}`;
    const tries = outcome.attempts > 1 ? ` (${outcome.attempts} attempts)` : "";
    const message = outcome.status === "flaky" ? `passed on attempt ${outcome.attempts}; before: ${outcome.message ?? ""}` : `${outcome.message ?? ""}${tries}${outcome.diff ? `\n${outcome.diff}` : ""}`;
    return [`::${level} file=${escapeProperty(outcome.cast)},title=${escapeProperty(title)}::${escapeData(message)}`];
  });
}
