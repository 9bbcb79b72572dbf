// Browser navigation and page-text timing over a persistent connection (issue 16): navigate
// between two static pages of tests/testdata/site2 with several settle windows, and the text
// snapshot of a loaded page. `bun bench/browser-nav.ts [rounds]` (default 20 per setting).
import { World } from "../tests/helpers/harness.ts";
import { serveSite2 } from "../tests/helpers/site2-server.ts";

const rounds = Number(process.argv[2] ?? 20);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const fmt = (xs: number[]) => `median ${quantile(xs, 0.5).toFixed(1)} ms, p95 ${quantile(xs, 0.95).toFixed(1)} ms`;

const { server, base } = serveSite2();
const world = await World.start();
try {
  await world.json(["browse", "--session", "bench", base]);
  await world.json(["wait", "--text", "Second site start", "--timeout", "30000"]);
  const rpc = await world.rpc();
  const pages = [`${base}form.html`, `${base}thanks.html`];
  for (const settle of [undefined, 300, 100]) {
    const times: number[] = [];
    let wrong = 0;
    for (let i = 0; i < rounds; i++) {
      const url = pages[i % 2]!;
      const started = performance.now();
      const result = (await rpc.call("navigate", { url, ...(settle === undefined ? {} : { settle_ms: settle }) })) as { url: string; title: string | null };
      times.push(performance.now() - started);
      const text = ((await rpc.call("snapshot", { format: "text" })) as { text: string }).text;
      const expected = i % 2 === 0 ? ["Order form", "Order form"] : ["Thanks", "Thanks for the order"];
      if (result.url !== url || result.title !== expected[0] || !text.includes(expected[1]!)) wrong++;
    }
    console.log(`navigate static page, ${settle === undefined ? "default settle (100 ms once titled, else 300)" : `settle_ms ${settle}`}: ${fmt(times)}; ${wrong}/${rounds} results not the loaded page`);
  }
  const snaps: number[] = [];
  for (let i = 0; i < 500; i++) {
    const started = performance.now();
    await rpc.call("snapshot", { format: "text" });
    snaps.push(performance.now() - started);
  }
  console.log(`snapshot text 140x45 (500×): ${fmt(snaps)}`);
  rpc.close();
} finally {
  await world[Symbol.asyncDispose]();
  server.stop(true);
}
