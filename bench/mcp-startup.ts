// `bun bench/mcp-startup.ts [BIN …] [--runs N]`: how long `BIN mcp` takes, from spawn, to answer
// `initialize` and its first `tools/list` (initialize, initialized and tools/list written at
// once) — the start-up an agent waits for. Default BIN: dist/tuiwright. Give an older build as
// a second BIN to compare (runs alternate). Prints medians and minima. No daemon is started.
import { resolve } from "node:path";

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const RUNS = runsAt === -1 ? 40 : Number(args.splice(runsAt, 2)[1]);
const bins = args.length > 0 ? args : [resolve(import.meta.dir, "../dist/tuiwright")];
const frames = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
].map((frame) => `${JSON.stringify(frame)}\n`).join("");

async function once(bin: string): Promise<{ init: number; list: number }> {
  const start = performance.now();
  const child = Bun.spawn([bin, "mcp"], { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: { ...process.env, TUIWRIGHT_NS: `bench-mcp-startup-${process.pid}` } });
  child.stdin.write(frames);
  await child.stdin.flush();
  const reader = child.stdout.getReader();
  let text = "";
  let init = 0;
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${bin} mcp ended before answering tools/list: ${text}`);
    text += new TextDecoder().decode(value);
    if (init === 0 && text.includes('"serverInfo"')) init = performance.now() - start;
    if (text.includes('"tools":[')) break;
  }
  const list = performance.now() - start;
  child.stdin.end();
  await child.exited;
  return { init, list };
}

const seen = new Map(bins.map((bin) => [bin, { init: [] as number[], list: [] as number[] }]));
for (let run = 0; run < RUNS; run++) {
  for (const bin of bins) {
    const { init, list } = await once(bin);
    seen.get(bin)!.init.push(init);
    seen.get(bin)!.list.push(list);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(1);
const least = (xs: number[]) => Math.min(...xs).toFixed(1);
console.log(`| binary | initialize answer: median (min) ms | tools/list answer: median (min) ms |\n|---|---|---|`);
for (const [bin, { init, list }] of seen) console.log(`| ${bin} | ${median(init)} (${least(init)}) | ${median(list)} (${least(list)}) |`);
console.log(`\n${RUNS} runs each, alternating.`);
