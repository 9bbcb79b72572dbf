// A recording has a size cap (issue 24, item 11: four flooding sessions wrote 1.9 GB in 60 s).
// Past it, output and input are not recorded; a marker and a visible line say where, the session
// says so in its meta, and the file stays a cast that replays.
import { expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { useWorld } from "../helpers/harness.ts";

const CAP = 64 * 1024;
const world = useWorld({ TUIWRIGHT_MAX_CAST_BYTES: String(CAP) });

test("a flooding program's recording stops at the cap, with a recorded gap marker", async () => {
  const { name } = await world.spawn(["sh", "-c", "yes flood-line | head -c 2000000; echo done-flooding; read x"]);
  await world.json(["wait", "--session", name, "--text", "done-flooding", "--timeout", "60000"]);
  const recording = (await world.json(["snapshot", "--session", name, "--include-meta"])).meta.recording;
  expect(recording).toMatchObject({ maxBytes: CAP, full: true });
  expect(recording.bytes).toBeLessThanOrEqual(CAP + 512);
  await world.json(["mark", "--session", name, "after the cap"]);
  await world.json(["type", "--session", name, "typed after the cap\r", "--wait-exit", "--timeout", "60000"]);
  await world.run(["kill", "--session", name]);

  const cast = readFileSync(recording.path, "utf8");
  // The marker and the notice, the later marker and the exit status: a few hundred bytes past the cap.
  expect(statSync(recording.path).size).toBeLessThanOrEqual(CAP + 1024);
  const events = cast.trim().split("\n").slice(1).map((line) => JSON.parse(line) as [number, string, string]);
  const full = events.findIndex(([, code, data]) => code === "m" && data === `recording full: output and input past ${CAP} bytes are not recorded`);
  expect(full).toBeGreaterThanOrEqual(0);
  expect(events[full + 1]![2]).toContain("[tuiwright: the recording is full (65536 bytes); the rest of the session is not recorded]");
  const after = events.slice(full + 2);
  expect(after.some(([, code]) => code === "o" || code === "i")).toBe(false);
  expect(after.some(([, code, data]) => code === "m" && data === "after the cap")).toBe(true);
  expect(events.at(-1)![1]).toBe("x");

  const replayed = await world.run(["replay", recording.path]);
  expect(replayed.code).toBe(0);
  expect(replayed.stdout).toContain("the recording is full");
}, 180_000);

test("the cap is a setting: a bad value is a clear error where it is read (config and flag alike)", async () => {
  const bad = await world.run(["gc", "--dry-run"], { env: { TUIWRIGHT_MAX_CAST_BYTES: "lots" } });
  expect(bad.code).toBe(64);
  expect(bad.stderr).toContain('TUIWRIGHT_MAX_CAST_BYTES must be a whole number ≥ 0; got "lots"');
  const config = `${world.dir}/config.toml`;
  await Bun.write(config, "[retention]\nmax_cast_bytes = -5\n");
  const badConfig = await world.run(["gc", "--dry-run"], { env: { TUIWRIGHT_CONFIG: config } });
  expect(badConfig.code).toBe(65);
  expect(badConfig.stderr).toContain("retention.max_cast_bytes must be a whole number ≥ 0");
  const json = await world.json(["gc", "--dry-run"]);
  expect(json.policy).toMatchObject({ maxCastBytes: CAP });
}, 180_000);
