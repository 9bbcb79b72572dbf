// Browser sessions: the real Carbonyl binary on a PTY, loading tests/testdata/site/ from a
// server this file runs on 127.0.0.1. One browser serves the tests in order (Chromium takes a
// while to start); each test says where it leaves it.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { World } from "../helpers/harness.ts";
import { RawSocket } from "../helpers/raw-socket.ts";

// Page loads take Chromium's time, more so on a loaded CI machine.
setDefaultTimeout(90_000);

const SITE = resolve(import.meta.dir, "../testdata/site");
const PIXELS = /[▄▀▖▗▘▝▐▌▙▚▛▜▞▟█]/;

let world: World;
let server: ReturnType<typeof Bun.serve>;
let base: string;
const requests: string[] = [];

beforeAll(async () => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push(`${request.method} ${path}`);
      const file = Bun.file(`${SITE}${path === "/" ? "/index.html" : path}`);
      return (await file.exists()) ? new Response(file) : new Response("not found", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}/`;
  world = await World.start();
  // `browse` answers once the engine loaded the page and the screen shows its text (no retry:
  // a stall is recovered inside the call, and reported).
  const started = await world.json(["browse", "--session", "web", base]);
  expect(started).toMatchObject({ name: "web", cols: 140, rows: 45, kind: "browser", ready: { ready: true, url: base } });
}, 90_000);

afterAll(async () => {
  await world[Symbol.asyncDispose]();
  server.stop(true);
});

const text = async () => (await world.run(["snapshot", "--plain"])).stdout;

test("browse: the title, the URL and the page's text without pixel glyphs", async () => {
  const rpc = await world.rpc();
  expect(await rpc.call("get_title", {})).toEqual({ session: "web", title: "Tiny News", title_source: "engine" });
  expect(await rpc.call("get_url", {})).toEqual({ session: "web", url: base });
  expect(await rpc.call("get_nav_state", {})).toEqual({ session: "web", can_go_back: false, can_go_forward: false });
  rpc.close();
  const page = await text();
  expect(page).toContain("Tiny News");
  expect(page).toMatch(/^ +1\. Terminals are the new browser/m);
  expect(page).not.toMatch(PIXELS);
  // --raw keeps the grid as Carbonyl drew it.
  expect((await world.run(["snapshot", "--raw", "--plain"])).stdout).toMatch(PIXELS);
  // The outline: nav bar nodes with durable refs; the page's links and heading from the engine's
  // accessibility tree, each citing it, with the cells Carbonyl draws it in.
  const outline = (await world.run(["snapshot", "--format", "outline", "--plain"])).stdout;
  expect(outline).toContain('@carbonyl.back button "❮" = "disabled"');
  expect(outline).toContain(`@carbonyl.url input`);
  expect(outline).toMatch(/@ax\d+\.\d+ link "12 comments"/);
  expect(outline).toMatch(/@ax\d+\.\d+ heading "Tiny News"/);
  // Carbonyl cut the link's last letter (the next run overwrites it); the engine's name is whole.
  expect(outline).toMatch(/@ax\d+\.\d+ link "Terminals are the new browsers"/);
  const link = (await world.json(["snapshot", "--format", "outline", "--select", "link[name='12 comments']"])).outline.nodes[0];
  expect(link).toMatchObject({ role: "link", bbox: { row: 7, col: 21, rows: 1, cols: 11 }, evidence: [{ source: "engine", method: "Accessibility.getFullAXTree", detail: "role=link" }] });
  expect((await world.run(["snapshot", "--plain"])).stdout.split("\n")[7]!.slice(21, 32)).toBe("12 comments");
  expect(await world.json(["get", "nav"])).toMatchObject({ can_go_back: false, can_go_forward: false });
  expect((await world.run(["get", "url"])).stdout.trim()).toBe(base);
});

test("click a link by ref: the answer comes with the new page loaded and drawn; back returns", async () => {
  const ref = (await world.run(["snapshot", "--format", "outline", "--plain", "--select", "link[name='12 comments']"])).stdout.split(" ")[0]!;
  expect(ref).toMatch(/^@ax\d+\.\d+$/);
  const clicked = await world.json(["click", ref]);
  expect(clicked).toMatchObject({ ok: true, target: { ref, row: 7 }, navigated: { url: `${base}comments1.html`, title: "Comments: Terminals are the new browsers" } });
  expect(await text()).toContain("Comments on Terminals");
  expect((await world.run(["get", "url"])).stdout.trim()).toBe(`${base}comments1.html`);
  expect(await world.json(["get", "nav"])).toMatchObject({ can_go_back: true, can_go_forward: false });
  // The ref belonged to the page before: clicking it now is a stale ref, never another element.
  const stale = await world.run(["click", ref]);
  expect(stale.code).toBe(65);
  expect(stale.stderr).toContain(`${ref} is stale: it was on an earlier page`);
  // The document's shell example, with our verb name.
  const check = Bun.spawn(["bash", "-c", `"$TW" get nav --json | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["can_go_back"] == True else 1)'`], {
    env: { ...world.env, TW: resolve(import.meta.dir, "../../dist/tuiwright") },
  });
  expect(await check.exited).toBe(0);
  const back = await world.json(["back"]);
  expect(back).toMatchObject({ ok: true, url: base, title: "Tiny News" });
  expect(await text()).toContain("Tiny News");
  expect(await world.json(["get", "nav"])).toMatchObject({ can_go_back: false, can_go_forward: true });
  expect(await world.json(["forward"])).toMatchObject({ url: `${base}comments1.html` });
  expect(await text()).toContain("Comments on Terminals");
});

test("the document's user story: Tab to a link, Enter opens it, read the comments, scroll, back", async () => {
  expect(await world.json(["back"])).toMatchObject({ url: base });
  const focused = async () => (await world.json(["snapshot", "--format", "outline", "--select", "[focused]"])).outline.nodes[0];
  // Tab moves the page's focus (the engine's input events): the first story, then its comments.
  await world.json(["press", "Tab"]);
  expect(await focused()).toMatchObject({ role: "link", name: "Terminals are the new browsers", focused: true, evidence: [{ source: "engine", detail: "role=link focused" }] });
  await world.json(["press", "Tab"]);
  expect(await focused()).toMatchObject({ role: "link", name: "12 comments", focused: true });
  await world.json(["press", "S-Tab"]);
  expect(await focused()).toMatchObject({ name: "Terminals are the new browsers" });
  await world.json(["press", "Tab"]);
  // Enter on the focused link follows it; the answer waits for the page, so it reads at once.
  const entered = await world.json(["press", "Enter"]);
  expect(entered).toMatchObject({ ok: true, navigated: { url: `${base}comments1.html`, title: "Comments: Terminals are the new browsers" } });
  const comments = await text();
  expect(comments).toContain("Comments on Terminals");
  expect(comments).toMatch(/Comment 1 on story 1/);
  await world.json(["scroll", "5"]);
  expect(await text()).toMatch(/Comment \d+ on story 1/);
  expect(await world.json(["back"])).toMatchObject({ url: base, title: "Tiny News" });
  expect(await text()).toContain("Tiny News");
});

test("scroll 5 changes the visible text of a long page", async () => {
  // A fresh load (forward would restore the scroll the story left).
  await world.json(["navigate", `${base}comments1.html`]);
  const before = await text();
  expect(before).toContain("Comment 1 on story 1");
  const scrolled = await world.json(["scroll", "5"]);
  expect(scrolled.revisionAfter).toBeGreaterThan(scrolled.revisionBefore);
  const after = await text();
  expect(after).not.toBe(before);
  // The page moved up: a later comment is on screen, and the heading has gone.
  expect(before).toContain("Comments on Terminals");
  expect(after).not.toContain("Comments on Terminals");
  await world.json(["scroll", "-5"]);
  expect(await text()).toContain("Comments on Terminals");
});

test("navigate: a second page; an invalid URL is exit 65; a port nobody listens on is reported", async () => {
  const second = await world.json(["navigate", `${base}second.html`]);
  expect(second).toMatchObject({ ok: true, url: `${base}second.html`, title: "Second Page" });
  expect(await text()).toContain("The second page");

  const invalid = await world.run(["navigate", "invalid://url"]);
  expect(invalid.code).toBe(65);
  expect(invalid.stderr).toContain('"invalid://url": the browser does not load invalid: URLs');
  const relative = await world.run(["navigate", "news.html"]);
  expect(relative.code).toBe(65);
  expect(relative.stderr).toContain('not an absolute URL: "news.html"');

  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const deadPort = closed.port;
  closed.stop(true); // the port is free now: nothing listens there
  const refused = await world.run(["navigate", `http://127.0.0.1:${deadPort}/`]);
  expect(refused.code).toBe(69);
  expect(refused.stderr).toContain(`http://127.0.0.1:${deadPort}/ did not load: net::ERR_CONNECTION_REFUSED`);
  // The session is still usable: navigate back to the site.
  expect(await world.json(["navigate", base])).toMatchObject({ url: base, title: "Tiny News" });
});

test("set-viewport answers once the page redrew at the new size; 0 0 is invalid-viewport (exit 65)", async () => {
  try {
    expect(await world.json(["set-viewport", "100", "30"])).toMatchObject({ ok: true, cols: 100, rows: 30, redrawn: true, nudged: false });
    // No wait: the answer came after the page's frame at this size, so its links read at once.
    const snap = await world.json(["snapshot"]);
    expect(snap).toMatchObject({ cols: 100, rows: 30, width: 100, height: 30 });
    expect(snap.lines).toHaveLength(30);
    for (const line of snap.lines) expect([...line].length).toBeLessThanOrEqual(100);
    expect((await world.json(["snapshot", "--format", "outline", "--select", "@carbonyl.page link"])).outline.nodes.length).toBeGreaterThan(0);
    const bad = await world.run(["set-viewport", "0", "0"]);
    expect(bad.code).toBe(65);
    expect(bad.stderr).toContain("invalid viewport 0x0");
    expect(bad.stderr).toContain("cols must be 2..1000 and rows 1..500");
  } finally {
    // The next tests share this browser at its default size, redrawn and still.
    await world.json(["set-viewport", "140", "45"]);
    await world.json(["wait", "--settled", "300", "--timeout", "10000"]);
  }
});

test("raw JSON-RPC from a plain Python client, as in the document's end-to-end sample", async () => {
  const script = `
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
f = s.makefile("rw")
def call(id, method, params=None):
    f.write(json.dumps({"id": id, "jsonrpc": "2.0", "method": method, "params": params or {}}) + "\\n"); f.flush()
    return json.loads(f.readline())
snap = call(1, "snapshot", {"format": "text", "include_meta": True})["result"]
print(json.dumps({"width": snap["width"], "height": snap["height"], "nlines": len(snap["lines"]),
  "heading": any("Tiny News" in l for l in snap["lines"]), "url": snap["meta"]["url"], "title": snap["meta"]["title"],
  "nav": snap["meta"]["nav"]}))
print(json.dumps(call(2, "send_key", {"key": "Tab"})))
print(json.dumps(call(3, "send_key", {"key": "Bogus"})))
print(json.dumps(call(4, "get_capabilities")["result"]))
print(json.dumps(call(5, "wait_for_frame_quiescence", {"idle_ms": 200})["result"]["ok"]))
print(json.dumps(call(6, "wait_for_title_contains", {"substring": "Tiny", "timeout_ms": 5000})["result"]["title"]))
print(json.dumps(call(7, "set_viewport", {"cols": 0, "rows": 0})["error"]["code"]))
print(json.dumps(call(8, "navigate", {"url": "invalid://url"})["error"]["code"]))
print(json.dumps(call(9, "ping")["result"]["pong"]))
`;
  const proc = Bun.spawn(["python3", "-c", script, world.socketPath], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(err).toBe("");
  const [snap, tab, bogus, caps, quiet, title, viewport, url, pong] = out.trim().split("\n").map((line) => JSON.parse(line));
  expect(snap).toEqual({ width: 140, height: 45, nlines: 45, heading: true, url: base, title: "Tiny News", nav: { can_go_back: true, can_go_forward: false } });
  expect(tab.result).toMatchObject({ ok: true, session: "web" });
  expect(bogus.error).toMatchObject({ code: -32011 });
  expect(caps).toMatchObject({ platform: "unix", session_id: "web", snapshot_formats: expect.arrayContaining(["text", "ansi"]) });
  expect(caps.features).toEqual(expect.arrayContaining(["navigate", "send_key", "scroll", "snapshot", "get_title", "get_url", "get_nav_state", "set_viewport"]));
  expect([quiet, title, viewport, url, pong]).toEqual([true, "Tiny News", -32014, -32602, true]);
});

test("AWI-TTY aliases over our connection: subscribe_events, type_text, paste, scroll, click {row, col}", async () => {
  const rpc = await world.rpc();
  const events: { type: string; title?: string }[] = [];
  rpc.onNotification = (message) => { if (message.method === "event") events.push(message.params as { type: string; title?: string }); };
  const sub = (await rpc.call("subscribe_events", { types: ["screen", "title"] })) as { ok: boolean; subscription: string };
  expect(sub).toMatchObject({ ok: true, subscription: expect.stringMatching(/^sub-/) });
  const bad = (await rpc.call("subscribe_events", { types: ["nope"] }).catch((error: unknown) => error)) as { code: number };
  expect(bad.code).toBe(-32602);
  // A click on the first comments link by cell, from the outline's box.
  const outline = (await rpc.call("snapshot", { format: "outline", select: "link[name='7 comments']" })) as any;
  const box = outline.outline.nodes[0].bbox;
  expect(await rpc.call("click", { row: box.row, col: box.col + 1, wait: { title: "Comments: A tiny DOM", timeoutMs: 30_000 } })).toMatchObject({ session: "web" });
  expect(events.some((e) => e.type === "title" && e.title === "Comments: A tiny DOM for every TUI")).toBe(true);
  expect(await rpc.call("scroll", { delta: 2 })).toMatchObject({ ok: true, session: "web" });
  expect(await rpc.call("type_text", { text: "" })).toMatchObject({ ok: true });
  expect(await rpc.call("paste", { text: "x" })).toMatchObject({ ok: true });
  expect(await rpc.call("go_back", {})).toMatchObject({ ok: true, url: base });
  rpc.close();
});

test("the recording replays to the same page text, pixels dropped, and checks against a snapshot saved live", async () => {
  const golden = resolve(world.dir, "page.snap");
  await world.json(["wait", "--settled", "300"]);
  await world.run(["snapshot", "--save", golden]);
  await world.run(["mark", "golden"]);
  const cast = (await world.run(["get", "cast", "--plain"])).stdout.trim();
  const replayed = await world.run(["replay", cast, "--at-marker", "golden"]);
  expect(replayed.stdout).toContain("Tiny News");
  expect(replayed.stdout).not.toMatch(PIXELS);
  expect((await world.run(["replay", cast, "--at-marker", "golden", "--raw"])).stdout).toMatch(PIXELS);
  const check = await world.run(["replay", cast, "--at-marker", "golden", "--expect-snapshot", golden]);
  expect(check.stdout).toContain("matches");
  expect(check.code).toBe(0);
});

test("errors: browser methods on a non-browser session, a missing Carbonyl", async () => {
  const { name } = await world.spawn(["cat"]);
  const url = await world.run(["get", "url", "--session", name]);
  expect(url.code).toBe(64);
  expect(url.stderr).toContain(`session "${name}" is not a browser session`);
  const nav = await world.run(["navigate", "--session", name, base]);
  expect(nav.code).toBe(64);
  await world.run(["kill", "--session", name]);
  const missing = await world.run(["browse", "--env", "CARBONYL=/nonexistent/carbonyl", base]);
  expect(missing.code).toBe(69);
  expect(missing.stderr).toContain("CARBONYL=/nonexistent/carbonyl is not an executable file");
  expect(missing.stderr).toContain("npm install --prefix");
  const usage = await world.run(["spawn", "--browser", base, "--", "bash"]);
  expect(usage.code).toBe(64);
  // spawn --browser takes spawn's other flags, as spawn does for a program.
  const other = await world.json(["spawn", "--browser", base, "--session", "web2", "--cwd", "/tmp", "--cols", "100", "--no-record"]);
  expect(other).toMatchObject({ name: "web2", cwd: "/tmp", cols: 100, rows: 45, cast: null, kind: "browser" });
  await world.run(["kill", "--session", "web2"]);
});

test("the user story script: top two stories, comments by ref, scroll, back — in under 30 lines", async () => {
  const script = resolve(import.meta.dir, "../../examples/news.sh");
  expect((await Bun.file(script).text()).trimEnd().split("\n").length).toBeLessThan(30);
  // Not spawnSync: the site is served by this process's event loop.
  const run = Bun.spawn(["bash", script, base], { env: { ...world.env, TUIWRIGHT: resolve(import.meta.dir, "../../dist/tuiwright") }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  expect(err).toBe("");
  expect(code).toBe(0);
  expect(out).toContain("== top two stories\n1. Terminals are the new browser");
  expect(out).toMatch(/\n2\. A tiny DOM for every TUI? \(tuiwright\.dev\)\n== comments of the first\n/);
  expect(out).toMatch(/Comment \d+ on story 1/);
  expect(out).toContain(`== back at ${base}`);
}, 60_000);
