// Recordings people can use elsewhere: `cast convert` to v2 (which Debian's asciinema 2.x plays;
// it refuses tuiwright's v3) and back, `report --idle-limit`, and failed waits marked as
// failures in the recording and the report.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";

let world: World;
let cast: string;
beforeAll(async () => {
  world = await World.start();
  const { name } = await world.spawn(["bash", "--norc", "--noprofile"], ["--session", "rec", "--cols", "60", "--rows", "8"]);
  expect((await world.run(["type", "--session", name, "echo conv-$((20+22))\r", "--wait-text", "conv-42"])).code).toBe(0);
  const timedOut = await world.run(["wait", "--session", name, "--text", "never-shown", "--timeout", "100"]);
  expect(timedOut.code).toBe(124);
  cast = (await world.run(["--plain", "get", "cast", "--session", name])).stdout.trim();
  expect((await world.run(["kill", "--session", name])).code).toBe(0);
});
afterAll(async () => { await world[Symbol.asyncDispose](); });

test("a failed wait leaves a `failed:` marker after its own in the recording", () => {
  const markers = readFileSync(cast, "utf8").split("\n").slice(1).filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e[1] === "m").map((e) => e[2]);
  const at = markers.indexOf('wait text "never-shown"');
  expect(at).toBeGreaterThanOrEqual(0);
  expect(markers[at + 1]).toBe('failed: wait text "never-shown" (timed out)');
});

test("cast convert --to v2 writes what asciinema 2.x plays; --to v3 gives back the same screen", async () => {
  // asciinema cat needs a terminal: it runs in a tuiwright session. v3 is refused (why the command exists).
  await world.spawn(["asciinema", "cat", cast], ["--session", "cat-v3"]);
  const refusedV3 = await world.run(["--json", "wait", "--session", "cat-v3", "--exit"]);
  expect(JSON.parse(refusedV3.stdout).exit).toMatchObject({ code: 1 });
  const v2 = join(world.dir, "rec.v2.cast");
  const converted = await world.run(["cast", "convert", "--to", "v2", cast, v2]);
  expect(converted.stderr).toBe("");
  expect(converted.stdout).toMatch(/^wrote .*rec\.v2\.cast \(asciicast v2, \d+ event\(s\); the exit event is not in v2\)\n$/);
  const header = JSON.parse(readFileSync(v2, "utf8").split("\n")[0]!);
  expect(header).toMatchObject({ version: 2, width: 60, height: 8, env: { TERM: "xterm-256color" } });
  await world.spawn(["asciinema", "cat", v2], ["--session", "cat-v2"]);
  const played = await world.run(["--json", "wait", "--session", "cat-v2", "--exit", "--all", "--text", "conv-42"]);
  expect(played.code).toBe(0);
  expect(JSON.parse(played.stdout).exit).toMatchObject({ code: 0 });

  const v3 = join(world.dir, "rec.v3.cast");
  expect((await world.run(["cast", "convert", "--to", "v3", v2, v3])).code).toBe(0);
  const original = await world.run(["--plain", "replay", cast]);
  const roundTrip = await world.run(["--plain", "replay", v3]);
  expect(roundTrip.stdout).toBe(original.stdout);
  expect(original.stdout).toContain("conv-42");
});

test("cast convert refuses to overwrite, and reports bad input clearly", async () => {
  const out = join(world.dir, "exists.cast");
  writeFileSync(out, "mine");
  const exists = await world.run(["cast", "convert", "--to", "v2", cast, out]);
  expect(exists.code).toBe(64);
  expect(exists.stderr).toContain(`${out} exists; converting never overwrites`);
  expect(readFileSync(out, "utf8")).toBe("mine");
  const noTo = await world.run(["cast", "convert", cast, join(world.dir, "x.cast")]);
  expect(noTo.code).toBe(64);
  expect(noTo.stderr).toContain("cast convert needs --to v2 or --to v3");
  const badTo = await world.run(["cast", "convert", "--to", "v4", cast, join(world.dir, "x.cast")]);
  expect(badTo.stderr).toContain('--to is one of v2, v3; got "v4"');
  const notCast = join(world.dir, "not.cast");
  writeFileSync(notCast, "hello\n");
  const bad = await world.run(["cast", "convert", "--to", "v2", notCast, join(world.dir, "y.cast")]);
  expect(bad.code).toBe(65);
  expect(bad.stderr).toContain(`${notCast}:1: the first line must be the asciicast header`);
  const missing = await world.run(["cast", "convert", "--to", "v2", join(world.dir, "nope.cast"), join(world.dir, "z.cast")]);
  expect(missing.code).toBe(66);
  const stdout = await world.run(["cast", "convert", "--to", "v2", cast, "-"]);
  expect(JSON.parse(stdout.stdout.split("\n")[0]!).version).toBe(2);
});

test("the report lists a failed wait as a failure", async () => {
  const out = join(world.dir, "rec.html");
  const report = await world.run(["report", cast, "-o", out]);
  expect(report.code).toBe(0);
  expect(report.stdout).toContain("1 failed wait(s)");
  const html = readFileSync(out, "utf8");
  expect(html).toContain('<span class="failures">1 failed wait(s)</span>');
  expect(html).toMatch(/<li class="failed"(?: id="first-failure")?><button [^>]*>\d+ · [\d.]+ s<\/button> <span>✗ failed: wait text &quot;never-shown&quot; \(timed out\)<\/span><\/li>/);
});

test("report --idle-limit S plays long pauses as S seconds, marker times included", async () => {
  const idle = join(world.dir, "idle.cast");
  writeFileSync(idle, [
    JSON.stringify({ version: 3, term: { cols: 20, rows: 3 } }),
    JSON.stringify([0.1, "o", "a"]), JSON.stringify([10, "m", "after a pause"]), JSON.stringify([0.2, "o", "b"]), "",
  ].join("\n"));
  const plain = join(world.dir, "idle.html");
  expect((await world.run(["report", idle, "-o", plain])).code).toBe(0);
  expect(readFileSync(plain, "utf8")).toContain("10.10 s</button> <span>after a pause");
  const limited = join(world.dir, "idle-limited.html");
  const result = await world.run(["report", idle, "-o", limited, "--idle-limit", "0.5"]);
  expect(result.code).toBe(0);
  const html = readFileSync(limited, "utf8");
  expect(html).toContain("0.60 s</button> <span>after a pause");
  expect(html).toContain("20x3 · 0.80 s · 1 marker(s) · idle time limited to 0.5 s");
  expect(html).toContain("idleTimeLimit: 0.5 }");
  for (const bad of ["0", "-1", "soon"]) {
    const refused = await world.run(["report", idle, "-o", join(world.dir, "bad.html"), "--idle-limit", bad]);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain(`--idle-limit needs a number of seconds > 0, e.g. 2 or 0.5; got ${JSON.stringify(bad)}`);
  }
});
