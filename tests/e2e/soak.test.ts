// The soak script, short: 8 sessions driven for two minutes must end with no errors, no crashed
// sessions, casts that replay to the live screens, and no leftover processes or fds. The RSS
// check needs a longer run (GC cycles are as long as this window): `bun run soak --minutes 60`.
import { expect, test } from "bun:test";
import { resolve } from "node:path";

test("a two-minute soak of 8 sessions passes every check", async () => {
  const proc = Bun.spawn(["bun", resolve(import.meta.dir, "../../bench/soak.ts"), "--minutes", "2", "--no-rss-check"], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, output: code === 0 ? "" : stdout + stderr }).toEqual({ code: 0, output: "" });
  expect(stdout).toContain("all checks passed");
}, 300_000);
