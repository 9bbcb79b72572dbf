// A browser that crashes while it starts (Chromium's failed CHECK: SIGTRAP, seen on a loaded
// machine with the pipe closing under the start's first Runtime.evaluate): browse starts it once
// more and says so with the first one's exit; one that crashes again is an error naming how it
// ended, and nothing is left behind. The stand-in Carbonyl (tests/testdata/fake-carbonyl) dies of
// SIGTRAP at the start's first frame as FAKE_CARBONYL_START_CRASH says. A start whose screen stays
// blank (Carbonyl's stall, http://blanks-at-start/) is started once more the same way.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { useWorld } from "../helpers/harness.ts";

// Each browse starts python and answers the engine's calls: seconds on a loaded machine.
setDefaultTimeout(60_000);

const world = useWorld({ CARBONYL: resolve(import.meta.dir, "../testdata/fake-carbonyl/carbonyl") });

test("a browser that crashes once while starting is started again: browse answers ok and says how the first one ended", async () => {
  const marker = join(world.dir, "start-crashed");
  const started = await world.json(["browse", "--session", "crashes-once", "--env", `FAKE_CARBONYL_START_CRASH=${marker}`, "http://redraws/"]);
  expect(existsSync(marker)).toBe(true);
  expect(started).toMatchObject({ name: "crashes-once", ready: { ready: true, url: "http://redraws/" }, restarted: { exit: { code: null, signal: "SIGTRAP" } } });
  expect(started.restarted.why).toContain("killed by SIGTRAP");
  expect(world.daemonLog()).toContain('session "crashes-once": the browser crashed while starting');
  const listed = (await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "crashes-once");
  expect(listed).toMatchObject({ state: "running", pid: started.pid });
  expect((await world.run(["snapshot", "--session", "crashes-once", "--plain"])).stdout).toContain("Fake page text");
});

test("Carbonyl's exit 127 (its Chromium child died of a signal) while starting counts as a crash: started again, and the answer says what 127 means", async () => {
  const marker = join(world.dir, "start-crashed-127");
  const started = await world.json(["browse", "--session", "exits-127", "--env", `FAKE_CARBONYL_START_CRASH=${marker}`, "--env", "FAKE_CARBONYL_START_CRASH_EXIT=127", "http://redraws/"]);
  expect(existsSync(marker)).toBe(true);
  expect(started).toMatchObject({ ready: { ready: true }, restarted: { exit: { code: 127, signal: null } } });
  expect(started.restarted.why).toContain("exit code 127: Carbonyl's Chromium process died of a signal");
});

test("a browser that crashes at every start: browse fails with session-exited naming both crashes, and no session is left", async () => {
  const failed = await world.run(["browse", "--session", "crashes-always", "--env", "FAKE_CARBONYL_START_CRASH=always", "http://redraws/"]);
  expect(failed.code).toBe(69);
  expect(failed.stderr).toContain("the browser has exited (killed by SIGTRAP");
  expect(failed.stderr).toContain("it was started again after the first browser crashed");
  expect((await world.json(["list"])).sessions.some((s: { name: string }) => s.name === "crashes-always")).toBe(false);
});

test("a healthy start says nothing of a restart", async () => {
  const started = await world.json(["browse", "--session", "healthy", "http://redraws/"]);
  expect(started.ready).toMatchObject({ ready: true });
  expect(started.restarted).toBeUndefined();
});

test("a browser whose screen never draws its first page (Carbonyl's stall) is started again once: browse answers ok with restarted.exit null", async () => {
  const marker = join(world.dir, "blanked-at-start");
  const started = await world.json(["browse", "--session", "blank-start", "--env", `FAKE_CARBONYL_BLANKED=${marker}`, "http://blanks-at-start/"]);
  expect(existsSync(marker)).toBe(true);
  expect(started).toMatchObject({ name: "blank-start", ready: { ready: true }, restarted: { exit: null } });
  expect(started.restarted.why).toContain("Carbonyl's screen does not show it");
  expect(world.daemonLog()).toContain('session "blank-start": the browser\'s screen never drew its first page');
  expect((await world.run(["snapshot", "--session", "blank-start", "--plain"])).stdout).toContain("Fake page text");
}, 90_000);
