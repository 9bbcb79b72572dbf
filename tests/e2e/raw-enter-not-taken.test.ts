// The raw recipe (type, press Enter, wait --ref @X.done) when the CLI does not take the Enter
// (Gemini CLI under load counts it into a paste: the prompt stays in its input, nothing is
// sent): the wait fails as soon as the evidence is plain — the turn not taken, its prompt still
// the input's value, the screen still 5 s — with exit 1 (expectation-failed) quoting the input,
// instead of running out its timeout. `press` stays one key; pressing Enter again sends the
// same turn. A CLI that took the prompt and thinks longer than 5 s is waited for.
import { afterAll, expect, test } from "bun:test";
import { installDeafCli } from "../helpers/deaf-cli.ts";
import { World } from "../helpers/harness.ts";

const world = World.empty();
afterAll(async () => { await world[Symbol.asyncDispose](); });

test("wait --ref @X.done fails fast quoting the input when Enter was not taken; Enter again sends the same turn", async () => {
  const { env, cli } = installDeafCli(world);
  const run = (args: string[]) => world.run(["--json", ...args], { env });
  const tw = (args: string[]) => world.json(args, { env });
  const notTaken = (result: { code: number; stdout: string }) => {
    expect(result.code).toBe(1);
    const error = JSON.parse(result.stdout).error;
    expect(error.data.name).toBe("expectation-failed");
    expect(error.message).toMatch(/^turn 1 was not taken: its prompt stays in @deaf\.input \("hello"\) with the screen still 5000 ms/);
    expect(error.data.turn).toMatchObject({ id: 1, prompt: "hello", state: "submitted", taken: null });
    expect(error.data.input).toBe("hello");
  };
  // The first two Enters are lost: the plain wait fails, then the wait attached to the press.
  await tw(["spawn", "--session", "raw", "--cols", "60", "--rows", "12", "--", cli, "2"]);
  await tw(["wait", "--session", "raw", "--ref", "@deaf.input"]);
  await tw(["type", "--session", "raw", "hello"]);
  await tw(["wait", "--session", "raw", "--settled", "150"]);
  await tw(["press", "--session", "raw", "Enter"]);
  let started = performance.now();
  notTaken(await run(["wait", "--session", "raw", "--ref", "@deaf.done", "--timeout", "60000"]));
  expect(performance.now() - started).toBeLessThan(30_000);
  started = performance.now();
  notTaken(await run(["press", "--session", "raw", "Enter", "--wait-ref", "@deaf.done", "--timeout", "60000"]));
  expect(performance.now() - started).toBeLessThan(30_000);
  // The third is taken: the same turn ends done with its answer.
  await tw(["press", "--session", "raw", "Enter"]);
  const done = await tw(["wait", "--session", "raw", "--ref", "@deaf.done", "--timeout", "60000"]);
  expect(done.fired).toEqual(["ref @deaf.done"]);
  const turn = await tw(["wait", "--session", "raw", "--turn", "last", "--timeout", "1000"]);
  expect(turn.turn).toMatchObject({ id: 1, prompt: "hello", state: "done" });

  // Taken at once, answered after 7 s with the screen still meanwhile: no failure, the answer.
  await tw(["spawn", "--session", "slow", "--cols", "60", "--rows", "12", "--", cli, "0", "7"]);
  await tw(["wait", "--session", "slow", "--ref", "@deaf.input"]);
  await tw(["type", "--session", "slow", "think first"]);
  await tw(["wait", "--session", "slow", "--settled", "150"]);
  await tw(["press", "--session", "slow", "Enter"]);
  const slow = await tw(["wait", "--session", "slow", "--ref", "@deaf.done", "--timeout", "60000"]);
  expect(slow.fired).toEqual(["ref @deaf.done"]);
  expect(slow.elapsedMs).toBeGreaterThan(5000);
  const response = await tw(["snapshot", "--session", "slow", "--format", "outline", "--select", "@deaf.response"]);
  expect(response.outline.nodes[0].value).toBe("answer to think first");
}, 90_000);
