// How exactly a wait's timeout holds against catastrophic regexes: 30 × `(a+)+$`-like
// patterns over a 200×60 screen of a's (each ~11–16 ms to match on RE2), on a quiet screen and
// on one that changes every 10 ms. Issue 13 asks for ±50 ms. `bun bench/regex-timeout.ts`
// after `bun run build` (~15 s). Prints the worker's elapsedMs for `--timeout 1000`.
import { World } from "../tests/helpers/harness.ts";

await using world = await World.start();
const rows = `python3 -c "[print('a'*198+'b') for i in range(59)]"; echo ready`;
const regexes = Array.from({ length: 30 }, (_, i) => ["--regex", `(a+)+$${i ? `|x{${i}}z` : ""}`]).flat();
for (const [label, tail] of [["quiet screen", "exec cat"], ["screen changing every 10 ms", `while :; do echo $(printf "a%.0s" {1..150})b; sleep 0.01; done`]] as const) {
  const { name } = await world.spawn(["bash", "-c", `${rows}; ${tail}`], ["--cols", "200", "--rows", "60"]);
  await world.json(["wait", "--session", name, "--text", "ready"]);
  const elapsed: number[] = [];
  for (let k = 0; k < 3; k++) {
    const result = await world.run(["--json", "wait", "--session", name, ...regexes, "--timeout", "1000"]);
    elapsed.push(JSON.parse(result.stdout).error.data.elapsedMs);
  }
  console.log(`${label}: --timeout 1000 with 30 catastrophic regexes timed out after ${elapsed.join(", ")} ms`);
  await world.run(["kill", "--session", name]);
}
