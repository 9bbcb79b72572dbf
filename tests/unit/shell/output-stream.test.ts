import { expect, test } from "bun:test";
import { OutputStream, type ShellMark } from "../../../lib/shell/output-stream.ts";

function stream(nonce: string | null = "n1") {
  const marks: ShellMark[] = [];
  return { s: new OutputStream(nonce, (m) => marks.push(m)), marks };
}

test("escape sequences are stripped; CRLF and lone CR become LF; controls dropped", () => {
  const { s } = stream();
  s.push("\x1b[1;31mred\x1b[0m\r\nnext\rover\x07\x08 \x1b]0;title\x07x\x1bPq#data\x1b\\y\x1b(Bz\x1b=w");
  expect(s.slice(0)).toBe("red\nnext\nover xyzw");
});

test("a CR at the end of one chunk and an LF at the start of the next are one newline", () => {
  const { s } = stream();
  s.push("a\r");
  s.push("\nb");
  expect(s.slice(0)).toBe("a\nb");
});

test("marks carry exact offsets, and only with this session's nonce", () => {
  const { s, marks } = stream();
  s.push("$ \x1b]133;B;tw=n1\x07echo hi\r\n\x1b]633;E;echo hi\\x3b ok\\\\;tw=n1\x07\x1b]133;C;tw=n1\x07hi\r\n");
  s.push("\x1b]133;D;0;tw=FORGED\x07\x1b]133;D;7;tw=n1\x1b\\");
  expect(marks).toEqual([
    { kind: "B", offset: 2 },
    { kind: "E", offset: 10, command: "echo hi; ok\\" },
    { kind: "C", offset: 10 },
    { kind: "D", offset: 13, exit: 7 },
  ]);
  expect(s.slice(10, 13)).toBe("hi\n");
});

test("without a nonce (no integration) marks are ignored", () => {
  const { s, marks } = stream(null);
  s.push("\x1b]133;C;tw=n1\x07out");
  expect(marks).toEqual([]);
  expect(s.slice(0)).toBe("out");
});

import { BlockTracker } from "../../../lib/shell/block-tracker.ts";

test("block tracker: lost and repeated marks make no phantom blocks; E names blocks before (zsh) or after (bash) C", () => {
  const ended: number[] = [];
  const t = new BlockTracker({ started: () => {}, ended: (b) => ended.push(b.seq), ready: () => {} });
  const at = (kind: "A" | "B" | "C", offset = 0) => t.onMark({ kind, offset }, "/x");
  t.onMark({ kind: "D", offset: 0, exit: 0 }, null); // the first prompt: no block
  at("A"); at("B");
  expect(t.mode()).toBe("idle");
  t.onMark({ kind: "D", offset: 1, exit: 130 }, null); // Ctrl-C at an empty prompt
  expect(t.blocks).toHaveLength(0);
  t.onMark({ kind: "E", offset: 1, command: "stale" }, null); // bash: the previous command, at a prompt
  at("A"); at("B");
  at("C", 2); at("C", 3); // repeated
  expect(t.blocks).toHaveLength(1);
  expect(t.blocks[0]!.command).toBe("");
  t.onMark({ kind: "E", offset: 5, command: "make" }, null); // bash: reported before D
  t.onMark({ kind: "D", offset: 5, exit: 2 }, "/y");
  expect(t.blocks[0]).toMatchObject({ command: "make", exitCode: 2, cwd: "/y", startOffset: 2, endOffset: 5 });
  at("A"); at("B");
  t.onMark({ kind: "E", offset: 6, command: "ls" }, null); // zsh: before C
  at("C", 6);
  at("A", 9); // D lost: the new prompt closes it
  expect(t.blocks[1]).toMatchObject({ command: "ls", exitCode: null, endOffset: 9 });
  expect(ended).toEqual([1, 2]);
});

test("the window is held in a few flat chunks, however small the pieces it arrived in", () => {
  // A shell's output comes split at every mark: thousands of tiny pieces must not each stay a string.
  const s = new OutputStream("n1", () => {}, { retain: 1000, chunk: 100 });
  let expected = "";
  for (let i = 0; i < 5000; i++) {
    const piece = `${i % 10}\x1b]133;C;tw=n1\x07`;
    s.push(piece);
    expected += String(i % 10);
  }
  expect(s.end).toBe(5000);
  // At most retain/chunk full chunks plus one partial, plus the pieces not yet joined.
  expect(s.pieces).toBeLessThanOrEqual(1000 / 100 + 1 + 100);
  expect(s.start).toBeGreaterThan(5000 - 1000 - 100 - 1);
  expect(s.start).toBeLessThanOrEqual(5000 - 1000);
  expect(s.slice(s.start)).toBe(expected.slice(s.start));
  expect(s.slice(4990, 4995)).toBe(expected.slice(4990, 4995));
  expect(s.slice(s.start + 50, s.start + 250)).toBe(expected.slice(s.start + 50, s.start + 250));
});

test("cursors are UTF-8 byte offsets of the normalised stream, from a base that never restarts", () => {
  const marks: ShellMark[] = [];
  const s = new OutputStream("n1", (m) => marks.push(m), { base: 1000, chunk: 8 });
  s.push("é😀\r\n");
  s.push("\x1b]133;D;0;tw=n1\x07ascii and ü");
  expect(s.start).toBe(1000);
  expect(marks[0]).toMatchObject({ kind: "D", offset: 1000 + 2 + 4 + 1 });
  expect(s.end).toBe(1000 + 7 + "ascii and ".length + 2);
  expect(s.slice(1002, 1006)).toBe("😀");
  expect(s.slice(1007)).toBe("ascii and ü");
  expect(s.slice(1000)).toBe("é😀\nascii and ü");
});
