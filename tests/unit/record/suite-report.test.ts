import { expect, test } from "bun:test";
import { countOutcomes, githubAnnotations, junitXml, summaryLine, xmlEscape, type CastOutcome } from "../../../lib/record/suite-report.ts";

const outcome = (name: string, status: CastOutcome["status"], extra: Partial<CastOutcome> = {}): CastOutcome =>
  ({ name, cast: `casts/${name}.cast`, golden: `goldens/${name}.snap`, status, attempts: 1, startMs: 0, ms: 1500, ...extra });

const outcomes = [
  outcome("a", "passed"),
  outcome("b", "flaky", { attempts: 2, message: "replay exited 70" }),
  outcome("c", "failed", { attempts: 3, message: "the replay differs from goldens/c.snap", diff: "-old\n+new 100%" }),
  outcome("d", "error", { message: "bad cast" }),
];

test("a flaky cast counts as passed and as flaky; failures and errors as failed", () => {
  expect(countOutcomes(outcomes)).toEqual({ passed: 2, failed: 2, flaky: 1, updated: 0 });
  expect(summaryLine(outcomes, 2345)).toBe("4 casts: 2 passed, 2 failed, 1 flaky (2.3 s)");
});

test("JUnit XML: failure, error and Surefire's flakyFailure, with program text escaped", () => {
  const xml = junitXml("replay casts", outcomes, 2345, new Date("2026-01-02T03:04:05.678Z"));
  expect(xml).toContain('<testsuites name="tuiwright replay" tests="4" failures="1" errors="1" time="2.345">');
  expect(xml).toContain('timestamp="2026-01-02T03:04:05"');
  expect(xml).toContain('<testcase classname="replay casts" name="a" file="casts/a.cast" time="1.500"/>');
  expect(xml).toContain('<flakyFailure message="replay exited 70" type="flaky">replay exited 70</flakyFailure>');
  expect(xml).toContain('<failure message="the replay differs from goldens/c.snap" type="failed">the replay differs from goldens/c.snap\n-old\n+new 100%</failure>');
  expect(xml).toContain('<error message="bad cast" type="error">bad cast</error>');
  expect(xmlEscape("<a href=\"x\">&'\u0007\u001b[0m\r")).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;\\u0007\\u001b[0m&#13;");
});

test("GitHub annotations: ::error for failures, ::warning for flaky; one line each, % and newlines escaped", () => {
  const lines = githubAnnotations(outcomes);
  expect(lines).toEqual([
    "::warning file=casts/b.cast,title=flaky replay b::passed on attempt 2; before: replay exited 70",
    "::error file=casts/c.cast,title=replay c::the replay differs from goldens/c.snap (3 attempts)%0A-old%0A+new 100%25",
    "::error file=casts/d.cast,title=replay d::bad cast",
  ]);
  expect(githubAnnotations([outcome("x,y:z", "error", { cast: "a:b,c.cast", message: "line\r\n::error::injected" })])).toEqual([
    "::error file=a%3Ab%2Cc.cast,title=replay x%2Cy%3Az::line%0D%0A::error::injected",
  ]);
});
