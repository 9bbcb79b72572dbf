// The Bun library run from source starts the binary's daemon (dist/tuiwright), not one from
// source: the CLI refuses a daemon of another build (0.1.0+dev, exit 69), so a daemon started
// by the library must be one the CLI can share.
import { afterAll, expect, test } from "bun:test";
import { connect } from "../../lib/client/index.ts";
import { World } from "../helpers/harness.ts";

const world = World.empty();
afterAll(async () => { await world[Symbol.asyncDispose](); });

test("a daemon auto-started by the library answers the CLI, with the CLI's version", async () => {
  for (const key of ["TUIWRIGHT_NS", "TUIWRIGHT_SOCKET", "XDG_STATE_HOME"]) process.env[key] = world.env[key];
  delete process.env.TUIWRIGHT_BIN;
  await using client = await connect();
  await using shell = await client.spawn({ session: "from-lib", argv: ["bash", "--norc", "--noprofile"] });
  const status = await client.call("daemon.status", {});
  const cli = await world.run(["--json", "list"]);
  expect(cli.stderr).toBe("");
  expect(cli.code).toBe(0);
  expect(JSON.parse(cli.stdout).sessions.map((s: { name: string }) => s.name)).toEqual([shell.name]);
  expect(status.version).toBe((await world.run(["--version"])).stdout.trim());
});

test("toMatchScreen waits for the screen to come to match, and fails with the diff when it does not", async () => {
  const { expectSession } = await import("../../lib/client/index.ts");
  const { writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  await using client = await connect();
  // `read` holds the second line back until the test types it.
  await using held = await client.spawn({ argv: ["sh", "-c", "echo first; read line; echo \"second $line\"; exec cat"], cols: 30, rows: 4 });
  await expectSession(held).toShow("first");
  const golden = join(world.dir, "held.snap");
  writeFileSync(golden, "# size: 30x4\n--- screen\nfirst\nok\nsecond ok\n");
  const matching = expectSession(held).toMatchScreen(golden);
  // Not there yet: the first comparison differs, and the assertion waits on the screen.
  await expect(expectSession(held).toMatchScreen(golden, { timeoutMs: 50 })).rejects.toThrow(/^-second ok$/m);
  await held.type("ok\r");
  await matching;
});
