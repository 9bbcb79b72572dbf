// Limits and robustness (issue 13): input that is too big, too slow or hostile gets a clear
// error and costs nothing else — no hung client, no crashed worker, no runaway memory.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, processAlive, World } from "../helpers/harness.ts";
import { RawSocket } from "../helpers/raw-socket.ts";

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
    const refused: any = await rpc.call("exec", { session: "nobody", command: "y".repeat(2_000_000) }).catch((error) => error);
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

test("a transcript write error stops the transcript, not the shell session, and says why", async () => {
  const { name } = await world.spawn([], ["--shell", "bash"]);
  const first = await world.json(["exec", "--session", name, "echo first-block"]);
  expect(first.output).toContain("first-block");
  const { meta } = await world.json(["snapshot", "--session", name, "--include-meta"]);
  expect(meta.transcript).toEqual({ path: expect.any(String), error: null });
  // A directory where the next block's output file goes: every append to it fails (EISDIR).
  mkdirSync(join(meta.transcript.path, "blocks", String(first.seq + 1) + ".out"));
  const second = await world.run(["--json", "exec", "--session", name, "echo second-block"]);
  expect(second.stderr).toBe("");
  expect(second.code).toBe(0);
  expect(JSON.parse(second.stdout).output).toContain("second-block");
  const third = await world.json(["exec", "--session", name, "echo third-block"]);
  expect(third.output).toContain("third-block");
  const after = await world.json(["snapshot", "--session", name, "--include-meta"]);
  expect(after.meta.transcript.error).toMatch(/^transcript stopped: cannot write .*blocks\/\d+\.out: EISDIR$/);
  await world.run(["kill", "--session", name]);
});

test("a crashed worker's error is one short line, never source text", async () => {
  const { name } = await world.spawn(["cat"]);
  const rpc = await world.rpc();
  try {
    await rpc.call("debug.crashWorker", { session: name });
  } finally {
    rpc.close();
  }
  const snap = await world.run(["--json", "snapshot", "--session", name]);
  expect(snap.code).toBe(69);
  const message: string = JSON.parse(snap.stderr || snap.stdout).error.message;
  expect(message).toContain("crash requested by debug.crashWorker");
  expect(message).not.toContain("\n");
  expect(message.length).toBeLessThan(300);
  await world.run(["kill", "--session", name]);
});

test("replay refuses hostile cast sizes, devices and oversized inputs with exit 65", async () => {
  const header = (cols: number, rows: number) => JSON.stringify({ version: 3, term: { cols, rows } });
  const huge = join(world.dir, "huge.cast");
  writeFileSync(huge, `${header(100000, 100000)}\n[0.1, "o", "hi"]\n`);
  const refused = await world.run(["replay", huge]);
  expect(refused.code).toBe(65);
  expect(refused.stderr).toContain("terminal size 100000x100000 is out of range (cols 2..1000, rows 1..500)");

  const resized = join(world.dir, "resized.cast");
  writeFileSync(resized, `${header(80, 24)}\n[0.1, "o", "hi"]\n[0.1, "r", "100000x100000"]\n`);
  const badResize = await world.run(["replay", resized]);
  expect(badResize.code).toBe(65);
  expect(badResize.stderr).toContain("resize to 100000x100000 is out of range");

  const device = await world.run(["replay", "/dev/zero"]);
  expect(device.code).toBe(65);
  expect(device.stderr).toContain('cast "/dev/zero" is not a regular file');

  const fine = join(world.dir, "fine.cast");
  writeFileSync(fine, `${header(80, 24)}\n[0.1, "o", "replayed-fine"]\n`);
  const snapshotDevice = await world.run(["replay", fine, "--expect-snapshot", "/dev/zero"]);
  expect(snapshotDevice.code).toBe(65);
  expect(snapshotDevice.stderr).toContain('snapshot file "/dev/zero" is not a regular file');
  expect((await world.run(["replay", fine])).stdout).toContain("replayed-fine");
});

test("spawn and resize share the replay size bound", async () => {
  const spawn = await world.run(["spawn", "--cols", "1001", "--", "cat"]);
  expect(spawn.code).toBe(64);
  expect(spawn.stderr).toMatch(/1000/);
});

test("type --paste cannot end the paste early with a marker that re-forms after removal", async () => {
  const { name } = await world.spawn(["bash", "--norc", "--noprofile", "-i"], ["--env", "PS1=prompt$ "]);
  await world.json(["wait", "--session", name, "--text", "prompt$"]);
  const modes = (await world.json(["snapshot", "--session", name, "--include-meta"])).meta.modes;
  expect(modes.bracketedPaste).toBe(true);
  await world.json(["type", "--session", name, "--paste", "\x1b[20\x1b[201~1~echo INJECTED-$((40+2))\r", "--wait-text", "$((40+2))"]);
  // Whatever was pasted sits on the command line; C-c drops it, then a marker command runs.
  await world.json(["press", "--session", name, "C-c"]);
  await world.json(["type", "--session", name, "echo after-$((1+1))\r", "--wait-regex", "^after-2"]);
  const screen = (await world.json(["snapshot", "--session", name])).text;
  expect(screen).not.toMatch(/^INJECTED-42/m);
  await world.run(["kill", "--session", name]);
});

test("durations above the 2^31-1 ms timer limit are usage errors, on the CLI and the socket", async () => {
  const { name } = await world.spawn(["cat"]);
  const cli = await world.run(["wait", "--session", name, "--settled", "2147483648"]);
  expect(cli.code).toBe(64);
  expect(cli.stderr).toContain("--settled must be 0..2147483647 ms (the timer limit), got 2147483648");
  const timeout = await world.run(["wait", "--session", name, "--text", "x", "--timeout", "99999999999"]);
  expect(timeout.code).toBe(64);
  const rpc = await world.rpc();
  try {
    const refused: any = await rpc.call("wait", { session: name, settledMs: 2 ** 31, timeoutMs: 0 }).catch((error) => error);
    expect(refused.errorName).toBe("usage");
    expect(refused.message).toContain("settledMs must be at most 2147483647 ms");
  } finally {
    rpc.close();
  }
  await world.run(["kill", "--session", name]);
});

test("run --stdin-file refuses a device instead of reading it forever", async () => {
  const result = await world.run(["run", "--stdin-file", "/dev/zero", "--", "true"]);
  expect(result.code).toBe(65);
  expect(result.stderr).toContain('stdin file "/dev/zero" is not a regular file');
});

/** Starts a bash session with a nohup'd job and a job that ignores SIGHUP; returns their pids. */
async function sessionWithStubbornJobs(w: World): Promise<{ name: string; pids: number[] }> {
  const { name, pid } = await w.spawn(["bash", "--norc", "--noprofile", "-i"], ["--env", "PS1=prompt$ "]);
  await w.json(["wait", "--session", name, "--text", "prompt$"]);
  await w.json(["type", "--session", name, "nohup sleep 1000 >/dev/null 2>&1 & echo nohup-pid=$!\r", "--wait-regex", "^nohup-pid=\\d+"]);
  await w.json(["type", "--session", name, "(trap '' HUP; exec sleep 1001) & echo trap-pid=$!\r", "--wait-regex", "^trap-pid=\\d+"]);
  const text: string = (await w.json(["snapshot", "--session", name])).text;
  const pids = [...text.matchAll(/^(?:nohup|trap)-pid=(\d+)/gm)].map((m) => Number(m[1]));
  expect(pids.length).toBe(2);
  for (const child of pids) {
    expect(processAlive(child)).toBe(true);
    const stat = readFileSync(`/proc/${child}/stat`, "utf8");
    expect(Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3])).toBe(pid); // same session id
  }
  return { name, pids };
}

test("kill ends every process of the session, nohup'd and SIGHUP-ignoring ones too", async () => {
  const { name, pids } = await sessionWithStubbornJobs(world);
  const killed = await world.run(["kill", "--session", name]);
  expect(killed.code).toBe(0);
  expect(pids.filter(processAlive)).toEqual([]);
});

test("daemon stop ends every process of every session", async () => {
  await using own = await World.start();
  const { pids } = await sessionWithStubbornJobs(own);
  const stopped = await own.run(["daemon", "stop"]);
  expect(stopped.code).toBe(0);
  await own.daemon!.exited;
  expect(pids.filter(processAlive)).toEqual([]);
});

test("a catastrophic regex cannot stall a wait: the timeout holds and the session answers", async () => {
  const row = `${"a".repeat(40)}b`;
  const { name } = await world.spawn(["bash", "-c", `for i in 1 2 3 4 5 6; do echo ${row}; done; echo rows-ready; exec cat`]);
  await world.json(["wait", "--session", name, "--text", "rows-ready"]);
  const waited = await world.run(["--json", "wait", "--session", name, "--regex", "(a+)+$", "--regex", "(a|aa)*c", "--timeout", "300"]);
  expect(waited.code).toBe(124);
  const snap = await world.json(["snapshot", "--session", name]);
  expect(snap.text).toContain(row);
  // The same kind of pattern that does match is found.
  // A selector's regex is matched the same way.
  const byRef = await world.run(["wait", "--session", name, "--ref", "[name~=/(a+)+$/]", "--timeout", "300"]);
  expect(byRef.code).toBe(124);
  const found = await world.json(["wait", "--session", name, "--regex", "(a+)+b$", "--timeout", "1000"]);
  expect(found.fired).toEqual([expect.stringContaining("regex")]);
  await world.run(["kill", "--session", name]);
});

test("regexes with bad flags or without a linear-time form are refused with exit 65", async () => {
  const { name } = await world.spawn(["cat"]);
  const flags = await world.run(["wait", "--session", name, "--regex", "/a/zz", "--timeout", "0"]);
  expect(flags.code).toBe(65);
  expect(flags.stderr).toContain('unknown flags "zz"');
  const backref = await world.run(["wait", "--session", name, "--regex", "(a)\\1", "--timeout", "0"]);
  expect(backref.code).toBe(65);
  expect(backref.stderr).toContain("cannot be matched in linear time");
  // Where a value may be text or /re/, a path-like value is text: not a regex with bad flags.
  const title = await world.run(["wait", "--session", name, "--title", "/home/me/src", "--timeout", "0"]);
  expect(title.code).toBe(124);
  await world.run(["kill", "--session", name]);
});

test("a PNG snapshot renders off the daemon's thread: other clients are answered while it runs", async () => {
  const { name } = await world.spawn(["bash", "-c", `python3 -c "[print('x' * 199) for i in range(60)]"; echo png-ready; exec cat`], ["--cols", "200", "--rows", "60"]);
  await world.json(["wait", "--session", name, "--text", "png-ready"]);
  const renderer = await world.rpc();
  const pinger = await world.rpc();
  try {
    const started = performance.now();
    let done = false;
    const png = renderer.call("snapshot", { session: name, format: "png" }).finally(() => { done = true; });
    // Ping back to back while the PNG renders; a blocked daemon thread shows as one long gap.
    let last = performance.now();
    let longestGap = 0;
    let pings = 0;
    while (!done) {
      await pinger.call("ping");
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      pings++;
    }
    const result: any = await png;
    const renderMs = performance.now() - started;
    expect(Buffer.from(result.png, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(pings).toBeGreaterThan(1);
    expect(longestGap).toBeLessThan(renderMs / 2);
  } finally {
    renderer.close();
    pinger.close();
  }
  await world.run(["kill", "--session", name]);
}, 120_000); // a 200×60 PNG takes seconds on a loaded machine

test("a connection may hold 64 subscriptions; the next is refused with busy (75)", async () => {
  const rpc = await world.rpc();
  try {
    for (let i = 0; i < 64; i++) await rpc.call("subscribe", { types: ["exit"] });
    const refused: any = await rpc.call("subscribe", { types: ["exit"] }).catch((error) => error);
    expect(refused.errorName).toBe("busy");
    expect(refused.exitCode).toBe(75);
    expect(refused.message).toContain("already has 64 subscriptions (the limit is 64)");
  } finally {
    rpc.close();
  }
});

test("a half-sent frame that stalls is dropped with its connection, and the daemon says why", async () => {
  await using own = await World.start({ TUIWRIGHT_FRAME_IDLE_MS: "200" });
  const { connectUnix } = await import("../../lib/runtime/unix-socket.ts");
  let closed!: () => void;
  const gone = new Promise<void>((resolve) => { closed = resolve; });
  const connection = await connectUnix(own.socketPath, { data() {}, close: () => closed() });
  connection.send('{"jsonrpc":"2.0","id":1,"method":"pi');
  await gone;
  expect(own.daemonLog()).toMatch(/closing connection \d+: a partial frame saw no new bytes for 200 ms/);
  expect((await own.run(["daemon", "status"])).code).toBe(0); // the daemon carries on
});

test("a bell flood reaches subscribers as a few bell events, not one per BEL", async () => {
  const rpc = await world.rpc();
  const bells: any[] = [];
  rpc.onNotification = (message: any) => { if (message.params?.type === "bell") bells.push(message.params); };
  try {
    await rpc.call("subscribe", { types: ["bell"] });
    const { name } = await world.spawn(["bash", "-c", "for i in $(seq 1 2000); do printf '\\a'; done; echo bells-done; exec cat"]);
    await world.json(["wait", "--session", name, "--text", "bells-done"]);
    await world.json(["type", "--session", name, "after-bells\r", "--wait-text", "after-bells"]);
    expect(bells.length).toBeGreaterThan(0);
    expect(bells.length).toBeLessThan(2000);
    await world.run(["kill", "--session", name]);
  } finally {
    rpc.close();
  }
});

test("terminal memory is capped per session and per daemon, with a clear error", async () => {
  const huge = await world.run(["spawn", "--cols", "1000", "--scrollback", "1000000", "--", "cat"]);
  expect(huge.code).toBe(64);
  expect(huge.stderr).toContain("needs 1,000,040,000 cells of terminal memory (1000 cols × (40 rows + 1000000 scrollback)); a session may have at most 16,000,000");

  await using own = await World.start();
  const names: string[] = [];
  for (let i = 0; i < 4; i++) names.push((await own.spawn(["cat"], ["--cols", "1000", "--rows", "40", "--scrollback", "15960"])).name);
  const fifth = await own.run(["spawn", "--cols", "1000", "--rows", "40", "--scrollback", "15960", "--", "cat"]);
  expect(fifth.code).toBe(75);
  expect(fifth.stderr).toContain("but the daemon's sessions already hold 64,000,000 of its 64,000,000");
  const grow = await own.run(["resize", "--session", names[0]!, "1000", "100"]);
  expect(grow.code).toBe(64);
  expect(grow.stderr).toContain(`resizing ${JSON.stringify(names[0])} to 1000x100 needs 16,060,000 cells`);
  await own.run(["kill", "--session", names[0]!]);
  expect((await own.run(["spawn", "--cols", "1000", "--rows", "40", "--scrollback", "15960", "--", "cat"])).code).toBe(0);
});

test("spawn refuses a NUL byte in argv or env with exit 65", async () => {
  const rpc = await world.rpc();
  try {
    const argv: any = await rpc.call("spawn", { argv: ["printf", "a\0b"] }).catch((error) => error);
    expect(argv.errorName).toBe("bad-data");
    expect(argv.message).toContain("argument 1");
    const env: any = await rpc.call("spawn", { argv: ["true"], env: { X: "a\0b" } }).catch((error) => error);
    expect(env.errorName).toBe("bad-data");
    expect(env.message).toContain('environment variable "X" contains a NUL byte');
  } finally {
    rpc.close();
  }
});

test("a socket path too long for a Unix socket is a usage error naming it", async () => {
  const long = join(world.dir, `${"x".repeat(110)}.sock`);
  const listed = await world.run(["list"], { env: { TUIWRIGHT_SOCKET: long } });
  expect(listed.code).toBe(64);
  expect(listed.stderr).toContain(`socket path ${JSON.stringify(long)} is ${Buffer.byteLength(long)} bytes; a Unix socket path may have at most 107`);
});

test("snapshot --out never writes through a symlink, and --out - writes to stdout", async () => {
  const { name } = await world.spawn(["bash", "-c", "echo out-target-text; exec cat"]);
  await world.json(["wait", "--session", name, "--text", "out-target-text"]);
  const victim = join(world.dir, "victim.txt");
  writeFileSync(victim, "precious\n");
  const link = join(world.dir, "link.txt");
  symlinkSync(victim, link);
  const refused = await world.run(["snapshot", "--session", name, "--out", link]);
  expect(refused.code).toBe(74);
  expect(refused.stderr).toContain(`refusing to write ${link}: it is a symbolic link`);
  expect(readFileSync(victim, "utf8")).toBe("precious\n");
  const saved = await world.run(["snapshot", "--session", name, "--save", link]);
  expect(saved.code).toBe(74);
  expect(readFileSync(victim, "utf8")).toBe("precious\n");
  const stdout = await world.run(["snapshot", "--session", name, "--out", "-"]);
  expect(stdout.code).toBe(0);
  expect(stdout.stdout).toContain("out-target-text");
  expect(existsSync(join(world.dir, "-"))).toBe(false);
  await world.run(["kill", "--session", name]);
});

test("a stopped daemon fails the client with exit 69 instead of hanging it", async () => {
  await using own = await World.start();
  const { name } = await own.spawn(["cat"]);
  // A long wait keeps a call in flight: the daemon answers pings meanwhile, so it goes on.
  const waiting = own.run(["wait", "--session", name, "--text", "late-text", "--timeout", "60000"], { env: { TUIWRIGHT_ANSWER_TIMEOUT_MS: "200" } });
  await own.json(["type", "--session", name, "early\r", "--wait-text", "early"]);
  own.daemon!.kill("SIGSTOP");
  try {
    const listed = await own.run(["list"], { env: { TUIWRIGHT_ANSWER_TIMEOUT_MS: "300" } });
    expect(listed.code).toBe(69);
    expect(listed.stderr).toContain("did not answer a ping within 300 ms (stopped or wedged?)");
  } finally {
    own.daemon!.kill("SIGCONT");
  }
  const waited = await waiting; // the stop outlasted its ping too
  expect(waited.code).toBe(69);
});

test("a long wait on a live daemon is not cut short by the answer timeout", async () => {
  const { name } = await world.spawn(["cat"]);
  // A ping every 400 ms (a 50 ms interval failed here once under load: a loaded machine can hold
  // any process that long, and the check is whether pings keep a long wait alive).
  const waiting = world.run(["--json", "wait", "--session", name, "--text", "arrives-later", "--timeout", "60000"], { env: { TUIWRIGHT_ANSWER_TIMEOUT_MS: "400" } });
  // At least five ping intervals pass while this session is typed into and answers.
  const started = performance.now();
  for (let i = 0; i < 5 || performance.now() - started < 2000; i++) {
    await world.json(["type", "--session", name, `tick-${i}\r`, "--wait-text", `tick-${i}`, "--settled", "100", "--all"]);
  }
  await world.json(["type", "--session", name, "arrives-later\r"]);
  const waited = await waiting;
  expect(waited.code).toBe(0);
  expect(JSON.parse(waited.stdout).fired).toEqual([expect.stringContaining("arrives-later")]);
  await world.run(["kill", "--session", name]);
});

test("a crashed session's kill says how its program ended and leaves no zombie", async () => {
  const { name, pid } = await world.spawn(["cat"]);
  const rpc = await world.rpc();
  try {
    await rpc.call("debug.crashWorker", { session: name });
  } finally {
    rpc.close();
  }
  const killed = await world.run(["kill", "--session", name]);
  expect(killed.code).toBe(0);
  expect(killed.stdout).toBe(`killed session ${name} (killed by SIGHUP)\n`); // as when a terminal closes
  expect(existsSync(`/proc/${pid}`)).toBe(false); // not even a zombie
});

test("JSON-RPC ids past 2^53 are refused rather than echoed wrong", async () => {
  const raw = await RawSocket.open(world.socketPath);
  try {
    raw.send('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n');
    const refused = await raw.next();
    expect(refused.id).toBeNull();
    expect(refused.error.message).toContain("a numeric id must be within ±(2^53-1)");
    const fine = await raw.call({ jsonrpc: "2.0", id: Number.MAX_SAFE_INTEGER, method: "ping" });
    expect(fine.id).toBe(Number.MAX_SAFE_INTEGER);
  } finally {
    raw.close();
  }
});

test("daemon stop and list after a daemon died clean up its socket, pid file, ledger and leftovers", async () => {
  await using own = await World.start();
  // Ignores SIGHUP and never reads its terminal (cat ends on the hangup's EIO): it outlives the daemon.
  const stubborn = await own.spawn(["bash", "-c", "trap '' HUP; echo stubborn-up; exec sleep 1000000"]);
  await own.json(["wait", "--session", stubborn.name, "--text", "stubborn-up"]);
  own.daemon!.kill("SIGKILL");
  await own.daemon!.exited;
  expect(existsSync(own.socketPath)).toBe(true);

  const listed = await own.json(["list"]);
  expect(listed.lost).toEqual([expect.objectContaining({ name: stubborn.name, killed: false })]);
  expect(existsSync(own.socketPath)).toBe(false);
  expect(existsSync(`${own.socketPath}.pid`)).toBe(false);
  expect(existsSync(`${own.socketPath}.sessions.json`)).toBe(true); // still reported as lost

  const stopped = await own.run(["daemon", "stop"]);
  expect(stopped.code).toBe(0);
  expect(stopped.stdout).toContain("cleaned up after a dead one: no socket, 1 lost session(s), 1 leftover program(s) killed");
  expect(existsSync(`${own.socketPath}.sessions.json`)).toBe(false);
  const gone = Bun.spawn(["python3", "-c", "import os,select,sys\ntry: fd=os.pidfd_open(int(sys.argv[1]))\nexcept ProcessLookupError: sys.exit(0)\nsys.exit(0 if select.select([fd],[],[],10)[0] else 1)", String(stubborn.pid)]);
  expect(await gone.exited).toBe(0);
});

test("leftovers get the kill's signal first, so one that cleans up on SIGHUP can, before SIGKILL", async () => {
  const { name } = await world.spawn(["bash", "--norc", "--noprofile", "-i"], ["--env", "PS1=prompt$ "]);
  await world.json(["wait", "--session", name, "--text", "prompt$"]);
  const marker = join(world.dir, "cleaned-up");
  // disown: bash does not pass its SIGHUP on to this job, so only the leftover pass reaches it.
  await world.json(["type", "--session", name, `(trap 'echo done > ${marker}; exit 0' HUP; sleep 1000 & wait) & disown; echo job-started\r`, "--wait-regex", "^job-started"]);
  expect((await world.run(["kill", "--session", name])).code).toBe(0);
  expect(readFileSync(marker, "utf8")).toBe("done\n");
});

test("a session ledger that cannot be written does not fail spawn or kill; the daemon log says why", async () => {
  await using own = await World.start();
  // The daemon writes its (empty) ledger at start; a directory in its place makes every later write fail (EISDIR).
  rmSync(`${own.socketPath}.sessions.json`, { force: true });
  mkdirSync(`${own.socketPath}.sessions.json`);
  const spawned = await own.run(["--json", "spawn", "--", "cat"]);
  expect(spawned.code).toBe(0);
  const { name } = JSON.parse(spawned.stdout);
  expect((await own.run(["kill", "--session", name])).code).toBe(0);
  expect(own.daemonLog()).toContain("cannot write the session ledger (EISDIR)");
});

test("MCP: an oversized tools/call is a tool error, not a hang; long type text goes through", async () => {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const client = new Client({ name: "limits-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: BIN, args: ["mcp"], env: world.env, stderr: "pipe" }));
  try {
    const { name } = await world.spawn(["bash", "-c", "stty raw -echo; head -c 1200000 | wc -c; echo mcp-typed-all; exec cat"]);
    const big = await client.callTool({ name: "exec", arguments: { session: name, command: "z".repeat(1_200_000) } });
    expect(big.isError).toBe(true);
    expect((big.content as any)[0].text).toMatch(/request of \d+ bytes exceeds the 1 MiB frame limit/);
    const typed = await client.callTool({ name: "type", arguments: { session: name, text: "y".repeat(1_200_000), wait: { text: ["mcp-typed-all"] } } });
    expect(typed.isError).toBe(false);
    expect((await world.json(["snapshot", "--session", name])).text).toContain("1200000");
    await world.run(["kill", "--session", name]);
  } finally {
    await client.close();
  }
});
