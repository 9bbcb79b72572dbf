import { expect, test } from "bun:test";
import { useWorld } from "../helpers/harness.ts";

const world = useWorld();

const results = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line));

test("a batch of 50 press/wait/snapshot lines runs in one process, one JSON result per line", async () => {
  await world.spawn(["cat"], ["--session", "cat1"]);
  const lines: string[] = ["# a comment, then commands", ""];
  for (let i = 0; i < 17; i++) {
    lines.push(`type --session cat1 'item-${i}'`);
    lines.push(`press --session cat1 Enter --wait-regex '^item-${i}\\n'`);
    lines.push("snapshot --session cat1 --plain");
  }
  const input = lines.slice(0, 2 + 50).join("\n");
  const run = await world.run(["batch"], { stdin: input });
  expect(run.code).toBe(0);
  const out = results(run.stdout);
  expect(out).toHaveLength(50);
  expect(out.every((r) => r.ok)).toBe(true);
  expect(out.map((r) => r.line)).toEqual(Array.from({ length: 50 }, (_, i) => i + 3));
  const snapshots = out.filter((r) => typeof r.result.text === "string");
  expect(snapshots).toHaveLength(16);
  expect(snapshots.at(-1).result.text).toContain("item-15");
  expect(out.at(-1).result.wait.fired).toEqual(["regex /^item-16\\n/m"]);
});

test("--bail stops at the first failure and exits with its code; without it every line runs", async () => {
  await world.spawn(["cat"], ["--session", "cat2"]);
  const input = ["snapshot --session cat2", "press --session cat2 NotAKey", "snapshot --session ghost", "list"].join("\n");
  const all = await world.run(["batch"], { stdin: input });
  expect(all.code).toBe(65);
  expect(results(all.stdout).map((r) => [r.line, r.ok, r.exit])).toEqual([[1, true, undefined], [2, false, 65], [3, false, 66], [4, true, undefined]]);
  const bail = await world.run(["batch", "--bail"], { stdin: input });
  expect(bail.code).toBe(65);
  expect(results(bail.stdout)).toHaveLength(2);
  expect(results(bail.stdout)[1].error.message).toContain('invalid key "NotAKey"');
});

test("a JSON array of command lines or argument lists works the same", async () => {
  await world.spawn(["cat"], ["--session", "cat3"]);
  const input = JSON.stringify(["type --session cat3 \"two words\"", ["press", "--session", "cat3", "Enter", "--wait-regex", "^two words$"], "get --session cat3 size"]);
  const run = await world.run(["batch"], { stdin: input });
  expect(run.code).toBe(0);
  const out = results(run.stdout);
  expect(out[2].result.value).toEqual({ cols: 120, rows: 40 });
});

test("bad batches: invalid JSON, bad items, unterminated quotes, nested streams, empty input", async () => {
  const cases: [string, number, string][] = [
    ["[1, 2", 65, "stdin is not valid JSON"],
    ["[42]", 65, "batch item 1: expected a command line string or an array of strings"],
    ["", 64, "no commands on stdin"],
  ];
  for (const [stdin, code, message] of cases) {
    const run = await world.run(["batch"], { stdin });
    expect({ stdin, code: run.code }).toEqual({ stdin, code });
    expect(run.stderr).toContain(message);
  }
  const quoted = await world.run(["batch"], { stdin: "list\ntype 'oops" });
  expect(quoted.code).toBe(64);
  expect(quoted.stderr).toContain("batch line 2: unterminated ' quote");
  const nested = await world.run(["batch"], { stdin: "events --count 1" });
  expect(results(nested.stdout)[0].error.message).toBe("events is not a daemon call and cannot run inside a batch; run `tuiwright events` as a command of its own");
  // Offline and local commands are named the same way, one error line each; nothing else runs.
  const local = await world.run(["batch"], { stdin: "replay x.cast\nrun -- true\nadapter test a.toml" });
  expect(local.code).toBe(64);
  expect(results(local.stdout).map((r: any) => [r.exit, r.error.message.split(" is not")[0]])).toEqual([[64, "replay"], [64, "run"], [64, "adapter test"]]);
});
