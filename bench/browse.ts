// A scripted browse for N minutes (`bun run browse --minutes 5`): one Carbonyl session on the
// test site, driven through the AWI-TTY methods on one connection — read the list, open a
// story's comments by ref, scroll, go back and forward, navigate, reload, wait for quiescence.
// Reports every call's latency (p50/p95/max) per method and overall, with and without the
// navigation calls (which end with a 300 ms settle by design), and checks that nothing failed.
import { World } from "../tests/helpers/harness.ts";
import { serveSite } from "./site-server.ts";

const minutesFlag = process.argv.indexOf("--minutes");
const minutes = minutesFlag >= 0 ? Number(process.argv[minutesFlag + 1]) : 5;
if (!(minutes > 0)) throw new Error("usage: bun bench/browse.ts [--minutes N]");

const NAVIGATION = new Set(["navigate", "go_back", "go_forward", "reload", "click", "wait_for_frame_quiescence", "scroll"]);
const latencies = new Map<string, number[]>();
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

const site = serveSite();
await using world = await World.start();
await world.json(["browse", "--session", "web", site.url]);
await world.json(["wait", "--ref", "@carbonyl.page link", "--timeout", "30000"]);
const rpc = await world.rpc();
const call = async (method: string, params: Record<string, unknown> = {}): Promise<any> => {
  const started = performance.now();
  const result = await rpc.call(method, params);
  const list = latencies.get(method) ?? [];
  list.push(performance.now() - started);
  latencies.set(method, list);
  return result;
};

const deadline = performance.now() + minutes * 60_000;
let rounds = 0;
while (performance.now() < deadline) {
  rounds++;
  await call("navigate", { url: site.url });
  const text = await call("snapshot", { format: "text", include_meta: true });
  if (!text.lines.some((line: string) => line.includes("Tiny News"))) throw new Error(`round ${rounds}: the list is not on screen`);
  const outline = await call("snapshot", { format: "outline", select: "link[name~=/comments$/]" });
  const links = outline.outline.nodes;
  const link = links[rounds % links.length];
  await call("click", { target: link.ref, revision: outline.revision, wait: { ref: "@carbonyl.url", refValue: "/comments/", timeoutMs: 30_000 } });
  await call("wait_for_frame_quiescence", { idle_ms: 200 });
  await call("scroll", { delta: 3 });
  await call("snapshot", { format: "text" });
  await call("get_url");
  await call("get_title");
  await call("get_nav_state");
  await call("go_back");
  await call("go_forward");
  await call("navigate", { url: `${site.url}second.html` });
  await call("reload");
  await call("send_key", { key: "Tab" });
  await call("snapshot", { format: "ansi" });
}
rpc.close();
const status = await world.json(["daemon", "status"]);
site.stop();

const all = [...latencies.values()].flat();
const reads = [...latencies.entries()].filter(([m]) => !NAVIGATION.has(m)).flatMap(([, xs]) => xs);
const row = (name: string, xs: number[]) => `| ${name} | ${xs.length} | ${percentile(xs, 0.5).toFixed(2)} | ${percentile(xs, 0.95).toFixed(2)} | ${Math.max(...xs).toFixed(1)} |`;
console.log(`scripted browse: ${minutes} min, ${rounds} rounds, ${all.length} calls, none failed; daemon RSS ${(status.rssBytes / 2 ** 20).toFixed(0)} MiB\n`);
console.log("| method | calls | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|");
for (const [method, xs] of [...latencies.entries()].sort()) console.log(row(method, xs));
console.log(row("**all calls**", all));
console.log(row("**all but navigation and waits**", reads));
