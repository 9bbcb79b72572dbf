// The harness itself: a test that times out does not take the file's daemon with it (bun kills
// every process a file started on a timeout — tests/helpers/daemon-process.ts).
import { expect, test } from "bun:test";
import { resolve } from "node:path";

test("after a test of a file times out, its later tests still have the file's daemon", async () => {
  const fixture = resolve(import.meta.dir, "../testdata/fixtures/timed-out.fixture.ts");
  const proc = Bun.spawn([process.execPath, "test", fixture], { stdout: "pipe", stderr: "pipe", env: { ...process.env, TUIWRIGHT_TEST_RUN: process.env.TUIWRIGHT_TEST_RUN ?? "" } });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const output = out + err;
  expect(output).toMatch(/\(fail\) times out/);
  expect(output).toMatch(/\(pass\) the daemon is still there/);
}, 30_000);
