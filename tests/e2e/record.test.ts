// Recording (asciicast v3), replay, snapshot files and the CI check, through the binary.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useWorld, World } from "../helpers/harness.ts";

const world = useWorld();

const lines = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));

test("a bash session is recorded as asciicast v3 with inputs, markers and the exit; its replay equals the live screen", async () => {
  const { name } = await world.spawn(["bash", "--norc", "--noprofile"], ["--cols", "70", "--rows", "10"]);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  await world.json(["type", "--session", name, "echo rec-$((2+3))"]);
  await world.json(["press", "--session", name, "Enter", "--wait-regex", "^rec-5$"]);
  await world.json(["mark", "--session", name, "checkpoint"]);
  await world.json(["type", "--session", name, "--secret", "hunter2"]);
  // The snapshot must see the line C-u cleared, not the masked secret still drawn before it.
  await world.json(["press", "--session", name, "C-u", "--wait-regex", "[$#]$"]);
  const live = (await world.json(["snapshot", "--session", name])).text;
  const cast = (await world.json(["get", "--session", name, "cast"])).value as string;
  await world.json(["type", "--session", name, "exit 4\r", "--wait-exit"]);

  const [header, ...events] = lines(cast);
  expect(header).toMatchObject({ version: 3, term: { cols: 70, rows: 10, type: "xterm-256color" }, command: "bash --norc --noprofile", title: name, env: { TERM: "xterm-256color" } });
  expect(Number.isInteger(header.timestamp)).toBe(true);
  for (const [interval, code, data] of events) {
    expect(interval).toBeGreaterThanOrEqual(0);
    expect(["o", "i", "m", "x", "r"]).toContain(code);
    expect(typeof data).toBe("string");
  }
  const inputs = events.filter((e) => e[1] === "i").map((e) => e[2]);
  expect(inputs).toContain("echo rec-$((2+3))");
  expect(inputs).toContain("***");
  // Nor its echo: the program printed it back, the recording has stars.
  expect(readFileSync(cast, "utf8")).not.toContain("hunter2");
  expect(events.filter((e) => e[1] === "o").map((e) => e[2]).join("")).toContain("*******");
  const markers = events.filter((e) => e[1] === "m").map((e) => e[2]);
  expect(markers).toContain('type "echo rec-$((2+3))"');
  expect(markers).toContain("press Enter; wait regex ^rec-5$");
  expect(markers).toContain("checkpoint");
  expect(markers).toContain('type "***"');
  expect(events.at(-1)).toEqual([expect.any(Number), "x", "4"]);

  const atCheckpoint = await world.run(["--plain", "replay", cast, "--at-marker", "checkpoint"]);
  expect(atCheckpoint.code).toBe(0);
  expect(atCheckpoint.stdout).toContain("rec-5");
  const final = await world.run(["replay", cast]);
  expect(final.stdout).toContain("exit 4");
  // The screen just before the exit equals what the live session showed then.
  const beforeExit = await world.run(["replay", cast, "--at-marker", 'type "exit 4⏎"; wait exit']);
  expect(beforeExit.code).toBe(0);
  expect(beforeExit.stdout.replace(/\n$/, "")).toBe(live);
  expect((await world.json(["list"])).sessions.find((s: any) => s.name === name).cast).toBe(cast);
});

test("multibyte output written one byte at a time survives record → replay", async () => {
  const text = "漢字 🙂 é ✓";
  const { name } = await world.spawn(["python3", "-c", "import os,sys\nfor b in sys.argv[1].encode(): os.write(1, bytes([b]))\nos.write(1, b'\\r\\nEND\\r\\n')", text]);
  await world.json(["wait", "--session", name, "--exit"]);
  const cast = (await world.json(["get", "--session", name, "cast"])).value;
  const output = lines(cast).filter((e) => e[1] === "o").map((e) => e[2]).join("");
  expect(output).toContain(text);
  expect(output).not.toContain("\uFFFD");
  expect((await world.run(["replay", cast])).stdout.split("\n")[0]).toBe(text);
});

test("a resize during recording replays at the new size", async () => {
  const { name } = await world.spawn(["sh", "-c", "read a; stty size; read b"], ["--cols", "50", "--rows", "10"]);
  await world.json(["resize", "--session", name, "90", "20"]);
  await world.json(["type", "--session", name, "\r", "--wait-regex", "^20 90$"]);
  const cast = (await world.json(["get", "--session", name, "cast"])).value;
  expect(lines(cast).filter((e) => e[1] === "r").map((e) => e[2])).toEqual(["90x20"]);
  const replayed = await world.json(["replay", cast, "--format", "text"]);
  expect([replayed.cols, replayed.rows]).toEqual([90, 20]);
  expect(replayed.text).toContain("20 90");
});

test("--expect-snapshot: passes on a match, exit 1 with a readable diff on a changed row, masks blank clocks", async () => {
  const { name } = await world.spawn(["sh", "-c", "echo stable line; date +%H:%M:%S.%N; read x"], ["--cols", "40", "--rows", "5"]);
  await world.json(["wait", "--session", name, "--regex", "^\\d\\d:\\d\\d"]);
  const golden = join(world.dir, "golden.snap");
  await world.json(["snapshot", "--session", name, "--save", golden, "--mask", "/\\d\\d:\\d\\d:\\d\\d\\.\\d+/"]);
  expect(readFileSync(golden, "utf8")).toStartWith("# tuiwright snapshot\n# size: 40x5\n# mask: /\\d\\d:\\d\\d:\\d\\d\\.\\d+/\n--- screen\nstable line\n");
  const cast = (await world.json(["get", "--session", name, "cast"])).value;
  await world.json(["kill", "--session", name]);

  const ok = await world.run(["replay", cast, "--expect-snapshot", golden]);
  expect(ok.code).toBe(0);
  expect(ok.stdout).toContain("matches");
  // The clock differs in a second recording of the same program: the mask absorbs it.
  const changed = golden.replace(".snap", "-changed.snap");
  writeFileSync(changed, readFileSync(golden, "utf8").replace("stable line", "stable LINE"));
  const diff = await world.run(["replay", cast, "--expect-snapshot", changed]);
  expect(diff.code).toBe(1);
  expect(diff.stdout).toContain(`--- ${changed}\n+++ replay of ${cast} at the end\n@@ screen row 0 @@\n-stable LINE\n+stable line`);
  expect(diff.stderr).toContain("rerun with --update");
  const unmasked = golden.replace(".snap", "-nomask.snap");
  writeFileSync(unmasked, readFileSync(golden, "utf8").replace(/# mask: .*\n/, "").replace(/\d\d:\d\d:\d\d\.\d+/, "00:00:00.000000000"));
  expect((await world.run(["replay", cast, "--expect-snapshot", unmasked])).code).toBe(1);
  const masked = golden.replace(".snap", "-clock.snap");
  writeFileSync(masked, readFileSync(golden, "utf8").replace(/(--- screen\n.*\n)\d\d:\d\d:\d\d\.\d+/, "$100:00:00.000000000"));
  expect((await world.run(["replay", cast, "--expect-snapshot", masked])).code).toBe(0);

  const updated = join(world.dir, "fresh.snap");
  expect((await world.run(["replay", cast, "--expect-snapshot", updated, "--update", "--outline"])).code).toBe(0);
  expect(readFileSync(updated, "utf8")).toContain("--- outline\n@e1 paragraph");
  expect((await world.run(["replay", cast, "--expect-snapshot", updated])).code).toBe(0);
});

test("a v2 cast recorded by Debian's asciinema replays", async () => {
  const file = join(world.dir, "v2.cast");
  const { name } = await world.spawn(["asciinema", "rec", "--quiet", "-c", "printf 'from asciinema v2\\n'", file]);
  await world.json(["wait", "--session", name, "--exit", "--timeout", "20000"]);
  expect(lines(file)[0]).toMatchObject({ version: 2 });
  const replayed = await world.run(["replay", file]);
  expect(replayed.code).toBe(0);
  expect(replayed.stdout).toContain("from asciinema v2");
});

test("bad casts, markers and snapshot files are clear errors", async () => {
  const bad = join(world.dir, "bad.cast");
  writeFileSync(bad, '{"version":3,"term":{"cols":10,"rows":5}}\n[0.1,"o","ok"]\n["x","o","bad"]\n[0.1,"o","more"]\n');
  const result = await world.run(["replay", bad]);
  expect(result.code).toBe(65);
  expect(result.stderr).toContain(`${bad}:3: an event must be [time, code, data]`);
  writeFileSync(bad, '{"version":9}\n');
  expect((await world.run(["replay", bad])).stderr).toContain("unsupported asciicast version 9");
  writeFileSync(bad, '{"version":3,"term":{"cols":10,"rows":5}}\n[0.1,"r","wide"]\n');
  expect((await world.run(["replay", bad])).stderr).toContain(`${bad}:2: a resize event needs "COLSxROWS", got "wide"`);
  expect((await world.run(["replay", join(world.dir, "nope.cast")])).code).toBe(66);
  writeFileSync(bad, '{"version":3,"term":{"cols":10,"rows":5}}\n[0.1,"m","one"]\n');
  const marker = await world.run(["replay", bad, "--at-marker", "two"]);
  expect(marker.code).toBe(65);
  expect(marker.stderr).toContain('has no marker "two" (it has 1: 1 "one")');
  const snap = join(world.dir, "bad.snap");
  writeFileSync(snap, "# size: 10x5\nnot a section\n");
  const badSnap = await world.run(["replay", bad, "--expect-snapshot", snap]);
  expect(badSnap.code).toBe(65);
  expect(badSnap.stderr).toContain(`${snap}:2: expected "# size: COLSxROWS"`);
  expect((await world.run(["replay", bad, "--update"])).code).toBe(64);
});

test("a cast cut off by kill -9 of the daemon is a valid prefix that replays", async () => {
  await using doomed = await World.start();
  const { name } = await doomed.spawn(["sh", "-c", "echo before-crash; read x"]);
  await doomed.json(["wait", "--session", name, "--text", "before-crash"]);
  const cast = (await doomed.json(["get", "--session", name, "cast"])).value;
  doomed.daemon!.kill("SIGKILL");
  await doomed.daemon!.exited;
  const replayed = await doomed.run(["replay", cast]);
  expect(replayed.code).toBe(0);
  expect(replayed.stdout).toContain("before-crash");
  // The next daemon starts cleanly over the dead one's socket and never reuses the file.
  await doomed.startDaemon();
  const next = await doomed.spawn(["sh", "-c", "read x"], ["--session", name]);
  expect((await doomed.json(["get", "--session", next.name, "cast"])).value).not.toBe(cast);
});

test("--no-record, --cast PATH, an existing --cast file, and casts listing", async () => {
  const { name } = await world.spawn(["sh", "-c", "read x"], ["--no-record"]);
  expect((await world.json(["get", "--session", name, "cast"])).value).toBeNull();
  const path = join(world.dir, "chosen.cast");
  const chosen = await world.spawn(["sh", "-c", "echo chosen; read x"], ["--cast", "chosen.cast"]);
  expect((await world.json(["get", "--session", chosen.name, "cast"])).value).toBe(path);
  expect(existsSync(path)).toBe(true);
  const again = await world.run(["spawn", "--cast", path, "--", "true"]);
  expect(again.code).toBe(74);
  expect(again.stderr).toContain("already exists: tuiwright never appends to an old recording");
  const listed = await world.json(["casts"]);
  expect(listed.casts.length).toBeGreaterThan(3);
  expect(listed.casts.every((c: any) => c.path.endsWith(".cast") && c.bytes > 0)).toBe(true);
});

test("adapter test runs a manifest over a recording and checks the outline it gives", async () => {
  const file = join(world.dir, "menu.toml");
  writeFileSync(file, 'name = "menu"\n[[regions]]\nname = "items"\nrows = "0..2"\nitems = "row"\n');
  const { name } = await world.spawn(["sh", "-c", "printf 'one\\ntwo\\nthree\\n'; read x"], ["--rows", "5"]);
  await world.json(["wait", "--session", name, "--text", "three"]);
  const cast = (await world.json(["get", "--session", name, "cast"])).value;
  const outline = await world.run(["adapter", "test", file, "--cast", cast]);
  // Short plain items of one role print on their container's line.
  expect(outline.stdout).toBe('@menu application\n  @menu.items region (3 items: item) @e1 "one" @e2 "two" @e3 "three"\n');
  const expected = join(world.dir, "menu.outline");
  expect((await world.run(["adapter", "test", file, "--cast", cast, "--expect-outline", expected, "--update"])).code).toBe(0);
  expect((await world.run(["adapter", "test", file, "--cast", cast, "--expect-outline", expected])).code).toBe(0);
  writeFileSync(expected, readFileSync(expected, "utf8").replace("two", "deux"));
  const diff = await world.run(["adapter", "test", file, "--cast", cast, "--expect-outline", expected]);
  expect(diff.code).toBe(1);
  expect(diff.stdout).toContain('-  @menu.items region (3 items: item) @e1 "one" @e2 "deux" @e3 "three"\n+  @menu.items region (3 items: item) @e1 "one" @e2 "two" @e3 "three"');
});
