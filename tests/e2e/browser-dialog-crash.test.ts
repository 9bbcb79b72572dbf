// A page's JavaScript dialog and a crashed renderer, as the engine reports them (issue 27): the
// session says so in the input's answer and in meta, no call hangs on the held or dead renderer,
// Enter/Escape answer a dialog, and a reload starts a new renderer and says it recovered. The
// stand-in Carbonyl (tests/testdata/fake-carbonyl) opens a dialog or crashes on Enter, as its
// FAKE_CARBONYL_DIALOG / FAKE_CARBONYL_CRASH say; the real browser's dialog is the last test.
import { expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { useWorld } from "../helpers/harness.ts";

setDefaultTimeout(60_000);

const world = useWorld({ CARBONYL: resolve(import.meta.dir, "../testdata/fake-carbonyl/carbonyl") });
/** A held renderer answers nothing: without the fix each of these calls took 30 s (the engine's call timeout). */
const PROMPT_MS = 5000;

async function browse(session: string, env: string): Promise<void> {
  await world.json(["browse", "--session", session, "--env", env, `http://${session}/`]);
}

/** A call's exit, output and how long it took. */
async function timed(args: string[]): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const result = await world.run(args);
  return { ...result, ms: performance.now() - started };
}

const meta = async (session: string) => (await world.json(["snapshot", "--session", session, "--include-meta"])).meta;

test("a confirm the input opened: the answer and meta name it, held calls are refused at once saying how to answer it, Escape dismisses it", async () => {
  await browse("confirms", "FAKE_CARBONYL_DIALOG=confirm");
  const opened = await timed(["--json", "press", "--session", "confirms", "Enter"]);
  expect(opened.code).toBe(0);
  expect(opened.ms).toBeLessThan(PROMPT_MS);
  expect(JSON.parse(opened.stdout)).toMatchObject({ ok: true, dialog: { type: "confirm", message: "Fake confirm?", state: "open" } });
  expect(await meta("confirms")).toMatchObject({ url: "http://confirms/", dialog: { type: "confirm", message: "Fake confirm?" } });
  // The outline and the engine's history still answer (the browser process's own); the screen is the last frame.
  const outline = await timed(["snapshot", "--session", "confirms", "--format", "outline"]);
  expect({ code: outline.code, fast: outline.ms < PROMPT_MS }).toEqual({ code: 0, fast: true });
  expect((await world.run(["get", "url", "--session", "confirms"])).stdout.trim()).toBe("http://confirms/");
  for (const args of [["press", "Tab"], ["scroll", "1"], ["click", "4", "4"], ["resize", "100", "30"], ["type", "x"]]) {
    const held = await timed([...args, "--session", "confirms"]);
    expect({ args, code: held.code, fast: held.ms < PROMPT_MS }).toEqual({ args, code: 75, fast: true });
    expect(held.stderr).toContain('the page shows a JavaScript confirm ("Fake confirm?"), which holds the page until it is answered');
    expect(held.stderr).toContain("press Enter to accept it (OK) or Escape to dismiss it (Cancel)");
  }
  expect(await world.json(["get", "size", "--session", "confirms"])).toMatchObject({ value: { cols: 140, rows: 45 } });
  // Escape is Cancel: the engine closes the dialog, the page has its answer (the stand-in titles itself with it).
  expect(await world.json(["press", "--session", "confirms", "Escape"])).toMatchObject({ ok: true, dialog: { type: "confirm", state: "dismissed" } });
  const after = await meta("confirms");
  expect(after.dialog).toBeUndefined();
  expect(after.title).toBe("confirm dismissed");
  expect(await world.json(["press", "--session", "confirms", "Tab"])).toMatchObject({ ok: true });
  expect((await world.json(["press", "--session", "confirms", "Tab"])).dialog).toBeUndefined();
});

test("a prompt over AWI-TTY: send_key names it, type_text gives its answer, Enter accepts it with that text", async () => {
  await browse("prompts", "FAKE_CARBONYL_DIALOG=prompt");
  const rpc = await world.rpc();
  try {
    const call = (method: string, params: Record<string, unknown>) => rpc.call(method, { session: "prompts", ...params }) as Promise<any>;
    expect(await call("send_key", { key: "Enter" })).toMatchObject({ ok: true, dialog: { type: "prompt", message: "Fake prompt?", state: "open" } });
    expect((await call("snapshot", { format: "text", include_meta: true })).meta).toMatchObject({ dialog: { type: "prompt", message: "Fake prompt?" } });
    expect(await call("type_text", { text: "Ada" })).toMatchObject({ ok: true, dialog: { type: "prompt", state: "open" } });
    expect(await call("send_key", { key: "Enter" })).toMatchObject({ ok: true, dialog: { type: "prompt", state: "accepted" } });
    expect(await call("get_title", {})).toMatchObject({ title: "prompt accepted: Ada", title_source: "engine" });
    expect((await call("snapshot", { format: "text", include_meta: true })).meta.dialog).toBeUndefined();
  } finally {
    rpc.close();
  }
});

test("a renderer that crashed: meta says so with the engine's word, input is refused at once, a reload starts a new renderer and says it recovered", async () => {
  await browse("crashes", "FAKE_CARBONYL_CRASH=1");
  // The Enter that crashed it gets no acknowledgement from the renderer: the answer says why.
  const crashed = await timed(["press", "--session", "crashes", "Enter"]);
  expect({ code: crashed.code, fast: crashed.ms < PROMPT_MS }).toEqual({ code: 69, fast: true });
  expect(crashed.stderr).toContain("cannot press keys: the page's renderer crashed (crashed, code 139)");
  const dead = await meta("crashes");
  expect(dead).toMatchObject({ url: "http://crashes/", crashed: "the page's renderer crashed (crashed, code 139)" });
  // The tab is still at its URL (the engine's history): that is no stale fact, and meta says the page is dead.
  expect((await world.run(["get", "url", "--session", "crashes"])).stdout.trim()).toBe("http://crashes/");
  for (const args of [["press", "Tab"], ["scroll", "1"], ["click", "4", "4"], ["resize", "100", "30"]]) {
    const refused = await timed([...args, "--session", "crashes"]);
    expect({ args, code: refused.code, fast: refused.ms < PROMPT_MS }).toEqual({ args, code: 69, fast: true });
    expect(refused.stderr).toContain("the page's renderer crashed (crashed, code 139); the screen shows its last frame");
    expect(refused.stderr).toContain("reload (or navigate) starts a new renderer");
  }
  const reloaded = await world.json(["reload", "--session", "crashes"]);
  expect(reloaded).toMatchObject({ ok: true, url: "http://crashes/", recovered: { by: "new-renderer", crashed: "the page's renderer crashed (crashed, code 139)" } });
  expect(reloaded.recovered.stalledMs).toBeGreaterThanOrEqual(0);
  expect((await meta("crashes")).crashed).toBeUndefined();
  expect(await world.json(["press", "--session", "crashes", "Tab"])).toMatchObject({ ok: true });
  // A later load of a healthy page claims no recovery.
  expect((await world.json(["reload", "--session", "crashes"])).recovered).toBeUndefined();
});
