// Limits and robustness (issue 13): input that is too big, too slow or hostile gets a clear
// error and costs nothing else — no hung client, no crashed worker, no runaway memory.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { World } from "../helpers/harness.ts";

let world: World;
beforeAll(async () => { world = await World.start(); });
afterAll(async () => { await world?.[Symbol.asyncDispose](); });

test("a request over the 1 MiB frame limit fails at once with exit 65 instead of hanging", async () => {
  const { name } = await world.spawn(["cat"]);
  const command = "x".repeat(1_200_000);
  const batch = await world.run(["batch"], { stdin: JSON.stringify([["exec", "--session", name, command], ["list"]]) });
  const lines = batch.stdout.trim().split("\n").map((line) => JSON.parse(line));
  expect(lines[0]).toMatchObject({ line: 1, ok: false, exit: 65 });
  expect(lines[0].error.message).toMatch(/^request of \d+ bytes exceeds the 1 MiB frame limit/);
  expect(lines[1]).toMatchObject({ line: 2, ok: true }); // the connection is still good
  expect(batch.code).toBe(65);
  await world.run(["kill", "--session", name]);
});

test("the library client refuses an oversized request before sending it", async () => {
  const rpc = await world.rpc();
  try {
    const refused = await rpc.call("exec", { session: "nobody", command: "y".repeat(2_000_000) }).catch((error) => error);
    expect(refused.errorName).toBe("bad-data");
    expect(refused.message).toMatch(/^request of \d+ bytes exceeds the 1 MiB frame limit/);
    expect(await rpc.call("ping")).toMatchObject({ version: expect.any(String) });
  } finally {
    rpc.close();
  }
});

test("type of text larger than a frame is sent in pieces and arrives whole", async () => {
  const size = 1_500_000;
  const { name } = await world.spawn(["bash", "-c", `stty raw -echo; head -c ${size} | wc -c; echo typed-all; exec cat`]);
  const line = "0123456789".repeat(9) + "é\n"; // multi-byte too, so pieces must not split a character
  const text = line.repeat(Math.ceil(size / Buffer.byteLength(line))).slice(0, size);
  const typed = await world.run(["--json", "batch"], { stdin: JSON.stringify([["type", "--session", name, text, "--wait-text", "typed-all"]]) });
  expect(typed.code).toBe(0);
  const screen = await world.json(["snapshot", "--session", name]);
  expect(screen.text).toContain(String(size));
  await world.run(["kill", "--session", name]);
});
