// Using tuiwright from a `bun test` suite: this file is the library's documented example, and
// part of the test suite. (The harness only points it at an isolated daemon.)
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, expectSession } from "tuiwright";
import { World } from "../tests/helpers/harness.ts";

let world: World;
beforeAll(async () => {
  world = await World.start();
  process.env.TUIWRIGHT_NS = world.namespace;
  process.env.TUIWRIGHT_SOCKET = world.socketPath;
});
afterAll(async () => { await world[Symbol.asyncDispose](); });

test("drive bash from a test: type, wait for output, compare with a golden screen", async () => {
  await using client = await connect();
  await using shell = await client.spawn({ argv: ["bash", "--norc", "--noprofile"], cols: 40, rows: 5 });
  await expectSession(shell).toShow(/[$#]$/);
  await shell.type("echo lib-$((40+2))\r");
  await expectSession(shell).toShow("lib-42");
  const golden = join(world.dir, "golden.snap");
  // Golden files are usually saved from a live run (`tuiwright snapshot --save`); masks blank
  // what varies between machines — here bash's version and $ or # in the prompt.
  writeFileSync(join(world.dir, "other.snap"), "# size: 40x5\n--- screen\nsomething else\n");
  writeFileSync(golden, "# size: 40x5\n# mask: /bash-\\d+\\.\\d+[$#]/\n--- screen\nbash-0.0$ echo lib-$((40+2))\nlib-42\nbash-0.0$\n");
  await expectSession(shell).toMatchScreen(golden); // waits for the prompt after the output too
  await expect(expectSession(shell).toMatchScreen(join(world.dir, "other.snap"), { timeoutMs: 100 })).rejects.toThrow("the screen differs");
  await expect(expectSession(shell).toShow("never", { timeoutMs: 50 })).rejects.toThrow("wait timed out");
});

test("shell blocks through the library", async () => {
  await using client = await connect();
  await using shell = await client.spawn({ shell: "bash" });
  const block = await shell.exec("echo a; false");
  expect(block).toMatchObject({ exitCode: 1, output: "a\n" });
});

test("spawn's env is merged over this process's environment (replaceEnv replaces it)", async () => {
  await using client = await connect();
  await using merged = await client.spawn({ argv: ["sh", "-c", 'echo "home=$HOME x=$X"; cat'], env: { X: "1" } });
  await expectSession(merged).toShow(`home=${process.env.HOME} x=1`);
  await using replaced = await client.spawn({ argv: ["/bin/sh", "-c", 'echo "home=${HOME:-none} x=$X"; cat'], env: { X: "2" }, replaceEnv: true });
  await expectSession(replaced).toShow("home=none x=2");
});
