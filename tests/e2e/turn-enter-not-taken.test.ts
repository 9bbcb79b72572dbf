// `turn` checks that Enter had its effect (the CLI took the prompt: the input cleared, a busy
// mark): a CLI that misses an Enter (as Gemini CLI and Codex do when they count it into a
// paste burst, or a CLI busy with something else) gets it again, in the same turn; one that
// never takes the prompt fails the turn with what the screen shows, long before the timeout.
// A stand-in CLI ignores the first N Enters (N from argv[1]).
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";

const world = World.empty();
afterAll(async () => { await world[Symbol.asyncDispose](); });

const MANIFEST = `name = "deaf"
root = "deaf"
description = "a stand-in AI CLI that ignores its first Enters"
turns = true

[detect]
argv0 = ["deaf"]
confidence = 0.9

[[regions]]
name = "input"
role = "input"
last = true
from = '/^>/'
until = '/^>/'

[[regions]]
name = "response"
role = "document"
last = true
after = '/^you: /'
until = '/^END$/'

[[regions]]
name = "done"
role = "status"
last = true
after = '/^you: /'
until = '/^END$/'

[[values]]
region = "response"
regex = '/^\\s*(?<value>[\\s\\S]*?)\\s*\\n\\s*END$/'

[[values]]
region = "input"
regex = '/^> ?(?<value>.*?)\\s*$/'
`;

const CLI = `#!/usr/bin/env python3
import os, sys, tty
tty.setraw(0)
ignore = int(sys.argv[1])
history, typed = [], ""
def draw():
    os.write(1, ("\\x1b[H\\x1b[2J" + "\\r\\n".join([*history, "> " + typed])).encode())
draw()
while True:
    key = os.read(0, 1).decode()
    if key == "\\x03":
        break
    if key != "\\r":
        typed += key
        draw()
        continue
    if ignore > 0:
        ignore -= 1
        continue
    history += ["you: " + typed, "answer to " + typed, "END"]
    typed = ""
    draw()
`;

test("turn sends Enter again while the prompt stays in the input, and fails saying so when the CLI never takes it", async () => {
  const config = join(world.dir, "config");
  mkdirSync(join(config, "tuiwright/adapters"), { recursive: true, mode: 0o700 });
  writeFileSync(join(config, "tuiwright/adapters/deaf.toml"), MANIFEST);
  const bin = join(world.dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "deaf"), CLI);
  chmodSync(join(bin, "deaf"), 0o755);
  const env = { XDG_CONFIG_HOME: config };
  const tw = async (args: string[]) => {
    const result = await world.run(["--json", ...args], { env });
    if (result.code !== 0) throw new Error(`tuiwright ${args.join(" ")} exited ${result.code}: ${result.stdout}${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  // Two Enters missed: the third is taken, one turn with its answer.
  await tw(["spawn", "--session", "hard", "--cols", "60", "--rows", "12", "--", join(bin, "deaf"), "2"]);
  await tw(["wait", "--session", "hard", "--ref", "@deaf.input"]);
  const taken = await tw(["turn", "--session", "hard", "hello", "--timeout", "30000"]);
  expect(taken.turn).toMatchObject({ id: 1, prompt: "hello", state: "done" });
  expect(taken.response).toEqual({ text: "answer to hello", complete: true });
  // Every Enter missed: the turn fails (exit 1) after its three Enters, not at the timeout.
  await tw(["spawn", "--session", "deaf", "--cols", "60", "--rows", "12", "--", join(bin, "deaf"), "1000"]);
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
