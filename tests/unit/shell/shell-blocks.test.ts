import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BlockTracker } from "../../../lib/shell/block-tracker.ts";
import { ShellSession } from "../../../lib/shell/shell-session.ts";

test("the tracker keeps only the newest blocks in memory, and counts them all", () => {
  const t = new BlockTracker({ started: () => {}, ended: () => {}, ready: () => {} }, 5);
  for (let i = 0; i < 10_000; i++) {
    t.onMark({ kind: "B", offset: i * 10 }, null);
    t.onMark({ kind: "C", offset: i * 10 + 1 }, null);
    t.onMark({ kind: "D", offset: i * 10 + 5, exit: 0 }, null);
  }
  expect(t.blocks).toHaveLength(5);
  expect(t.count).toBe(10_000);
  expect(t.blocks.map((b) => b.seq)).toEqual([9996, 9997, 9998, 9999, 10_000]);
  expect(t.get(10_000)?.startOffset).toBe(99_991);
  expect(t.get(9995)).toBeUndefined();
  // Prompts (B marks) are kept as many as blocks: the newest five, at 99_950 … 99_990.
  expect(t.promptAfter(99_960)).toBe(99_970);
  expect(t.promptAfter(99_946)).toBe(99_950);
  // A PROMPT wait from before that cannot name the first prompt after it: refused.
  expect(() => t.promptAfter(99_940)).toThrow("older than the prompts kept in memory");
});

test("a shell's block that has left memory is still read back from the transcript", () => {
  const dir = mkdtempSync(join(tmpdir(), "tw-blocks-"));
  try {
    const shell = new ShellSession({ nonce: "n1", transcriptDir: dir, keepBlocks: 3, type: () => {}, changed: () => {} });
    const mark = (body: string) => `\x1b]${body};tw=n1\x07`;
    for (let i = 1; i <= 50; i++) {
      shell.push(`${mark("133;A")}$ ${mark("133;B")}`);
      shell.push(`${mark(`633;E;echo out-${i}`)}${mark("133;C")}out-${i}\r\n${mark(`133;D;${i % 3}`)}`);
    }
    expect(shell.tracker.blocks).toHaveLength(3);
    expect(shell.tracker.count).toBe(50);
    const first = shell.block(1)!;
    expect(first).toMatchObject({ seq: 1, command: "echo out-1", exitCode: 1 });
    expect(shell.result(first, 100).output).toBe("out-1\n");
    expect(shell.block(49)).toBe(shell.tracker.get(49)!);
    expect(shell.block(51)).toBeUndefined();
    expect(readFileSync(`${dir}/blocks.jsonl`, "utf8").trim().split("\n")).toHaveLength(50);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("idle only at a drawn prompt: after a block ends and before its prompt's B (or when none comes) the mode is starting", () => {
  const t = new BlockTracker({ started: () => {}, ended: () => {}, ready: () => {} });
  t.onMark({ kind: "A", offset: 0 }, null);
  expect(t.mode()).toBe("starting");
  t.onMark({ kind: "B", offset: 2 }, null);
  expect(t.mode()).toBe("idle");
  t.onMark({ kind: "C", offset: 10 }, null);
  t.onMark({ kind: "D", offset: 20, exit: 0 }, null);
  t.onMark({ kind: "A", offset: 20 }, null);
  // A prompt that lost its B (PS1 reassigned): the shell is not ready, and exec would wait.
  expect([t.mode(), t.atPrompt]).toEqual(["starting", false]);
  expect(t.promptAfter(10)).toBeNull();
  t.onMark({ kind: "B", offset: 22 }, null);
  expect([t.mode(), t.promptAfter(10)]).toEqual(["idle", 22]);
});

test("a primary prompt while a block is open ends it with an unknown exit code (the hook that sends D was removed)", () => {
  const ended: (number | null)[] = [];
  const t = new BlockTracker({ started: () => {}, ended: (b) => ended.push(b.exitCode), ready: () => {} });
  t.onMark({ kind: "B", offset: 0 }, null);
  t.onMark({ kind: "C", offset: 5 }, null);
  t.onMark({ kind: "B", offset: 9 }, null);
  expect(ended).toEqual([null]);
  expect([t.mode(), t.open, t.promptAfter(5)]).toEqual(["idle", null, 9]);
  // …but a continuation prompt's B is not the shell reading a command.
  t.onMark({ kind: "S", offset: 12 }, null);
  t.onMark({ kind: "B", offset: 12 }, null);
  expect(t.mode()).toBe("continuation");
});
