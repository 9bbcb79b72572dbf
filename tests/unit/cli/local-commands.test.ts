// The local commands (not one daemon call) are found by the words that name them, one or two.
import { expect, test } from "bun:test";
import { findLocalCommand, LOCAL_COMMANDS } from "../../../lib/cli/local-commands.ts";

const found = (words: string[]) => {
  const hit = findLocalCommand(words);
  return hit ? [hit.command.name, hit.width] : null;
};

test("each local command is found by its own words, with what follows left over", () => {
  for (const { name } of LOCAL_COMMANDS) {
    const words = name.split(" ");
    expect(found([...words, "x", "--flag"])).toEqual([name, words.length]);
    expect(found(words)).toEqual([name, words.length]);
  }
});

test("a word that only starts or contains a name, or the first of two words alone, finds nothing", () => {
  expect(found(["replays"])).toBeNull();
  expect(found(["repla"])).toBeNull();
  expect(found(["adapter"])).toBeNull();
  expect(found(["adapter", "tests"])).toBeNull();
  expect(found(["desktop", "new"])).toBeNull();
  expect(found(["snapshot"])).toBeNull();
  expect(found(["test", "adapter"])).toBeNull();
  expect(found([])).toBeNull();
  expect(found(["adapter test"])).toBeNull();
});
