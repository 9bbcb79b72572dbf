import { expect, test } from "bun:test";
import { splitWords } from "../../../lib/cli/words.ts";

test.each([
  ["press Enter --wait-text '$ '", ["press", "Enter", "--wait-text", "$ "]],
  [`type "say \\"hi\\" \\\\ \\$HOME"`, ["type", 'say "hi" \\ $HOME']],
  ["type a\\ b  c", ["type", "a b", "c"]],
  ["type 'it'\"'\"'s'", ["type", "it's"]],
  ["snapshot # trailing comment", ["snapshot"]],
  ["   # only a comment", []],
  ["type x#y", ["type", "x#y"]],
  ["type ''", ["type", ""]],
])("%p splits like a shell", (line, words) => {
  expect(splitWords(line, "line 1")).toEqual(words);
});

test.each([
  ["type 'open", "line 1: unterminated ' quote"],
  ['type "open', 'line 1: unterminated " quote'],
  ["type end\\", "line 1: a line cannot end with \\"],
])("%p is a usage error naming the line", (line, message) => {
  expect(() => splitWords(line, "line 1")).toThrow(message);
});
