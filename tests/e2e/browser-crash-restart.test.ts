// A browser that crashes by itself mid-session (Chromium's failed CHECK under load: Carbonyl exits
// 127) is started again at its page, by the call in flight or, after a crash between calls, by
// the next call, which says so: recovered {by: "browser-restart", exit, why}. At most three such
// restarts a minute; one killed from outside (or signalled by the caller) stays dead. The
// stand-in Carbonyl (tests/testdata/fake-carbonyl) exits 127 on Page.navigate as
// FAKE_CARBONYL_NAVIGATE_CRASH says, and at once on SIGUSR1.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { useWorld } from "../helpers/harness.ts";

// Each browse starts python and answers the engine's calls: seconds on a loaded machine.
setDefaultTimeout(90_000);

const world = useWorld({ CARBONYL: resolve(import.meta.dir, "../testdata/fake-carbonyl/carbonyl") });

const pidOf = async (session: string): Promise<number> => (await world.json(["list"])).sessions.find((s: { name: string }) => s.name === session).pid;

/** Carbonyl's Chromium child dying between calls: the fake exits 127; waits until it has. */
async function crashIdle(session: string): Promise<void> {
  process.kill(await pidOf(session), "SIGUSR1");
  await world.json(["wait", "--session", session, "--exit"]);
}

test("a browser that crashes (exit 127) under a navigate is started again at its page and the navigate runs on it, saying so", async () => {
  const marker = join(world.dir, "navigate-crashed");
  const started = await world.json(["browse", "--session", "crashes-navigating", "--env", `FAKE_CARBONYL_NAVIGATE_CRASH=${marker}`, "http://redraws/"]);
  const navigated = await world.json(["navigate", "--session", "crashes-navigating", "http://redraws/"]);
  expect(existsSync(marker)).toBe(true);
  expect(navigated).toMatchObject({ url: "http://redraws/", recovered: { by: "browser-restart", url: "http://redraws/", history: 1, exit: { code: 127, signal: null } } });
  expect(navigated.recovered.why).toContain("exit code 127: Carbonyl's Chromium process died of a signal");
  expect(await pidOf("crashes-navigating")).not.toBe(started.pid);
  expect((await world.run(["snapshot", "--session", "crashes-navigating", "--plain"])).stdout).toContain("Fake page text");
  expect(world.daemonLog()).toMatch(/navigate \(session "crashes-navigating"\): recovered by browser-restart .*"exit":\{"code":127/);
  // Reported once: the next call is an ordinary one.
  expect((await world.json(["navigate", "--session", "crashes-navigating", "http://redraws/"])).recovered).toBeUndefined();
});

test("a browser that crashes again when the call runs on the new one is started again, up to three times a minute; then the call's error says so", async () => {
  await world.json(["browse", "--session", "crashes-always", "--env", "FAKE_CARBONYL_NAVIGATE_CRASH=always", "http://redraws/"]);
  const refused = await world.run(["navigate", "--session", "crashes-always", "http://redraws/"]);
  expect(refused.code).toBe(69);
  expect(refused.stderr).toContain("the browser has exited (exit code 127");
  expect(refused.stderr).toContain("started again 3 times in the last minute");
}, 120_000);

test("a browser that crashes between calls is started again by the next call, which says so once; the fourth crash within a minute is the call's error", async () => {
  await world.json(["browse", "--session", "crashes-idle", "http://redraws/"]);
  for (let crash = 1; crash <= 3; crash++) {
    await crashIdle("crashes-idle");
    const url = await world.json(["get", "url", "--session", "crashes-idle"]);
    expect({ crash, url }).toMatchObject({ crash, url: { value: "http://redraws/", recovered: { by: "browser-restart", url: "http://redraws/", exit: { code: 127 } } } });
    expect((await world.json(["get", "url", "--session", "crashes-idle"])).recovered).toBeUndefined();
  }
  await crashIdle("crashes-idle");
  const refused = await world.run(["get", "url", "--session", "crashes-idle"]);
  expect(refused.code).toBe(69);
  expect(refused.stderr).toContain("the browser has exited (exit code 127");
  expect(refused.stderr).toContain("started again 3 times in the last minute");
});

test("a browser the caller signalled is not restarted, even when the signal is a crash's: every call answers session-exited", async () => {
  await world.json(["browse", "--session", "signalled", "http://redraws/"]);
  await world.run(["signal", "--session", "signalled", "SEGV"]);
  await world.json(["wait", "--session", "signalled", "--exit"]);
  for (const args of [["get", "url"], ["navigate", "http://redraws/"], ["reload"]]) {
    const after = await world.run([...args, "--session", "signalled"]);
    expect({ args, code: after.code }).toEqual({ args, code: 69 });
    expect(after.stderr).toContain("the browser has exited (killed by SIGSEGV)");
  }
});
