// Shell sessions that never wedge and never type into the wrong program (issue 15): the
// interactive race, commands that run nothing or cannot run, multi-line commands, the
// continuation prompt, PROMPT and EOF, blocks that close when the shell goes, the cursor.
// Race loops: TUIWRIGHT_RACE_LOOPS (default 5; `bun run soak:shell` runs 50 under load).
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { useWorld } from "../helpers/harness.ts";

// Several shells and programs per test on a loaded 2-core machine: 5 s is a hang guard too tight.
setDefaultTimeout(30_000);

const LOOPS = Number(process.env.TUIWRIGHT_RACE_LOOPS ?? 5);

const world = useWorld();

function transcriptDir(session: string): string {
  const dirs = Bun.spawnSync(["sh", "-c", `ls -d ${world.env.XDG_STATE_HOME}/tuiwright/${world.namespace}/transcripts/${session}-*`]).stdout.toString().trim().split("\n");
  return dirs.at(-1)!;
}

function jsonLines(path: string): any[] {
  return readFileSync(path, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

for (const shell of ["bash", "zsh"]) {
  test(`${shell}: exec --interactive switches the mode before it answers; a later exec is refused, not typed into the REPL (${LOOPS} rounds)`, async () => {
    const { name } = await world.spawn([], ["--session", `race-${shell}`, "--shell", shell]);
    const rpc = await world.rpc();
    try {
      for (let round = 0; round < LOOPS; round++) {
        // Sent back to back on one connection: each call sees the effect of the one before.
        const started = rpc.call("exec", { session: name, command: "python3 -q", interactive: true });
        const status = rpc.call("status", { session: name });
        const injected = rpc.call("exec", { session: name, command: "print('INJECTED')" }).then(() => null, (error) => error);
        expect(((await status) as { mode: string }).mode).toBe("interactive");
        const refused = await injected;
        expect(refused?.message).toContain("the session is interactive");
        const { cursor } = (await started) as { cursor: number };
        // Python's own prompt, then leave it; EOF fires when the interactive session ends.
        await rpc.call("wait", { session: name, output: ">>> ", fromCursor: cursor, timeoutMs: 30_000 });
        await rpc.call("send", { session: name, data: "exit()\r" });
        await rpc.call("wait", { session: name, output: "EOF", fromCursor: cursor, timeoutMs: 30_000 });
        expect(((await rpc.call("status", { session: name })) as { mode: string }).mode).toBe("idle");
      }
    } finally {
      rpc.close();
    }
    const blocks = (await world.json(["blocks", "--session", name])).blocks;
    expect(blocks.map((b: any) => b.command)).toEqual(Array(LOOPS).fill("python3 -q"));
    const events = jsonLines(`${transcriptDir(name)}/events.jsonl`).filter((e) => e.event === "block-begin");
    expect(events.every((e) => e.command === "python3 -q" && e.interactive === true)).toBe(true);
    for (const b of blocks) expect((await world.json(["block", "--session", name, String(b.seq)])).output).not.toContain("INJECTED");
  }, 120_000);

  test(`${shell}: Ctrl-C sent the moment exec --interactive answers reaches the program, not the shell (${LOOPS * 2} rounds)`, async () => {
    const { name } = await world.spawn([], ["--session", `ctrlc-${shell}`, "--shell", shell]);
    const rpc = await world.rpc();
    try {
      for (let round = 0; round < LOOPS * 2; round++) {
        const { cursor } = (await rpc.call("exec", { session: name, command: "cat", interactive: true })) as { cursor: number };
        await rpc.call("send", { session: name, data: "\x03" });
        // cat got the interrupt: its block ends and the prompt comes back.
        await rpc.call("wait", { session: name, output: "PROMPT", fromCursor: cursor, timeoutMs: 15_000 });
      }
    } finally {
      rpc.close();
    }
  }, 120_000);

  test(`${shell}: a call pipelined after reset, spawn or end on one connection waits for it (${LOOPS} rounds)`, async () => {
    const { name } = await world.spawn([], ["--session", `order-${shell}`, "--shell", shell]);
    const rpc = await world.rpc();
    try {
      for (let round = 0; round < LOOPS; round++) {
        const old = ((await rpc.call("list", {})) as any).sessions.find((s: any) => s.name === name).pid;
        // Sent back to back: the exec reaches the new shell, never the old one or none.
        const [fresh, block] = (await Promise.all([rpc.call("reset", { session: name }), rpc.call("exec", { session: name, command: "echo $$" })])) as any[];
        expect(fresh.pid).not.toBe(old);
        expect(block.output.trim()).toBe(String(fresh.pid));
      }
      const [spawned, first] = (await Promise.all([
        rpc.call("spawn", { session: `order2-${shell}`, shell }),
        rpc.call("exec", { session: `order2-${shell}`, command: "echo first" }),
      ])) as any[];
      expect(spawned.name).toBe(`order2-${shell}`);
      expect(first.output).toBe("first\n");
      // end, then an exec right behind it: it waits for the prompt end brings back.
      const { cursor } = (await rpc.call("exec", { session: name, command: "cat", interactive: true })) as { cursor: number };
      const [ended, after] = (await Promise.all([rpc.call("end", { session: name }), rpc.call("exec", { session: name, command: "echo after" })])) as any[];
      expect(ended.mode).toBe("idle");
      expect(after.output).toBe("after\n");
      expect(cursor).toBeGreaterThanOrEqual(0);
    } finally {
      rpc.close();
    }
  }, 120_000);

  test(`${shell}: blank and comment-only commands are blocks with exit 0 at once; broken ones are refused before typing`, async () => {
    const { name } = await world.spawn([], ["--session", `check-${shell}`, "--shell", shell]);
    for (const nothing of ["   ", "# note", "  # one\n\n# two"]) {
      const block = await world.json(["exec", "--session", name, "--timeout", "60000", "--", nothing]);
      expect(block).toMatchObject({ exitCode: 0, output: "", command: nothing });
    }
    const complaints: Record<string, string[]> = {
      bash: ["unexpected EOF while looking for matching", "the command ends with a backslash", "syntax error: unexpected end of file"],
      zsh: ["unmatched '", "the command ends with a backslash", "parse error near `then'"],
    };
    const broken = ["echo 'unterminated", "echo a \\", "if true; then"];
    for (const [i, command] of broken.entries()) {
      const refused = await world.run(["exec", "--session", name, "--", command]);
      expect(refused.code).toBe(65);
      expect(refused.stderr).toContain("nothing was typed");
      expect(refused.stderr).toContain(complaints[shell]![i]!);
      expect((await world.json(["status", "--session", name])).mode).toBe("idle");
    }
    // Nothing was swallowed: the next command runs as usual.
    expect((await world.json(["exec", "--session", name, "--", "echo after"])).output).toBe("after\n");
    const blocks = (await world.json(["blocks", "--session", name])).blocks;
    expect(blocks.map((b: any) => [b.command, b.exitCode])).toEqual([["   ", 0], ["# note", 0], ["  # one\n\n# two", 0], ["echo after", 0]]);
  });

  test(`${shell}: multi-line commands (here-doc, function, loop) run as one block each`, async () => {
    const { name } = await world.spawn([], ["--session", `multi-${shell}`, "--shell", shell]);
    const heredoc = await world.json(["exec", "--session", name, "--", "cat <<'EOF'\nline one\n  'quoted' \\ back\nEOF"]);
    expect(heredoc).toMatchObject({ exitCode: 0, output: "line one\n  'quoted' \\ back\n" });
    await world.json(["exec", "--session", name, "--", "greet() {\n  echo \"hi $1\"\n}"]);
    expect((await world.json(["exec", "--session", name, "--", "greet there"])).output).toBe("hi there\n");
    const loop = await world.json(["exec", "--session", name, "--", "for i in 1 2 3; do\n  echo n$i\ndone\nfalse"]);
    expect(loop).toMatchObject({ exitCode: 1, output: "n1\nn2\nn3\n" });
    const blocks = (await world.json(["blocks", "--session", name])).blocks;
    expect(blocks).toHaveLength(4);
    expect(blocks[3].command).toBe("for i in 1 2 3; do\n  echo n$i\ndone\nfalse");
  });

  test(`${shell}: a continuation prompt typed by hand shows as status continuation; exec refuses; send --ctrl-c recovers`, async () => {
    const { name } = await world.spawn([], ["--session", `cont-${shell}`, "--shell", shell]);
    await world.json(["exec", "--session", name, "--", "true"]);
    await world.json(["type", "--session", name, "echo 'open\r"]);
    await world.json(["wait", "--session", name, "--regex", "^(quote)?>$"]); // bash "> ", zsh "quote> "
    // The mark arrives with the prompt; waiting for its text is waiting for the mark too.
    expect((await world.json(["status", "--session", name])).mode).toBe("continuation");
    const refused = await world.run(["exec", "--session", name, "--", "echo swallowed"]);
    expect(refused.code).toBe(75);
    expect(refused.stderr).toContain("continuation prompt");
    const sent = await world.json(["send", "--session", name, "--ctrl-c"]);
    await world.json(["wait", "--session", name, "--output", "PROMPT", "--from-cursor", String(sent.cursor)]);
    expect((await world.json(["status", "--session", name])).mode).toBe("idle");
    expect((await world.json(["exec", "--session", name, "--", "echo back"])).output).toBe("back\n");
  });

  test(`${shell}: PROMPT holds on a fresh shell from cursor 0; the interactive cursor is after the echo; EOF when the program returns`, async () => {
    const { name } = await world.spawn([], ["--session", `fresh-${shell}`, "--shell", shell]);
    const prompt = await world.json(["wait", "--session", name, "--output", "PROMPT", "--from-cursor", "0", "--timeout", "30000"]);
    expect(prompt.output.matched).toBe(true);
    const started = await world.json(["exec", "--session", name, "--interactive", "--", "printf 'Name? '; read n; echo hi-$n"]);
    const status = await world.json(["status", "--session", name]);
    expect(started.cursor).toBe(status.block.cursor); // where the block starts: after the echoed line
    expect(started.block).toBe(status.block.seq);
    const asked = await world.json(["wait", "--session", name, "--output", "Name? ", "--from-cursor", String(started.cursor)]);
    expect(asked.output.cursor).toBe(started.cursor + "Name? ".length);
    await world.json(["send", "--session", name, "--enter", "bob"]);
    await world.json(["wait", "--session", name, "--output", "EOF", "--from-cursor", String(started.cursor)]);
    expect(await world.json(["status", "--session", name])).toMatchObject({ mode: "idle" });
    expect((await world.json(["block", "--session", name, String(started.block)])).output).toBe("Name? bob\nhi-bob\n");
  });

  test(`${shell}: the shell exiting closes its block with its code; reset closes it with "reset" and the cursor goes on`, async () => {
    const { name } = await world.spawn([], ["--session", `bye-${shell}`, "--shell", shell]);
    await world.json(["exec", "--session", name, "--", "echo one"]);
    const exited = await world.json(["exec", "--session", name, "--", "exit 3"]);
    expect(exited).toMatchObject({ command: "exit 3", exitCode: 3, reason: "shell-exited" });
    expect(await world.json(["status", "--session", name])).toMatchObject({ mode: "exited", exitCode: 3, block: null });
    const first = transcriptDir(name);
    expect(jsonLines(`${first}/blocks.jsonl`).at(-1)).toMatchObject({ command: "exit 3", exitCode: 3, reason: "shell-exited" });
    expect(jsonLines(`${first}/events.jsonl`).filter((e) => e.event === "block-end").at(-1)).toMatchObject({ reason: "shell-exited" });
    const refused = await world.run(["exec", "--session", name, "--", "true"]);
    expect(refused.code).not.toBe(0);

    await world.json(["reset", "--session", name]);
    const started = await world.json(["exec", "--session", name, "--interactive", "--", "cat"]);
    const before = (await world.json(["status", "--session", name])).cursor;
    const second = transcriptDir(name);
    await world.json(["reset", "--session", name]);
    expect(jsonLines(`${second}/blocks.jsonl`).at(-1)).toMatchObject({ command: "cat", exitCode: null, reason: "reset" });
    // The cursor never restarts: the new shell's output comes after the old one's.
    await world.json(["wait", "--session", name, "--output", "PROMPT", "--from-cursor", String(before), "--timeout", "30000"]);
    const after = await world.json(["status", "--session", name]);
    expect(after.cursor).toBeGreaterThan(before);
    expect(after.cursor).toBeGreaterThan(started.cursor);
    expect((await world.json(["exec", "--session", name, "--", "echo fresh"])).output).toBe("fresh\n");
  });
}

test("bash: output cursors count UTF-8 bytes (an emoji is 4), and a block's size is in bytes", async () => {
  const { name } = await world.spawn([], ["--session", "utf8", "--shell", "bash"]);
  const block = await world.json(["exec", "--session", name, "--", "printf 'é😀x\\n'"]);
  expect(block.output).toBe("é😀x\n");
  expect(block.outputChars).toBe(2 + 4 + 1 + 1);
  const start = block.cursor - block.outputChars;
  const found = await world.json(["wait", "--session", name, "--output", "😀", "--from-cursor", String(start)]);
  expect(found.output.cursor).toBe(start + 2 + 4);
  const regex = await world.json(["wait", "--session", name, "--output", "/x$/m", "--from-cursor", String(start)]);
  expect(regex.output.cursor).toBe(start + 7);
});

test("end asks a known REPL or shell to leave with its own exit line first, and says which step ended it", async () => {
  const { name } = await world.spawn([], ["--session", "graceful", "--shell", "bash"]);
  for (const [command, program, ready] of [["python3 -q", "python3", ">>> "], ["bash --norc", "bash", "/[$#] $/"], ["node", "node", "> "], ["sqlite3", "sqlite3", "sqlite> "]] as const) {
    const started = await world.json(["exec", "--session", name, "--interactive", "--", command]);
    await world.json(["wait", "--session", name, "--output", ready, "--from-cursor", String(started.cursor)]);
    // A grace long enough for a loaded machine: the step that ended it is what is checked, and
    // `end` moves on as soon as the shell is back at its prompt.
    const ended = await world.json(["end", "--session", name, "--grace", "15000"]);
    expect(ended).toMatchObject({ how: "exit", program, mode: "idle" });
    const block = await world.json(["block", "--session", name, String(started.block)]);
    expect(block).toMatchObject({ command, exitCode: 0, reason: "cancelled" });
  }
  // A program with no exit line of its own: Ctrl-C.
  const cat = await world.json(["exec", "--session", name, "--interactive", "--", "cat"]);
  await world.json(["wait", "--session", name, "--text", "cat"]);
  expect(await world.json(["end", "--session", name])).toMatchObject({ how: "interrupt", program: "cat" });
  expect((await world.json(["block", "--session", name, String(cat.block)])).reason).toBe("cancelled");
});

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** The secret anywhere in `text`, even with escape sequences or line breaks between its characters. */
function leaks(text: string, secret: string): boolean {
  const gap = String.raw`(?:\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|[\r\n\b])*`;
  return new RegExp([...secret].join(gap)).test(text);
}

for (const shell of ["bash", "zsh", "fish"]) {
  test(`${shell}: type --secret and send --secret are masked in the cast, the transcript, block, events and exec labels`, async () => {
    const name = `secret-${shell}`;
    await world.spawn([], ["--session", name, "--shell", shell]);
    // Fresh each run: a shell's history (fish suggests from it) must not hold an old one.
    const typed = `Hunter${Math.random().toString(36).slice(2, 8)}`;
    const sent = `S3cret${Math.random().toString(36).slice(2, 8)}`;
    // Typed at the prompt (fish repaints the line as it goes), echoed back by the program.
    await world.json(["exec", "--session", name, "--", "true"]);
    await world.json(["type", "--session", name, "echo "]);
    await world.json(["type", "--session", name, "--secret", typed]);
    const before = (await world.json(["status", "--session", name])).cursor;
    await world.json(["press", "--session", name, "Enter"]);
    await world.json(["wait", "--session", name, "--output", "PROMPT", "--from-cursor", String(before)]);
    // Sent to a program reading a password, then shown by it, then exec'd on a command line.
    const started = await world.json(["exec", "--session", name, "--interactive", "--", "read pw; echo got-$pw"]);
    await world.json(["send", "--session", name, "--secret", "--enter", sent]);
    await world.json(["wait", "--session", name, "--output", "EOF", "--from-cursor", String(started.cursor)]);
    const label = await world.json(["exec", "--session", name, "--", `echo again-${sent}`]);
    expect(label.command).toBe(`echo again-${"*".repeat(sent.length)}`);
    expect(label.output).toBe(`again-${"*".repeat(sent.length)}\n`);
    const got = await world.json(["block", "--session", name, String(started.block)]);
    expect(got.output).toContain(`got-${"*".repeat(sent.length)}`);
    await world.json(["exec", "--session", name, "--", "exit"]);

    const dir = transcriptDir(name);
    const files = Bun.spawnSync(["sh", "-c", `ls ${dir}/*.jsonl ${dir}/blocks/*.out ${world.env.XDG_STATE_HOME}/tuiwright/${world.namespace}/casts/${name}-*`]).stdout.toString().trim().split("\n");
    expect(files.some((f) => f.endsWith(".cast"))).toBe(true);
    for (const file of files) {
      let text = readFileSync(file, "utf8");
      // Every string of every event, joined: a secret split across events is found too.
      if (file.endsWith(".cast") || file.endsWith(".jsonl")) text = text.split("\n").filter(Boolean).flatMap((line) => strings(JSON.parse(line))).join("");
      for (const secret of [typed, sent]) {
        if (leaks(text, secret)) throw new Error(`${secret} leaks into ${file}: ${JSON.stringify(text)}`);
      }
    }
  });
}

test("bash: output that ends like a secret begins is held back only briefly: an output wait still sees it", async () => {
  const { name } = await world.spawn([], ["--session", "held", "--shell", "bash"]);
  const secret = `Zq${Math.random().toString(36).slice(2, 8)}`;
  const asked = await world.json(["exec", "--session", name, "--interactive", "--", "read -s pw; printf 'prompt-Z'; read x"]);
  await world.json(["send", "--session", name, "--secret", "--enter", secret]);
  const seen = await world.json(["wait", "--session", name, "--output", "prompt-Z", "--from-cursor", String(asked.cursor)]);
  expect(seen.output.matched).toBe(true);
  await world.json(["send", "--session", name, "--enter", "x"]);
  await world.json(["wait", "--session", name, "--output", "EOF", "--from-cursor", String(asked.cursor)]);
});
