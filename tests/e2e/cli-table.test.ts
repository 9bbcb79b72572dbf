// What the CLI sends comes from the method table, and a batch line does what the same command
// does alone. Each of these failed while the CLI kept its own lists.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_CARBONYL, useWorld } from "../helpers/harness.ts";

const world = useWorld();

test.skipIf(!existsSync(REPO_CARBONYL))("set-viewport --lease passes the token (it was dropped, and the holder got exit 75)", async () => {
  await world.json(["browse", "--session", "web", "data:text/html,<h1>lease</h1>"]);
  const lease = await world.json(["lease", "acquire", "--session", "web", "--owner", "me"]);
  const refused = await world.run(["set-viewport", "--session", "web", "100", "30"]);
  expect(refused.code).toBe(75);
  const resized = await world.json(["set-viewport", "--session", "web", "--lease", lease.token, "100", "30"]);
  expect(resized).toMatchObject({ cols: 100, rows: 30 });
  await world.json(["kill", "--session", "web", "--lease", lease.token]);
});

test("batch runs a line's side effects: snapshot --out writes its file, exec --propagate sets the exit", async () => {
  await world.json(["spawn", "--shell", "bash", "--session", "sh"]);
  const out = join(world.dir, "batch-shot.txt");
  const batch = await world.run(["batch"], { stdin: `exec --session sh -- 'echo batched'\nsnapshot --session sh --out ${out}\nexec --session sh --propagate -- '(exit 3)'\n` });
  const lines = batch.stdout.trim().split("\n").map((line) => JSON.parse(line));
  expect(lines[1]).toMatchObject({ line: 2, ok: true, result: { written: out } });
  expect(readFileSync(out, "utf8")).toContain("batched");
  expect(lines[2]).toMatchObject({ line: 3, ok: true, exit: 3 });
  expect(batch.code).toBe(3);
});

test("with TUIWRIGHT_SESSION set, sessionless verbs still work (adapter list got a session it does not take)", async () => {
  const listed = await world.run(["--json", "adapter", "list"], { env: { TUIWRIGHT_SESSION: "sh" } });
  expect(listed.stderr).toBe("");
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout).adapters.length).toBeGreaterThan(0);
});
