// The agent-interactive-pty document's calls say only what is so: every id a call names is
// honoured or refused, a dead shell shows no prompt, an old cursor is answered from the spool,
// and block numbers never restart within a conversation.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { useWorld } from "../helpers/harness.ts";

setDefaultTimeout(60_000);

const world = useWorld();

async function call(method: string, params: Record<string, unknown>): Promise<any> {
  const rpc = await world.rpc();
  try {
    return await rpc.call(method, params);
  } finally {
    rpc.close();
  }
}
const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: { code: number; message: string }) => error);

test("send and end_session for an interactive session that has ended are refused, and the running one is untouched", async () => {
  const conversation_id = "ids";
  const first = await call("pty.exec_interactive", { conversation_id, command: "cat" });
  await call("pty.ctrl_c", { conversation_id, session_id: first.session_id });
  await call("pty.wait_for", { conversation_id, match: "PROMPT", from_cursor: first.cursor });
  const second = await call("pty.exec_interactive", { conversation_id, command: "python3 -q" });
  expect(second.session_id).not.toBe(first.session_id);
  await call("pty.wait_for", { conversation_id, match: ">>> ", from_cursor: second.cursor });

  const ended = await refusal(call("pty.end_session", { conversation_id, session_id: first.session_id }));
  expect(ended).toMatchObject({ code: -32003 });
  expect(ended!.message).toBe(`interactive session ${first.session_id} has ended; the running one is ${second.session_id} ("python3 -q"): nothing was ended`);
  const typed = await refusal(call("pty.send", { conversation_id, session_id: first.session_id, data: "print('WRONG-' + 'TARGET')\r" }));
  expect(typed!.message).toContain(`interactive session ${first.session_id} has ended`);
  expect((await refusal(call("pty.ctrl_c", { conversation_id, session_id: first.session_id })))!.message).toContain("nothing was sent");
  const never = await refusal(call("pty.send", { conversation_id, session_id: "99", data: "x" }));
  expect(never!.message).toContain("there is no interactive session 99 yet");
  expect((await refusal(call("pty.wait_for", { conversation_id, session_id: "99", match: "x", timeout_ms: 0 })))!.message).toContain("there is no interactive session 99");
  expect((await refusal(call("pty.send", { conversation_id, session_id: "one", data: "x" })))!.message).toContain("session_id must be the id exec_interactive returned");

  // Python is still running and nothing reached it; the right id reaches it.
  expect(await call("pty.status", { conversation_id })).toMatchObject({ mode: "interactive", active_session_id: second.session_id });
  const sent = await call("pty.send", { conversation_id, session_id: second.session_id, data: "print(6*7)\r" });
  await call("pty.wait_for", { conversation_id, match: "42", from_cursor: sent.cursor });
  expect(await call("pty.end_session", { conversation_id, session_id: second.session_id })).toMatchObject({ ok: true, how: "exit" });
  expect((await call("block", { session: conversation_id, seq: second.block_id })).output).not.toContain("WRONG-TARGET");
  await call("kill", { session: conversation_id });
});

test("wait_for PROMPT after the shell exited is refused (the shell is gone), not matched", async () => {
  const conversation_id = "dies";
  const done = await call("pty.exec_block", { conversation_id, command: "true" });
  const exit = await call("pty.exec_block", { conversation_id, command: "exit 3" });
  expect(exit).toMatchObject({ exit_code: 3, reason: "shell-exited" });
  // The prompt after `true` was drawn; after `exit 3` none ever will be.
  expect((await call("pty.wait_for", { conversation_id, match: "PROMPT", from_cursor: done.cursor, timeout_ms: 0 })).matched).toBe(true);
  const prompt = await refusal(call("pty.wait_for", { conversation_id, match: "PROMPT", from_cursor: exit.cursor, timeout_ms: 10_000 }));
  expect(prompt).toMatchObject({ code: -32003 });
  expect(prompt!.message).toContain("the program exited (code 3) before: output PROMPT");
  expect((await call("pty.wait_for", { conversation_id, match: "EOF", from_cursor: done.cursor })).matched).toBe(true);
  expect((await call("pty.status", { conversation_id })).mode).toBe("exited");
  await call("kill", { session: conversation_id });
});

test("from_cursor=0 after more than the in-memory window was printed is answered from the spool", async () => {
  const conversation_id = "long";
  const first = await call("pty.exec_block", { conversation_id, command: "echo needle-at-start" });
  // 9 MB: the start of the stream has left memory (8 MiB).
  const flood = await call("pty.exec_block", { conversation_id, command: "yes $(printf '%0110d' 7) | head -c 9000000; echo; echo needle-at-end", timeout_ms: 120_000 });
  expect(flood.cursor).toBeGreaterThan(9_000_000);
  const found = await call("pty.wait_for", { conversation_id, match: "needle-at-start", from_cursor: 0, timeout_ms: 0 });
  expect(found).toMatchObject({ ok: true, matched: true, match_text: "needle-at-start" });
  expect(found.cursor).toBeLessThanOrEqual(first.cursor);
  // A match that starts in the spool and ends in memory.
  const across = await call("pty.wait_for", { conversation_id, match: "needle-at-start\\n[\\s\\S]*needle-at-end", regex: true, from_cursor: 0, timeout_ms: 0 });
  expect(across.matched).toBe(true);
  expect(across.cursor).toBe(flood.cursor - 1); // just past "needle-at-end", before its newline
  const transcript = (await call("snapshot", { session: conversation_id, includeMeta: true })).meta.transcript.path;
  expect(readFileSync(`${transcript}/stream.txt`).length).toBe((await call("pty.status", { conversation_id })).cursor);
  await call("kill", { session: conversation_id });
}, 180_000);

test("block ids and cursors go on after reset, and the blocks before it stay readable", async () => {
  const conversation_id = "resets";
  expect((await call("pty.exec_block", { conversation_id, command: "echo one" })).block_id).toBe(1);
  const two = await call("pty.exec_block", { conversation_id, command: "echo two" });
  expect(two.block_id).toBe(2);
  await call("pty.reset", { conversation_id });
  const three = await call("pty.exec_block", { conversation_id, command: "echo three" });
  expect(three.block_id).toBe(3);
  expect(three.cursor).toBeGreaterThan(two.cursor);
  expect((await call("block", { session: conversation_id, seq: 1 })).output).toBe("one\n");
  expect((await call("pty.wait_for", { conversation_id, match: "two", from_cursor: 0, timeout_ms: 0 })).matched).toBe(true);
  // A shell that exited is reset too: numbers still go on.
  await call("pty.exec_block", { conversation_id, command: "exit 4" });
  await call("pty.reset", { conversation_id });
  expect((await call("pty.exec_block", { conversation_id, command: "echo five" })).block_id).toBe(5);
  expect((await call("blocks", { session: conversation_id })).blocks.map((b: { seq: number }) => b.seq)).toEqual([5]);
  expect((await call("block", { session: conversation_id, seq: 4 }))).toMatchObject({ command: "exit 4", exitCode: 4 });
  await call("kill", { session: conversation_id });
});

test("CLI: send/end --block refuse a block that is not the running interactive program (69), and a bad value names the flag (64)", async () => {
  const { name } = await world.spawn([], ["--shell", "bash"]);
  const started = await world.json(["exec", "--session", name, "--interactive", "--", "cat"]);
  const wrong = await world.run(["send", "--session", name, "--block", String(started.block + 1), "x"]);
  expect(wrong.code).toBe(69);
  expect(wrong.stderr).toContain(`there is no interactive session ${started.block + 1} yet; the running one is ${started.block} ("cat"): nothing was sent`);
  for (const bad of ["x", "0"]) {
    const refused = await world.run(["end", "--session", name, "--block", bad]);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain("block");
  }
  expect((await world.json(["status", "--session", name])).mode).toBe("interactive");
  expect(await world.json(["end", "--session", name, "--block", String(started.block)])).toMatchObject({ how: "interrupt" });
  const gone = await world.run(["end", "--session", name, "--block", String(started.block)]);
  expect(gone.code).toBe(69);
  expect(gone.stderr).toContain(`interactive session ${started.block} has ended; no interactive program is running now: nothing was ended`);
  await world.json(["kill", "--session", name]);
});

for (const shell of ["bash", "zsh", "fish"]) {
  test(`${shell}: exec refuses while the command line holds text (it would run with the command), and runs once C-c dropped it`, async () => {
    const { name } = await world.json(["spawn", "--shell", shell]);
    await world.json(["exec", "--session", name, "true"]);
    await world.json(["type", "--session", name, "echo half", "--wait-text", "echo half"]);
    const refused = await world.run(["exec", "--session", name, "echo whole"]);
    expect(refused.code).toBe(75);
    expect(refused.stderr).toContain("the command line already holds text");
    // Nothing was typed: the half line is as it was.
    expect((await world.json(["snapshot", "--session", name])).text).not.toContain("whole");
    // Ctrl-C drops it; the exec right after it (the shell may not have redrawn yet) runs alone —
    // or, when the shell takes longer than exec's grace to handle the Ctrl-C (a loaded machine),
    // is refused with nothing typed and runs alone once the prompt is back. Never with the half.
    await world.json(["press", "--session", name, "C-c"]);
    let ran = await world.run(["--json", "exec", "--session", name, "echo whole"]);
    if (ran.code === 75) {
      expect(ran.stdout + ran.stderr).toContain("the command line already holds text");
      await world.json(["wait", "--session", name, "--regex", "/[#$%>] *$/", "--timeout", "60000"]);
      ran = await world.run(["--json", "exec", "--session", name, "echo whole"]);
    }
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout).output.trim()).toBe("whole");
    expect((await world.json(["snapshot", "--session", name])).text).not.toContain("halfecho");
    await world.run(["kill", "--session", name]);
  });
}

test("zsh: exec after a resize at the prompt runs (zsh marks the prompt's end once; a resize leaves no evidence of a typed line)", async () => {
  const { name } = await world.json(["spawn", "--shell", "zsh", "--cols", "120", "--rows", "30"]);
  await world.json(["exec", "--session", name, "true"]);
  await world.json(["resize", "--session", name, "20", "10"]);
  const ran = await world.json(["exec", "--session", name, "echo sized"]);
  expect(ran.output.trim()).toBe("sized");
  await world.run(["kill", "--session", name]);
});
