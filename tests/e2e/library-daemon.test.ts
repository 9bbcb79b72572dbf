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

test("toMatchScreen waits while the screen changes, fails at once with the diff when it is still and different, writes a missing golden and rewrites one on update", async () => {
  const { expectSession } = await import("../../lib/client/index.ts");
  const { existsSync, readFileSync, writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  // This test writes goldens, so it runs as a developer would (CI unset) until the part that
  // checks CI=true; CI machines export CI=true to every test.
  const savedCI = process.env.CI;
  delete process.env.CI;
  try {
    await matchScreenScenario(world.dir, expectSession, { existsSync, readFileSync, writeFileSync }, join);
  } finally {
    if (savedCI === undefined) delete process.env.CI;
    else process.env.CI = savedCI;
  }
});

async function matchScreenScenario(
  dir: string,
  expectSession: typeof import("../../lib/client/index.ts").expectSession,
  fs: Pick<typeof import("node:fs"), "existsSync" | "readFileSync" | "writeFileSync">,
  join: typeof import("node:path").join,
): Promise<void> {
  const { existsSync, readFileSync, writeFileSync } = fs;
  await using client = await connect();
  // `read` holds the second line back until the test types it.
  await using held = await client.spawn({ argv: ["sh", "-c", "echo first; read line; echo \"second $line\"; exec cat"], cols: 30, rows: 4 });
  await expectSession(held).toShow("first");
  const golden = join(dir, "held.snap");
  writeFileSync(golden, "# size: 30x4\n--- screen\nfirst\nok\nsecond ok\n");
  // Still and different: fails after the settle time (200 ms), not the 10 s timeout.
  const started = performance.now();
  await expect(expectSession(held).toMatchScreen(golden)).rejects.toThrow(/still for 200 ms[\s\S]*^-second ok$/m);
  expect(performance.now() - started).toBeLessThan(5000);
  await held.type("ok\r");
  await expectSession(held).toMatchScreen(golden); // the echo and the second line come while it waits
  // A missing golden is written from the settled screen (and passes); update rewrites it.
  const fresh = join(dir, "fresh.snap");
  await expectSession(held).toMatchScreen(fresh);
  expect(readFileSync(fresh, "utf8")).toEndWith("# size: 30x4\n--- screen\nfirst\nok\nsecond ok\n");
  await held.type("more\r");
  await expectSession(held).toShow("more\nmore");
  await expect(expectSession(held).toMatchScreen(fresh)).rejects.toThrow("the screen differs");
  await expectSession(held).toMatchScreen(fresh, { update: true });
  expect(readFileSync(fresh, "utf8")).toContain("more\nmore");
  await expectSession(held).toMatchScreen(fresh);
  // Under CI=true a missing golden is a failure, never written.
  process.env.CI = "true";
  await expect(expectSession(held).toMatchScreen(join(dir, "ci.snap"))).rejects.toThrow("goldens are not written under CI=true");
  expect(existsSync(join(dir, "ci.snap"))).toBe(false);
}
