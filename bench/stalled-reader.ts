// Daemon RSS with a `tuiwright events` reader that never reads its output, while three
// sessions ring the bell as fast as they can (one event per BEL). Issue 13 measured 2–3 MB/s
// of growth before per-connection limits. `bun bench/stalled-reader.ts [SECONDS]` after
// `bun run build` (default 60 s).
import { readFileSync } from "node:fs";
import { BIN, World } from "../tests/helpers/harness.ts";

const seconds = Number(process.argv[2] ?? 60);
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

await using world = await World.start();
const names: string[] = [];
for (let i = 0; i < 3; i++) {
  names.push((await world.spawn(["bash", "-c", process.env.FLOOD ?? "while :; do printf '\\a'; done"])).name);
}
// stdout is a pipe nobody reads: once it fills, the CLI stops reading the socket.
const stalled = Bun.spawn(process.env.NO_READER ? ["true"] : [BIN, "events"], { env: world.env, stdout: "pipe", stderr: "ignore" });
const pid = world.daemon!.pid;
const both = () => `${rssMiB(pid).toFixed(1)} MiB${process.env.NO_READER ? "" : ` (events CLI ${rssMiB(stalled.pid).toFixed(1)} MiB)`}`;
const samples: string[] = [`0 s: ${both()}`];
for (let t = 10; t <= seconds; t += 10) {
  await Bun.sleep(10_000);
  samples.push(`${t} s: ${both()}`);
}
console.log(`daemon RSS with a stalled events reader: ${samples.join(", ")}`);
stalled.kill();
for (const name of names) await world.run(["kill", "--session", name]);
