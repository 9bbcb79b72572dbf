import { expect, test } from "bun:test";
import { OutputStream, type ShellMark } from "../../lib/shell/output-stream.ts";

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
