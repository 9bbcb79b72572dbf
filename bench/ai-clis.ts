// `bun bench/ai-clis.ts [ROUNDS]`: per installed AI CLI, against the scripted model server:
//   start    spawn → @X.input[focused] fired (wall clock, one fresh CLI per round)
//   done     the server's last SSE chunk → the @X.done wait fired (the CLI's own processing and
//            redraw included)
//   beyond   @X.done fired − the screen event of the same revision reached us: what the
//            manifest evaluation adds beyond the CLI's redraw (target ≤ 50 ms)
// All times on this process's clock (the model server runs in it too). Prints a Markdown table.
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { World } from "../tests/helpers/harness.ts";
import { AI_CLIS, installed, setupCli } from "../tests/model-server/cli-setup.ts";
import { startModelServer } from "../tests/model-server/server.ts";

const rounds = Number(process.argv[2] ?? 3);
const now = () => performance.timeOrigin + performance.now();
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN; };
const server = startModelServer({ script: { delayMs: 20, rules: [{ turns: [[{ text: "pong: the answer streamed in small chunks, done." }]] }] } });
const world = await World.start();
const rpc = await world.rpc();
const screenAt = new Map<string, number>();
rpc.onNotification = (message) => {
  const p = message.params as { type?: string; session?: string; revision?: number } | undefined;
  if (p?.type === "screen" && p.session && p.revision !== undefined) screenAt.set(`${p.session}:${p.revision}`, now());
};
await rpc.call("subscribe", { types: ["screen"] });

const rows: string[] = ["| CLI | start → input focused (median ms) | last chunk → done (median ms) | done beyond the CLI's redraw (median ms) | rounds |", "|---|---|---|---|---|"];
for (const cli of AI_CLIS) {
  if (!installed(cli)) { rows.push(`| ${cli} | not installed | | | 0 |`); continue; }
  const start: number[] = [], done: number[] = [], beyond: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const setup = setupCli(cli, server.url, mkdtempSync(join(world.dir, `${cli}-`)));
    const session = `${cli}-${round}`;
    const t0 = now();
    const spawned = await world.run(["--json", "spawn", "--session", session, "--cols", "100", "--rows", "30", "--", ...setup.argv], { env: setup.env, cwd: setup.cwd });
    if (spawned.code !== 0) throw new Error(spawned.stderr);
    await rpc.call("wait", { session, ref: `@${cli}.input[focused]`, timeoutMs: 120_000 });
    start.push(now() - t0);
    await rpc.call("type", { session, text: "say pong" });
    await rpc.call("wait", { session, ref: `@${cli}.input[name~=/say/]`, timeoutMs: 30_000 });
    await rpc.call("wait", { session, settledMs: 150, timeoutMs: 30_000 });
    const reply = server.next((entry) => entry.prompt.includes("say pong") && (entry.tools.length > 0 || cli !== "opencode"));
    await rpc.call("press", { session, keys: ["Enter"] });
    const fired = (await rpc.call("wait", { session, ref: `@${cli}.done[name~=/done\\./]`, timeoutMs: 120_000 })) as { revision: number };
    const firedAt = now();
    const entry = await reply;
    done.push(firedAt - entry.lastChunkAt!);
    const screen = screenAt.get(`${session}:${fired.revision}`);
    if (screen !== undefined) beyond.push(Math.max(0, firedAt - screen));
    await rpc.call("kill", { session });
  }
  rows.push(`| ${cli} | ${median(start).toFixed(0)} | ${median(done).toFixed(0)} | ${beyond.length ? median(beyond).toFixed(1) : "n/a"} | ${rounds} |`);
}
rpc.close();
await server.stop();
await world[Symbol.asyncDispose]();
console.log(rows.join("\n"));
