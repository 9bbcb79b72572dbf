// CLI input (issue 15 item 12): after the verb only its flags are flags, `--` ends flags for
// every verb, text starting with a dash can be typed; `run` is binary-safe and exits with the
// child's code in every output mode; `wait --print` prints the screen after the fired line.
import { expect, setDefaultTimeout, test } from "bun:test";
import { BIN, useWorld } from "../helpers/harness.ts";

// Several shells and programs per test on a loaded 2-core machine: 5 s is a hang guard too tight.
setDefaultTimeout(30_000);

const world = useWorld();

test("type --version and type -- --foo type the text; an unknown flag where no text fits is still refused", async () => {
  const { name } = await world.spawn(["cat"], ["--session", "dash"]);
  const version = await world.run(["type", "--session", name, "--version"]);
  expect(version.code).toBe(0);
  expect(version.stdout).toContain("sent 9 byte(s)");
  expect((await world.run(["type", "--session", name, "--", "--foo"])).code).toBe(0);
  expect((await world.run(["type", "--session", name, "--", "-x"])).code).toBe(0);
  const printed = await world.run(["wait", "--session", name, "--text", "--version--foo-x", "--print"]);
  expect(printed.code).toBe(0);
  const [fired, ...screen] = printed.stdout.split("\n");
  expect(fired).toMatch(/^fired: text "--version--foo-x"/);
  expect(screen.join("\n")).toContain("--version--foo-x");
  const bogus = await world.run(["snapshot", "--session", name, "--bogus"]);
  expect(bogus.code).toBe(64);
  expect(bogus.stderr).toContain("unknown flag --bogus for `snapshot`");
  expect((await world.run(["--version"])).stdout).toMatch(/^\d+\.\d+\.\d+/);
});

test("run passes bytes through both ways and exits with the child's code in every mode", async () => {
  const binary = await world.run(["run", "--", "python3", "-c", "import sys; sys.stdout.buffer.write(bytes([0xff, 0x41]))"]);
  expect(binary.code).toBe(0);
  const raw = Bun.spawnSync([BIN, "run", "--", "python3", "-c", "import sys; sys.stdout.buffer.write(bytes([0xff, 0x41]))"], { env: world.env });
  expect([...raw.stdout]).toEqual([0xff, 0x41]);
  const gz = Bun.spawnSync(["sh", "-c", `"${BIN}" run --stdin hello -- gzip -c | gunzip`], { env: world.env });
  expect(gz.stdout.toString()).toBe("hello");
  const piped = Bun.spawnSync(["sh", "-c", `printf 'a\\377b' | "${BIN}" run --stdin-file - -- od -An -tx1`], { env: world.env });
  expect(piped.stdout.toString().trim()).toBe("61 ff 62");
  const json = await world.run(["--json", "run", "--", "sh", "-c", "printf '\\377'; exit 7"]);
  expect(json.code).toBe(7);
  expect(JSON.parse(json.stdout)).toMatchObject({ exitCode: 7, stdoutBase64: "/w==" });
  expect((await world.run(["--json", "run", "--timeout", "100", "--", "sleep", "30"])).code).toBe(124);
  expect((await world.run(["--plain", "run", "--", "sh", "-c", "exit 3"])).code).toBe(3);
  const device = await world.run(["run", "--stdin-file", "/dev/zero", "--", "cat"]);
  expect(device.code).toBe(65);
  expect(device.stderr).toContain("is not a regular file");
});

const LOOPS = Number(process.env.TUIWRIGHT_RACE_LOOPS ?? 5);

test(`the README headline never types ahead of bash (${LOOPS} rounds): spawn returns once bash waits for input`, async () => {
  for (let round = 0; round < LOOPS; round++) {
    const spawned = await world.json(["spawn", "--session", `headline${round}`, "--", "bash", "--norc"]);
    // Ready by having drawn and gone still, or by blocking in its read: either way, not timed out.
    expect(spawned.firstScreen).toMatchObject({ drew: true, idle: false, timedOut: false });
    await world.json(["type", "--session", spawned.name, `echo hi-${round}`]);
    await world.json(["press", "--session", spawned.name, "Enter", "--wait-regex", `^hi-${round}$`]);
    // A prompt waiting at the end of the screen: its trailing space is seen up to the cursor.
    await world.json(["wait", "--session", spawned.name, "--regex", "[#$] $"]);
    const rows = (await world.json(["snapshot", "--session", spawned.name])).text.split("\n");
    // The command was typed at the prompt, not before it: no stray `echo hi` row above it.
    expect(rows[0]).toMatch(new RegExp(`[#$] echo hi-${round}$`));
    expect(rows[1]).toBe(`hi-${round}`);
    await world.json(["kill", "--session", spawned.name]);
  }
}, 120_000);

test("spawn --no-wait returns at once; a program asleep on something else is idle; a busy one returns after the bound", async () => {
  const quick = await world.json(["spawn", "--no-wait", "--", "cat"]);
  expect(quick.firstScreen).toBeUndefined();
  const sleeper = await world.json(["spawn", "--", "sleep", "60"]);
  expect(sleeper.firstScreen).toMatchObject({ drew: false, waitingForInput: false, idle: true, timedOut: false });
  // Busy at the lowest priority: runnable the whole time, but it yields the cores to the other
  // test files meanwhile; killed once seen.
  const busy = await world.json(["spawn", "--", "nice", "-n", "19", "sh", "-c", "while :; do :; done"]);
  expect(busy.firstScreen).toMatchObject({ drew: false, waitingForInput: false, idle: false, timedOut: true });
  await world.json(["kill", "--session", busy.name]);
});
