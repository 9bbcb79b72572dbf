// What an idle session costs the daemon, beside a tmux pane (issue 30): PSS and threads of the
// daemon with 1 and N idle `bash --norc` sessions, and of a tmux server with 1 and N panes of the
// same, in the same run. Per further session = (at N − at 1) / (N − 1); both exclude the shells
// themselves (separate processes).
//
//   bun bench/session-cost.ts [N …]        (default: 10 100)
import { readFileSync, readdirSync } from "node:fs";
import { World } from "../tests/helpers/harness.ts";
import { pollUntil } from "./measure.ts";

const counts = process.argv.slice(2).map(Number).filter((n) => n > 1);
const targets = counts.length > 0 ? counts : [10, 100];

function pssKb(pid: number): number {
  return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))![1]);
}
const threads = (pid: number) => readdirSync(`/proc/${pid}/task`).length;
const mb = (kb: number) => `${(kb / 1024).toFixed(2)} MB`;

const socket = `/tmp/tw-bench-cost-${process.pid}.sock`;
const tmux = (...args: string[]) => {
  const run = Bun.spawnSync(["tmux", "-S", socket, ...args]);
  if (run.exitCode !== 0) throw new Error(`tmux ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
};
const tmuxShows = (target: string, pattern: RegExp) => pattern.test(tmux("capture-pane", "-p", "-t", target).trimEnd());

await using world = await World.start();
const daemon = world.daemon!.pid;
tmux("new-session", "-d", "-s", "cost", "-x", "80", "-y", "24", "bash --norc --noprofile");
const server = Number(tmux("display-message", "-p", "-t", "cost", "#{pid}").trim());
try {
  let sessions = 0;
  const grow = async (to: number) => {
    for (; sessions < to; sessions++) {
      await world.spawn(["bash", "--norc", "--noprofile"], ["--session", `idle${sessions}`]);
      await world.json(["wait", "--session", `idle${sessions}`, "--regex", "[$#] ?$"]);
      if (sessions > 0) {
        tmux("new-window", "-t", "cost", "bash --norc --noprofile");
        await pollUntil(() => tmuxShows("cost", /[$#] ?$/), 10_000, "the prompt in a new tmux window");
      }
    }
  };
  await grow(1);
  const base = { ours: pssKb(daemon), theirs: pssKb(server), threads: threads(daemon) };
  console.log(`1 session: daemon ${mb(base.ours)} PSS, ${base.threads} threads; tmux server ${mb(base.theirs)}`);
  for (const target of targets) {
    await grow(target);
    const ours = pssKb(daemon);
    const theirs = pssKb(server);
    const each = (ours - base.ours) / (target - 1);
    const theirsEach = (theirs - base.theirs) / (target - 1);
    console.log(`${target} sessions: daemon ${mb(ours)} PSS, ${threads(daemon)} threads; tmux server ${mb(theirs)}, ${threads(server)} thread(s); per further session ${mb(each)} vs tmux ${(theirsEach).toFixed(1)} kB (${(each / Math.max(theirsEach, 1)).toFixed(0)}×)`);
  }
} finally {
  tmux("kill-server");
}
