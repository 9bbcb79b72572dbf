// `exec --follow` prints a command's output as it comes: the first line is on the follower's
// screen while the command still waits for input, and the block's footer and exit code come
// when it ends.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BIN, World } from "../helpers/harness.ts";

let world: World;
beforeAll(async () => {
  world = await World.start();
  await world.json(["spawn", "--session", "sh", "--shell", "bash"]);
  expect((await world.run(["exec", "--session", "sh", "--", "true"])).code).toBe(0);
}, 30_000);
afterAll(async () => { await world[Symbol.asyncDispose](); });

test("output is printed while the command runs; the footer and --propagate follow its end", async () => {
  const command = "echo first-$((1+1)); read -r reply; echo got-$reply; (exit 3)";
  await world.spawn([BIN, "exec", "--session", "sh", "--follow", "--propagate", "--", command], ["--session", "follower"]);
  expect((await world.run(["wait", "--session", "follower", "--text", "first-2"])).code).toBe(0);
  // The command is still waiting for its input: what we saw was streamed, not the end result.
  const running = JSON.parse((await world.run(["--json", "status", "--session", "sh"])).stdout);
  expect(running.block).toMatchObject({ seq: expect.any(Number) });
  expect((await world.run(["--plain", "snapshot", "--session", "follower"])).stdout).not.toContain("[block");
  expect((await world.run(["send", "--session", "sh", "--enter", "yes"])).code).toBe(0);
  const ended = JSON.parse((await world.run(["--json", "wait", "--session", "follower", "--exit"])).stdout);
  expect(ended.exit).toMatchObject({ code: 3 });
  const screen = (await world.run(["--plain", "snapshot", "--session", "follower"])).stdout;
  // "yes" is the terminal's echo of the input, part of the block's output as exec reports it.
  expect(screen).toContain("first-2\nyes\ngot-yes\n[block ");
  expect(screen).toMatch(/\[block \d+ exited 3 in \//);
}, 30_000);

test("without a terminal, --follow prints the same output and footer as exec", async () => {
  const followed = await world.run(["exec", "--session", "sh", "--follow", "--", "printf 'a\\nb\\n'"]);
  const plain = await world.run(["exec", "--session", "sh", "--", "printf 'a\\nb\\n'"]);
  expect(followed.code).toBe(0);
  expect(followed.stdout.replace(/\[block \d+/, "[block N")).toBe(plain.stdout.replace(/\[block \d+/, "[block N"));
  expect(followed.stdout).toMatch(/^a\nb\n\[block \d+ exited 0 in \/.*\]\n$/);
  const json = JSON.parse((await world.run(["--json", "exec", "--session", "sh", "--follow", "--", "echo j"])).stdout);
  expect(json).toMatchObject({ exitCode: 0, output: "j\n" });
}, 30_000);
