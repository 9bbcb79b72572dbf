// Shell sessions: command blocks over OSC 133, output cursors, interactive programs, run.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { useWorld } from "../helpers/harness.ts";

// Several shells and programs per test on a loaded 2-core machine: 5 s is a hang guard too tight.
setDefaultTimeout(30_000);

const GUESS = resolve(import.meta.dir, "../testdata/guess.sh");

const world = useWorld();

for (const shell of ["bash", "zsh", "fish"]) {
  test(`${shell}: exit codes, one block for a compound command, cwd, --propagate`, async () => {
    const { name } = await world.spawn([], ["--session", `${shell}1`, "--shell", shell].filter(Boolean));
    const failed = await world.json(["exec", "--session", name, "--", "false"]);
    expect(failed).toMatchObject({ exitCode: 1, command: "false", output: "" });
    const two = await world.json(["exec", "--session", name, "--", "echo a; echo b"]);
    expect(two).toMatchObject({ exitCode: 0, output: "a\nb\n", seq: failed.seq + 1 });
    const cd = await world.json(["exec", "--session", name, "--", "cd /tmp"]);
    expect(cd.cwd).toBe("/tmp");
    if (shell === "fish") {
      const refused = await world.run(["exec", "--session", name, "--cwd", "/usr", "--", "pwd"]);
      expect(refused.code).toBe(64);
      expect(refused.stderr).toContain("fish has no subshells");
      await world.json(["exec", "--session", name, "--", "pwd"]);
    } else {
      const elsewhere = await world.json(["exec", "--session", name, "--cwd", "/usr", "--", "pwd"]);
      expect(elsewhere).toMatchObject({ output: "/usr\n", cwd: "/usr", command: "pwd" });
    }
    expect((await world.json(["exec", "--session", name, "--", "pwd"])).output).toBe("/tmp\n"); // the shell did not move
    expect((await world.run(["exec", "--session", name, "--propagate", "--", "sh -c 'exit 7'"])).code).toBe(7);
    expect((await world.run(["exec", "--session", name, "--", "sh -c 'exit 7'"])).code).toBe(0);
    const blocks = await world.json(["blocks", "--session", name]);
    expect(blocks.blocks.map((b: any) => [b.command, b.exitCode])).toEqual([["false", 1], ["echo a; echo b", 0], ["cd /tmp", 0], ["pwd", 0], ["pwd", 0], ["sh -c 'exit 7'", 7], ["sh -c 'exit 7'", 7]]);
    expect((await world.json(["status", "--session", name])).mode).toBe("idle");
  });
}

test("the number-guessing flow: interactive exec, output waits from cursors, send, PROMPT", async () => {
  const { name } = await world.spawn([], ["--session", "guess", "--shell", "bash"]);
  const started = await world.json(["exec", "--session", name, "--interactive", "--", GUESS]);
  expect(started.mode).toBe("interactive");
  const asked = await world.json(["wait", "--session", name, "--output", "Guess a number", "--from-cursor", String(started.cursor)]);
  expect(asked.output).toMatchObject({ matched: true, matchText: "Guess a number" });
  expect((await world.json(["status", "--session", name])).mode).toBe("interactive");
  const busy = await world.run(["exec", "--session", name, "--", "echo no"]);
  expect(busy.code).toBe(75);
  expect(busy.stderr).toContain("the session is interactive (block 1: ");
  const wrong = await world.json(["send", "--session", name, "--enter", "3"]);
  const retry = await world.json(["wait", "--session", name, "--output", "/Wrong.*\\n.*Guess a number/", "--from-cursor", String(wrong.cursor)]);
  await world.json(["send", "--session", name, "7\\r"]);
  const correct = await world.json(["wait", "--session", name, "--output", "Correct!", "--from-cursor", String(retry.output.cursor)]);
  const prompt = await world.json(["wait", "--session", name, "--output", "PROMPT", "--from-cursor", String(correct.output.cursor)]);
  expect(prompt.fired).toEqual(["output PROMPT from " + correct.output.cursor]);
  const block = await world.json(["block", "--session", name, "1"]);
  expect(block).toMatchObject({ exitCode: 0 });
  expect(block.output).toContain("Wrong, try again.");
  expect(block.output).toContain("Correct!");
  expect((await world.json(["status", "--session", name])).mode).toBe("idle");
});

test("forged OSC 133 marks in program output do not end the block", async () => {
  const { name } = await world.spawn([], ["--session", "forge", "--shell", "bash"]);
  const result = await world.json(["exec", "--session", name, "--", "printf '\\033]133;D;0\\007\\033]133;D;0;tw=guess\\007\\033]133;A\\007'; echo after-forgery"]);
  expect(result.output).toContain("after-forgery");
  expect(result.exitCode).toBe(0);
  expect((await world.json(["blocks", "--session", name])).blocks).toHaveLength(1);
});

test("Ctrl-C at an empty prompt makes no phantom block; exec --queue waits its turn", async () => {
  const { name } = await world.spawn([], ["--session", "ctrlc", "--shell", "bash"]);
  await world.json(["exec", "--session", name, "--", "true"]);
  const revision = (await world.json(["snapshot", "--session", name])).revision;
  await world.json(["press", "--session", name, "C-c", "--changed-since", String(revision)]);
  await world.json(["press", "--session", name, "Enter", "--settled", "50"]);
  await world.json(["exec", "--session", name, "--", "echo next"]);
  expect((await world.json(["blocks", "--session", name])).blocks.map((b: any) => b.command)).toEqual(["true", "echo next"]);
  // A second exec while one runs is busy (75) unless it queues.
  const rpc = await world.rpc();
  const long = rpc.call("exec", { session: name, command: "read line; echo got-$line" });
  await world.json(["wait", "--session", name, "--text", "read line"]);
  expect((await world.run(["exec", "--session", name, "--", "echo later"])).code).toBe(75);
  const queued = rpc.call("exec", { session: name, command: "echo queued", queue: true });
  await world.json(["send", "--session", name, "x\\r"]);
  expect(((await long) as { output: string }).output).toBe("x\ngot-x\n"); // the tty echoes what we sent
  expect(((await queued) as { output: string }).output).toBe("queued\n");
  rpc.close();
});

test("--max-output caps what is returned and says so; the transcript keeps all of it", async () => {
  const { name } = await world.spawn([], ["--session", "big", "--shell", "bash"]);
  const result = await world.json(["exec", "--session", name, "--max-output", "100", "--", "seq 1 5000"]);
  expect(result.outputTruncated).toBe(true);
  expect(result.output).toHaveLength(100);
  const full = "1\n2\n" + Array.from({ length: 4998 }, (_, i) => i + 3).join("\n") + "\n";
  expect(result.outputChars).toBe(full.length);
  const human = await world.run(["exec", "--session", name, "--max-output", "10", "--", "seq 1 100"]);
  expect(human.stdout).toContain("[output truncated: 10 of 292 bytes");
  const dirs = Bun.spawnSync(["sh", "-c", `ls -d ${world.env.XDG_STATE_HOME}/tuiwright/${world.namespace}/transcripts/big-*`]).stdout.toString().trim();
  expect(readFileSync(`${dirs}/blocks/1.out`, "utf8")).toBe(full);
  const events = readFileSync(`${dirs}/events.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(events.map((e) => e.event)).toContain("block-end");
  const blocks = readFileSync(`${dirs}/blocks.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(blocks[0]).toMatchObject({ seq: 1, command: "seq 1 5000", exitCode: 0 });
});

test("end interrupts the running program; reset brings back a working shell; exec needs integration", async () => {
  const { name } = await world.spawn([], ["--session", "stuck", "--shell", "bash"]);
  await world.json(["exec", "--session", name, "--interactive", "--", "sleep 300"]);
  await world.json(["wait", "--session", name, "--text", "sleep 300"]);
  expect((await world.json(["end", "--session", name])).how).toBe("interrupt");
  expect((await world.json(["status", "--session", name])).mode).toBe("idle");
  const trap = await world.json(["exec", "--session", name, "--interactive", "--", "trap '' INT; echo armed; sleep 300"]);
  await world.json(["wait", "--session", name, "--output", "armed", "--from-cursor", String(trap.cursor)]);
  expect((await world.json(["end", "--session", name, "--grace", "200"])).how).toBe("SIGTERM");
  await world.json(["exec", "--session", name, "--interactive", "--", "cat"]);
  const reset = await world.json(["reset", "--session", name]);
  expect(reset.name).toBe(name);
  expect((await world.json(["exec", "--session", name, "--", "echo fresh"])).output).toBe("fresh\n");
  // Without integration, exec falls back to the prompt on screen, and says so.
  const plain = await world.spawn([], ["--session", "plain", "--shell", "bash", "--no-integration"]);
  const fallback = await world.json(["exec", "--session", plain.name, "--", "echo one; echo two"]);
  expect(fallback).toMatchObject({ output: "one\ntwo\n", exitCode: null, integration: false });
  expect((await world.json(["status", "--session", plain.name])).integration).toBe(false);
  expect((await world.run(["exec", "--session", plain.name, "--"].concat(["true"]))).stdout).toContain("no shell integration: output read from the screen, exit code unknown");
  const refused = await world.run(["blocks", "--session", plain.name]);
  expect(refused.code).toBe(64);
  expect(refused.stderr).toContain("blocks needs a shell session with integration");
});

test("run keeps stdout and stderr apart, returns the exit code, and times out a child", async () => {
  // --json exits with the child's code too (7), like every other output mode.
  const apartRun = await world.run(["--json", "run", "--", "sh", "-c", "echo out; echo err >&2; exit 7"]);
  expect(apartRun.code).toBe(7);
  const apart = JSON.parse(apartRun.stdout);
  expect(apart).toMatchObject({ exitCode: 7, signal: null, stdout: "out\n", stderr: "err\n", timedOut: false });
  const passthrough = await world.run(["run", "--stdin", "piped", "--", "sh", "-c", "cat; echo e >&2; exit 7"]);
  expect(passthrough).toMatchObject({ code: 7, stdout: "piped", stderr: "e\n" });
  const slowRun = await world.run(["--json", "run", "--timeout", "200", "--", "sh", "-c", "sleep 100 & sleep 100"]);
  expect(slowRun.code).toBe(124);
  const slow = JSON.parse(slowRun.stdout);
  expect(slow.timedOut).toBe(true);
  expect(slow.elapsedMs).toBeLessThan(5000);
  expect((await world.run(["run", "--timeout", "100", "--", "sleep", "100"])).code).toBe(124);
  expect((await world.run(["run", "--", "no-such-program-xyz"])).code).toBe(66);
});

test("a block longer than the in-memory window still returns its head and keeps all of it on disk", async () => {
  const { name } = await world.spawn([], ["--session", "huge", "--shell", "bash"]);
  const result = await world.json(["exec", "--session", name, "--max-output", "12", "--timeout", "60000", "--", "seq 1 1500000"]);
  expect(result.output).toBe("1\n2\n3\n4\n5\n6\n");
  expect(result.outputTruncated).toBe(true);
  const dir = Bun.spawnSync(["sh", "-c", `ls -d ${world.env.XDG_STATE_HOME}/tuiwright/${world.namespace}/transcripts/huge-*`]).stdout.toString().trim();
  expect(Bun.file(`${dir}/blocks/1.out`).size).toBe(result.outputChars);
  expect(result.outputChars).toBeGreaterThan(8 << 20);
}, 60_000);

test("output waits and send need a shell session with integration", async () => {
  const { name } = await world.spawn(["cat"]);
  const wait = await world.run(["wait", "--session", name, "--output", "x"]);
  expect(wait.code).toBe(64);
  expect(wait.stderr).toContain("output waits need a shell session with integration");
  expect((await world.run(["send", "--session", name, "x"])).code).toBe(64);
  expect((await world.run(["wait", "--session", name, "--from-cursor", "3"])).code).toBe(64);
});

for (const shell of ["bash", "zsh", "fish"]) {
  test(`${shell}: a command typed by hand becomes a named block too`, async () => {
    const { name } = await world.spawn([], ["--session", `${shell}-typed`, "--shell", shell]);
    await world.json(["exec", "--session", name, "--", "true"]);
    const status = await world.json(["status", "--session", name]);
    await world.json(["type", "--session", name, "echo by-hand\r"]);
    await world.json(["wait", "--session", name, "--output", "PROMPT", "--from-cursor", String(status.cursor)]);
    const blocks = (await world.json(["blocks", "--session", name])).blocks;
    expect(blocks.map((b: any) => [b.command, b.exitCode])).toEqual([["true", 0], ["echo by-hand", 0]]);
    expect((await world.json(["block", "--session", name, "2"])).output).toBe("by-hand\n");
  });
}

test("bash: a hand-typed command line is named without a fork, and the file it passes through is left empty", async () => {
  const { name } = await world.spawn([], ["--session", "bash-line-file", "--shell", "bash"]);
  await world.json(["exec", "--session", name, "--", "true"]);
  const status = await world.json(["status", "--session", name]);
  // Quotes, a `;` and a backslash: the mark escapes them, the block's name is the line as typed.
  await world.json(["type", "--session", name, "echo 'a;b\\c' x\r"]);
  await world.json(["wait", "--session", name, "--output", "PROMPT", "--from-cursor", String(status.cursor)]);
  expect((await world.json(["blocks", "--session", name])).blocks.map((b: any) => b.command)).toEqual(["true", "echo 'a;b\\c' x"]);
  // The rc wrote `history 1` into its file (no $(…) subshell) and emptied it: a line holding a
  // secret does not stay on disk.
  const file = await world.json(["exec", "--session", name, "--", "[[ -f $__tw_line_file ]] && wc -c < \"$__tw_line_file\""]);
  expect([file.exitCode, file.output.trim()]).toEqual([0, "0"]);
});
