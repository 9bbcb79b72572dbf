// `turn` checks that Enter had its effect (the CLI took the prompt: the input cleared, a busy
// mark): a CLI that misses an Enter (as Gemini CLI and Codex do when they count it into a
// paste burst, or a CLI busy with something else) gets it again, in the same turn; one that
// never takes the prompt fails the turn with what the screen shows, long before the timeout.
// A stand-in CLI ignores the first N Enters (N from argv[1]).
import { afterAll, expect, test } from "bun:test";
import { installDeafCli } from "../helpers/deaf-cli.ts";
import { World } from "../helpers/harness.ts";

const world = World.empty();
afterAll(async () => { await world[Symbol.asyncDispose](); });

test("turn sends Enter again while the prompt stays in the input, and fails saying so when the CLI never takes it", async () => {
  const { env, cli } = installDeafCli(world);
  const tw = (args: string[]) => world.json(args, { env });
  // Two Enters missed: the third is taken, one turn with its answer.
  await tw(["spawn", "--session", "hard", "--cols", "60", "--rows", "12", "--", cli, "2"]);
  await tw(["wait", "--session", "hard", "--ref", "@deaf.input"]);
  const taken = await tw(["turn", "--session", "hard", "hello", "--timeout", "30000"]);
  expect(taken.turn).toMatchObject({ id: 1, prompt: "hello", state: "done" });
  expect(taken.response).toEqual({ text: "answer to hello", complete: true });
  // Every Enter missed: the turn fails (exit 1) after its three Enters, not at the timeout.
  await tw(["spawn", "--session", "deaf", "--cols", "60", "--rows", "12", "--", cli, "1000"]);
  await tw(["wait", "--session", "deaf", "--ref", "@deaf.input"]);
  const started = performance.now();
  const lost = await world.run(["--json", "turn", "--session", "deaf", "hello", "--timeout", "60000"], { env });
  expect(performance.now() - started).toBeLessThan(30_000);
  expect(lost.code).toBe(1);
  const error = JSON.parse(lost.stdout).error;
  expect(error.data.name).toBe("expectation-failed");
  expect(error.message).toMatch(/Enter was sent 3 times and the prompt stays in @deaf\.input \("hello"\)/);
  expect(error.data.turn).toMatchObject({ id: 1, state: "submitted", taken: null });
}, 60_000);
