// Browser soak (not in the default run): `bun bench/browser-soak.ts --minutes 30 [--load 2]
// [--seed N]`. One real Carbonyl on tests/testdata/site2, driven by random valid AWI-TTY calls
// on one connection, each checked against a model of what the page must be: navigate, back,
// forward, reload, scroll, keys with modifiers, viewport changes, getters and snapshots. A call
// that fails, or answers something the model says is wrong (another URL or title, the page's text
// not on the screen when the call returned, a key that did not reach the page), is a wrong
// answer. Stalls the browser found and recovered (`recovered` in results) are counted and listed.
// --load N runs N `yes > /dev/null` beside it (killed at the end). Exits 1 on any wrong answer.
import { spawn, type ChildProcess } from "node:child_process";
import { World } from "../tests/helpers/harness.ts";
import { Prng } from "../tests/helpers/prng.ts";
import { serveSite2 } from "../tests/helpers/site2-server.ts";

const flag = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const MINUTES = flag("--minutes", 5);
const LOAD = flag("--load", 0);
const SEED = flag("--seed", Date.now() % 100_000);
if (!(MINUTES > 0) || !(LOAD >= 0)) {
  console.error("usage: bun bench/browser-soak.ts [--minutes N] [--load N] [--seed N]");
  process.exit(64);
}

/** Each page: its title and a line the screen shows wherever it is scrolled. */
const PAGES: Record<string, { title: string; shows: string }> = {
  "": { title: "Café Münster — Start", shows: "Second site start" },
  "form.html": { title: "Order form", shows: "Order form" },
  "long.html": { title: "Long page", shows: "of the long page" },
  "animated.html": { title: "Ticker", shows: "This line stays still." },
  "input.html": { title: "Input lab", shows: "Input lab" },
  "thanks.html?q=soak": { title: "Thanks", shows: "query soak" },
};

const random = new Prng(SEED);
const loads: ChildProcess[] = Array.from({ length: LOAD }, () => spawn("sh", ["-c", "exec yes > /dev/null"], { stdio: "ignore" }));
const { server, base } = serveSite2();
const world = await World.start();
const wrong: string[] = [];
const recovered: { call: string; recovered: unknown }[] = [];
const latencies = new Map<string, number[]>();
let calls = 0;

try {
  await world.json(["browse", "--session", "soak", base]);
  // Every call below goes over this one connection (the binary is not run again: a rebuild
  // meanwhile would be another version than the daemon).
  const rpc = await world.rpc();
  const history: string[] = [""];
  let index = 0;
  const page = () => history[index]!;
  const url = (path: string) => `${base}${path}`;
  const text = async () => ((await rpc.call("snapshot", { format: "text" })) as { lines: string[] }).lines.join("\n");

  const call = async (method: string, params: Record<string, unknown> = {}): Promise<any> => {
    calls++;
    const started = performance.now();
    try {
      const result = await rpc.call(method, params) as any;
      if (result?.recovered) recovered.push({ call: `${method} ${JSON.stringify(params)}`, recovered: result.recovered });
      return result;
    } catch (error) {
      wrong.push(`${method} ${JSON.stringify(params)} failed: ${(error as Error).message}`);
      return null;
    } finally {
      const list = latencies.get(method) ?? [];
      list.push(performance.now() - started);
      latencies.set(method, list);
    }
  };
  const expectPage = async (what: string, result: any) => {
    if (result === null) return;
    const want = PAGES[page()]!;
    if (result.url !== undefined && result.url !== url(page())) wrong.push(`${what}: url ${result.url}, expected ${url(page())}`);
    if ("title" in result && result.title !== want.title) wrong.push(`${what}: title ${JSON.stringify(result.title)}, expected ${JSON.stringify(want.title)}`);
    const shown = await text();
    if (!shown.includes(want.shows)) wrong.push(`${what}: the screen lacks ${JSON.stringify(want.shows)} when the call answered:\n${shown.slice(0, 400)}`);
  };

  const actions: (() => Promise<void>)[] = [
    async () => {
      const choices = Object.keys(PAGES).filter((path) => path !== page());
      const target = choices[random.int(choices.length)]!;
      const result = await call("navigate", { url: url(target) });
      history.splice(index + 1, history.length, target);
      index = history.length - 1;
      await expectPage(`navigate ${target}`, result);
    },
    async () => {
      if (index === 0) return;
      index--;
      await expectPage("go_back", await call("go_back"));
    },
    async () => {
      if (index === history.length - 1) return;
      index++;
      await expectPage("go_forward", await call("go_forward"));
    },
    async () => expectPage("reload", await call("reload")),
    async () => {
      const delta = random.int(7) - 3 || 1;
      const result = await call("scroll", { delta });
      if (result && result.ok !== true) wrong.push(`scroll ${delta}: ${JSON.stringify(result)}`);
    },
    async () => {
      if (page() !== "input.html") return;
      const key = ["Left", "Right", "Up", "Down", "Char"][random.int(5)]!;
      const modifiers = ["ctrl", "alt", "shift", "meta"].filter(() => random.int(3) === 0);
      const char = "abcxyz"[random.int(6)]!;
      const result = await call("send_key", { key, ...(key === "Char" ? { char } : {}), modifiers });
      if (!result) return;
      const domKey = key === "Char" ? char : `Arrow${key}`;
      const order = ["ctrl", "alt", "shift", "meta"].filter((m) => modifiers.includes(m));
      const line = `key: ${domKey} mods: ${order.join("+") || "none"}`;
      // The answer came after the engine took the key; the page's handler has run and drawn.
      await rpc.call("wait", { session: "soak", text: [line], timeoutMs: 10_000 }).catch((error: unknown) => wrong.push(`send_key ${key} ${modifiers}: the page never showed ${JSON.stringify(line)} (${(error as Error).message})`));
    },
    async () => {
      const cols = 80 + random.int(81);
      const rows = 24 + random.int(27);
      const result = await call("set_viewport", { cols, rows });
      if (result && !(result.ok === true && result.cols === cols && result.rows === rows && result.redrawn === true)) wrong.push(`set_viewport ${cols}x${rows}: ${JSON.stringify(result)}`);
      const snap = await call("snapshot", { format: "text", include_meta: true });
      if (snap && (snap.width !== cols || snap.height !== rows || snap.meta.url !== url(page()))) wrong.push(`snapshot after ${cols}x${rows}: ${snap.width}x${snap.height} ${snap.meta.url}`);
      await call("set_viewport", { cols: 140, rows: 45 });
    },
    async () => {
      const [got, title, nav] = [await call("get_url"), await call("get_title"), await call("get_nav_state")];
      if (got && got.url !== url(page())) wrong.push(`get_url ${got.url}, expected ${url(page())}`);
      if (title && title.title !== PAGES[page()]!.title) wrong.push(`get_title ${JSON.stringify(title.title)}, expected ${JSON.stringify(PAGES[page()]!.title)}`);
      const expected = { can_go_back: index > 0, can_go_forward: index < history.length - 1 };
      if (nav && (nav.can_go_back !== expected.can_go_back || nav.can_go_forward !== expected.can_go_forward)) wrong.push(`get_nav_state ${JSON.stringify(nav)}, expected ${JSON.stringify(expected)}`);
    },
    async () => {
      if (page() === "animated.html") return;
      const result = await call("wait_for_frame_quiescence", { idle_ms: 200, timeout_ms: 10_000 });
      if (result && result.ok !== true) wrong.push(`wait_for_frame_quiescence: ${JSON.stringify(result)}`);
    },
  ];

  const end = performance.now() + MINUTES * 60_000;
  let lastReport = performance.now();
  while (performance.now() < end) {
    await actions[random.int(actions.length)]!();
    if (performance.now() - lastReport > 60_000) {
      lastReport = performance.now();
      console.log(`${Math.round((end - performance.now()) / 1000)} s left: ${calls} calls, ${wrong.length} wrong, ${recovered.length} recovered`);
    }
  }
  rpc.close();
} finally {
  for (const load of loads) load.kill("SIGKILL");
  await world[Symbol.asyncDispose]().catch((error: unknown) => wrong.push(`clean-up: ${(error as Error).message}`));
  server.stop(true);
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
console.log(`\nbrowser soak: ${MINUTES} min, seed ${SEED}, ${LOAD} yes load(s), ${calls} calls, ${wrong.length} wrong answers, ${recovered.length} stalls recovered`);
for (const [method, list] of [...latencies].sort()) {
  console.log(`  ${method.padEnd(26)} n=${String(list.length).padStart(5)}  p50 ${Math.round(percentile(list, 0.5))} ms  p95 ${Math.round(percentile(list, 0.95))} ms  max ${Math.round(Math.max(...list))} ms`);
}
for (const item of recovered) console.log(`  recovered: ${item.call}: ${JSON.stringify(item.recovered)}`);
for (const item of wrong.slice(0, 50)) console.log(`  WRONG: ${item}`);
process.exit(wrong.length === 0 ? 0 : 1);
