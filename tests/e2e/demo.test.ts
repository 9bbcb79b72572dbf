// The README's first command ends with scripts/demo.sh: it must keep working.
import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { World } from "../helpers/harness.ts";

test("scripts/demo.sh drives a shell, vim and the browser to the end", async () => {
  await using world = World.empty(); // the demo starts (and stops) its own daemon
  const demo = Bun.spawn(["bash", resolve(import.meta.dir, "../../scripts/demo.sh")], { env: world.env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(demo.stdout).text(), new Response(demo.stderr).text(), demo.exited]);
  expect(err).toBe("");
  expect(code).toBe(0);
  expect(out).toContain("is the answer");
  expect(out).toContain("file on disk: Written by tuiwright through a real PTY.");
  expect(out).toContain("== top two stories\n1. Terminals are the new browser");
  expect(out).toMatch(/== back at http:\/\/127\.0\.0\.1:\d+\/\n/);
}, 150_000); // ~15 s alone; a loaded 2-core machine (two CI jobs, helpers building) has taken 45 s
