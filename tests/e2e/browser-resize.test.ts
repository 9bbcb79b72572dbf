// A browser's resize answers once the engine laid the page out at the new size and the screen
// shows it — and says so when it did not. Carbonyl's frame stalls are rare and load-dependent, so a
// stand-in (tests/testdata/fake-carbonyl) draws like Carbonyl, answers the DevTools protocol on
// its pipe (the engine always has the frame), and by its URL's host redraws, stalls, paints pixels
// only, or redraws only when nudged. The real browser's redraw is in browser.test.ts.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { useWorld } from "../helpers/harness.ts";

// Each browse starts python and answers the engine's calls: seconds on a loaded machine.
setDefaultTimeout(60_000);

const world = useWorld({ CARBONYL: resolve(import.meta.dir, "../testdata/fake-carbonyl/carbonyl") });

async function browse(how: string): Promise<void> {
  await world.json(["browse", "--session", how, `http://${how}/`]);
  await world.json(["wait", "--session", how, "--text", "Fake page text"]);
}

test("a page that redraws: the answer comes with its frame, its text read at once", async () => {
  await browse("redraws");
  expect(await world.json(["resize", "--session", "redraws", "100", "30"])).toMatchObject({ cols: 100, rows: 30, redrawn: true, nudged: false });
  expect((await world.run(["snapshot", "--session", "redraws", "--plain"])).stdout).toContain("Fake page text");
  // Two resizes at once (two clients): each sees the frame that follows it.
  const both = await Promise.all([world.json(["resize", "--session", "redraws", "90", "30"]), world.json(["resize", "--session", "redraws", "80", "24"])]);
  for (const sized of both) expect(sized).toMatchObject({ redrawn: true, nudged: false });
});

test("no page frame, pixels without the text, text that goes again, or a frame only after the nudge: each is reported as it is", async () => {
  const kinds = ["stalls", "pixels", "loses-text", "nudged"];
  await Promise.all(kinds.map(browse));
  // The nudge comes once the screen lagged the engine 2.5 s; each resize waits at most 3.5 s.
  const [stalls, pixels, losesText, nudged] = await Promise.all(kinds.map((how) => world.json(["resize", "--session", how, "100", "30", "--timeout", "3500"])));
  expect(stalls).toMatchObject({ cols: 100, rows: 30, redrawn: false, nudged: true });
  expect(pixels).toMatchObject({ cols: 100, rows: 30, redrawn: false, nudged: true });
  expect(losesText).toMatchObject({ cols: 100, rows: 30, redrawn: false, nudged: true });
  expect(nudged).toMatchObject({ cols: 100, rows: 30, redrawn: true, nudged: true, recovered: { by: "resize-nudge", nudges: 1 } });
  expect(nudged.recovered.stalledMs).toBeGreaterThanOrEqual(2500);
  // The size is set either way, and the person reading is told the page did not redraw.
  const human = await world.run(["resize", "--session", "stalls", "90", "30", "--timeout", "100"]);
  expect(human.code).toBe(0);
  expect(human.stdout).toContain("stalls: 90x30");
  expect(human.stdout).toContain("the page did not redraw at this size before the timeout");
});

test("a browser that exited answers resize (and every other call) with session-exited, never ok", async () => {
  await browse("redraws-then-ends");
  await world.run(["signal", "--session", "redraws-then-ends", "KILL"]);
  await world.json(["wait", "--session", "redraws-then-ends", "--exit"]);
  const sized = await world.run(["resize", "--session", "redraws-then-ends", "100", "30"]);
  expect(sized.code).toBe(69);
  expect(sized.stderr).toContain("cannot resize the browser: the browser has exited (killed by SIGKILL)");
  for (const args of [["get", "url"], ["get", "title"], ["get", "nav"], ["navigate", "http://redraws/"], ["back"], ["press", "Tab"], ["scroll", "1"]]) {
    const after = await world.run([...args, "--session", "redraws-then-ends"]);
    expect({ args, code: after.code }).toEqual({ args, code: 69 });
    expect(after.stderr).toContain("the browser has exited (killed by SIGKILL)");
  }
  // The last screen can still be read: that is what `snapshot` of an exited program is for.
  expect((await world.run(["snapshot", "--session", "redraws-then-ends", "--plain"])).stdout).toContain("Fake page text");
});

test("a browser that deadlocks (its engine answers nothing) is started again at its page, and the call says so", async () => {
  const marker = join(world.dir, "wedged");
  await world.json(["browse", "--session", "wedges", "--env", `FAKE_CARBONYL_WEDGED=${marker}`, "http://wedges/"]);
  const before = (await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "wedges").pid;
  // The engine stops answering at this resize: after its call timeout and a direct ask (40 s), the
  // browser is killed, started again in the same session, and the resize runs on the new one.
  const sized = await world.json(["resize", "--session", "wedges", "100", "30"]);
  expect(existsSync(marker)).toBe(true);
  expect(sized).toMatchObject({ cols: 100, rows: 30, redrawn: true, recovered: { by: "browser-restart", url: "http://wedges/", history: 1 } });
  expect(sized.recovered.stalledMs).toBeGreaterThanOrEqual(30_000);
  const after = (await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "wedges");
  expect(after).toMatchObject({ state: "running", cols: 100, rows: 30 });
  expect(after.pid).not.toBe(before);
  expect((await world.run(["get", "url", "--session", "wedges"])).stdout.trim()).toBe("http://wedges/");
  expect((await world.run(["snapshot", "--session", "wedges", "--plain"])).stdout).toContain("Fake page text");
}, 150_000);

test("an engine that goes silent during a load (it answered the reload, then nothing) is found out when the load times out: the browser is started again and the reload runs on it", async () => {
  const marker = join(world.dir, "wedged-loading");
  await world.json(["browse", "--session", "wedges-loading", "--env", `FAKE_CARBONYL_WEDGED=${marker}`, "http://wedges-loading/"]);
  const before = (await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "wedges-loading").pid;
  // No load event comes: at the 5 s timeout the engine is asked directly (10 s), and answers nothing.
  const reloaded = await world.json(["reload", "--session", "wedges-loading", "--timeout", "5000"]);
  expect(existsSync(marker)).toBe(true);
  expect(reloaded).toMatchObject({ url: "http://wedges-loading/", recovered: { by: "browser-restart", url: "http://wedges-loading/", history: 1 } });
  expect((await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "wedges-loading").pid).not.toBe(before);
  expect(world.daemonLog()).toMatch(/reload \(session "wedges-loading"\): recovered by browser-restart/);
}, 90_000);

test("a screen that stops drawing the page while the engine has it (Carbonyl's stall; nudges do not help) gets a new browser at its page, and the call says so", async () => {
  const marker = join(world.dir, "blanked");
  await world.json(["browse", "--session", "blanks", "--env", `FAKE_CARBONYL_BLANKED=${marker}`, "http://blanks/"]);
  await world.json(["wait", "--session", "blanks", "--text", "Fake page text"]);
  const before = (await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "blanks").pid;
  // From this reload on the old browser draws pixels only: two nudges and three stall windows
  // later the call has the browser started again at its history, and reloads on the new one.
  const reloaded = await world.json(["reload", "--session", "blanks"]);
  expect(existsSync(marker)).toBe(true);
  expect(reloaded).toMatchObject({ url: "http://blanks/", recovered: { by: "browser-restart", url: "http://blanks/", history: 1 } });
  expect(reloaded.recovered.stalledMs).toBeGreaterThanOrEqual(5000);
  const after = (await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "blanks");
  expect(after.state).toBe("running");
  expect(after.pid).not.toBe(before);
  expect((await world.run(["snapshot", "--session", "blanks", "--plain"])).stdout).toContain("Fake page text");
  // The new browser draws: the next reload needs no recovery.
  expect((await world.json(["reload", "--session", "blanks"])).recovered).toBeUndefined();
});

test("a load whose new renderer Carbonyl never hooked to the screen is reloaded in another renderer: same browser, same history, recovered renderer-restart, in the daemon's log", async () => {
  await browse("unhooked");
  const before = (await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "unhooked").pid;
  const historyBefore = await world.json(["get", "nav", "--session", "unhooked"]);
  // From this reload on the renderer draws pixels only: two nudges do not help; a new renderer does.
  const reloaded = await world.json(["reload", "--session", "unhooked"]);
  expect(reloaded).toMatchObject({ url: "http://unhooked/", recovered: { by: "renderer-restart", nudges: 2 } });
  expect(reloaded.recovered.stalledMs).toBeGreaterThanOrEqual(5000);
  expect((await world.json(["list"])).sessions.find((s: { name: string }) => s.name === "unhooked").pid).toBe(before);
  expect(await world.json(["get", "nav", "--session", "unhooked"])).toEqual(historyBefore);
  expect((await world.run(["snapshot", "--session", "unhooked", "--plain"])).stdout).toContain("Fake page text");
  // The deliberate end of the old renderer is not the page's crash.
  expect(reloaded.recovered.crashed).toBeUndefined();
  expect((await world.json(["snapshot", "--session", "unhooked", "--include-meta"])).meta.crashed).toBeUndefined();
  expect(world.daemonLog()).toMatch(/reload \(session "unhooked"\): recovered by renderer-restart/);
});

test("a bad --timeout is refused with exit 64, naming the flag or the param, and the size is kept", async () => {
  await browse("keeps-size");
  const word = await world.run(["resize", "--session", "keeps-size", "100", "30", "--timeout", "soon"]);
  expect(word.code).toBe(64);
  expect(word.stderr).toContain('--timeout needs a whole number, got "soon"');
  const zero = await world.run(["resize", "--session", "keeps-size", "100", "30", "--timeout", "0"]);
  expect(zero.code).toBe(64);
  expect(zero.stderr).toContain('invalid params for "resize": timeoutMs: Invalid value: Expected >=1 but received 0');
  expect(await world.json(["get", "size", "--session", "keeps-size"])).toMatchObject({ value: { cols: 140, rows: 45 } });
});
