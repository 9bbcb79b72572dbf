// A real Carbonyl's alert() (issue 27): the Enter that opened it answers at once naming it (it
// used to wait 30 s for the renderer the dialog holds), meta names it, a held call is refused at
// once, and Enter accepts it — the page's script then runs on. A renderer killed under it is
// reported crashed by the engine and a reload recovers. The stand-in's confirm, prompt and crash
// are in browser-dialog-crash.test.ts.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { useWorld } from "../helpers/harness.ts";

setDefaultTimeout(60_000);

const world = useWorld();
const PAGE = "data:text/html,<title>Dialog page</title><h1>Dialog page</h1><button onclick=\"alert('hello there'); document.title = 'after the alert'\">Open</button>";
/** Calls the dialog holds used to take 30 s (the engine's call timeout). */
const PROMPT_MS = 5000;

test("a real alert: named in the answer and meta, held calls refused at once, Enter accepts it and the page runs on", async () => {
  await world.json(["browse", "--session", "alerts", PAGE]);
  await world.json(["press", "--session", "alerts", "Tab"]); // the button has the focus
  const started = performance.now();
  const opened = await world.json(["press", "--session", "alerts", "Enter"]);
  expect(performance.now() - started).toBeLessThan(PROMPT_MS);
  expect(opened).toMatchObject({ ok: true, dialog: { type: "alert", message: "hello there", state: "open" } });
  const meta = (await world.json(["snapshot", "--session", "alerts", "--include-meta"])).meta;
  expect(meta).toMatchObject({ title: "Dialog page", dialog: { type: "alert", message: "hello there" } });
  const heldStarted = performance.now();
  const held = await world.run(["scroll", "--session", "alerts", "1"]);
  expect({ code: held.code, fast: performance.now() - heldStarted < PROMPT_MS }).toEqual({ code: 75, fast: true });
  expect(held.stderr).toContain('the page shows a JavaScript alert ("hello there")');
  expect(await world.json(["press", "--session", "alerts", "Enter"])).toMatchObject({ ok: true, dialog: { type: "alert", state: "accepted" } });
  expect((await world.run(["get", "title", "--session", "alerts"])).stdout.trim()).toBe("after the alert");
  expect((await world.json(["snapshot", "--session", "alerts", "--include-meta"])).meta.dialog).toBeUndefined();
});

/** The renderer processes under the browser (Chromium's --type=renderer children, via the zygote). */
function renderers(browser: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch { /* it ended meanwhile */ }
  }
  const found: number[] = [];
  for (const queue = [browser]; queue.length > 0;) {
    for (const child of children.get(queue.pop()!) ?? []) {
      queue.push(child);
      try { if (readFileSync(`/proc/${child}/cmdline`, "utf8").includes("--type=renderer")) found.push(child); } catch { /* ended */ }
    }
  }
  return found;
}

test("a real renderer killed: the engine's crash is reported, input refused at once, reload recovers with a new renderer", async () => {
  const { pid } = await world.json(["browse", "--session", "crashes", "data:text/html,<title>Crash page</title><h1>Crash page</h1>"]);
  const killed = renderers(pid);
  expect(killed.length).toBeGreaterThan(0);
  for (const renderer of killed) process.kill(renderer, "SIGKILL");
  // The first call after the kill waits for the engine's word (the crash event), then no longer.
  const refused = await world.run(["press", "--session", "crashes", "Tab"]);
  expect(refused.code).toBe(69);
  expect(refused.stderr).toContain("the page's renderer crashed");
  const meta = (await world.json(["snapshot", "--session", "crashes", "--include-meta"])).meta;
  expect(meta.crashed).toContain("the page's renderer crashed");
  const reloaded = await world.json(["reload", "--session", "crashes"]);
  expect(reloaded).toMatchObject({ ok: true, title: "Crash page", recovered: { by: "new-renderer" } });
  expect(await world.json(["press", "--session", "crashes", "Tab"])).toMatchObject({ ok: true });
  expect(renderers(pid).some((renderer) => !killed.includes(renderer))).toBe(true);
});
