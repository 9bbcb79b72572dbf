// The real Claude Code (installed by scripts/install-ai-clis.sh) against the scripted model
// server on 127.0.0.1, offline: its manifest, a tool call after approval, `ask --via claude`,
// and the file-change pane of a Write approval. Skipped with the reason printed when it is not
// installed. (The steps: tests/helpers/ai-clis.ts.)
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliTests, longAnswerTests, tableAndListTests, widthTests, LONG, SCRIPT, skipReason, endTests, turnTests, useAiClis } from "../../helpers/ai-clis.ts";

const ai = useAiClis();
cliTests(ai, "claude");
turnTests(ai, "claude");
longAnswerTests(ai, "claude");
widthTests(ai, "claude");
tableAndListTests(ai, "claude");
endTests(ai, "claude");

// A file-change pane: Claude Code's Write approval shows the file and its new lines.
test.skipIf(skipReason("claude") !== null)("claude: a file write shows @claude.changes (path and lines); approving writes the file", async () => {
  const name = "claude-write";
  const setup = await ai.start("claude", name);
  const file = join(setup.cwd, "note.txt");
  ai.server.setScript({ ...SCRIPT, rules: [{ match: "write the note", turns: [[{ write: { path: file, content: "hello from the model\nsecond line\n" } }], [{ text: "Wrote note.txt for you." }]] }, ...SCRIPT.rules] });
  try {
    await ai.prompt("claude", name, setup, "write the note");
    await ai.tw(["wait", "--session", name, "--ref", "@claude.changes", "--timeout", String(LONG)], setup);
    const changes = await ai.node(name, "@claude.changes", setup);
    expect(changes?.value).toBe("note.txt");
    expect(changes?.children?.map((line) => line.name)).toEqual(["1 hello from the model", "2 second line"]);
    expect(existsSync(file)).toBe(false); // not before the approval
    await ai.approve("claude", name, setup);
    await ai.tw(["wait", "--session", name, "--ref", "@claude.done[name~=/Wrote note/]", "--timeout", String(LONG)], setup);
    expect(readFileSync(file, "utf8")).toBe("hello from the model\nsecond line\n");
    await ai.tw(["kill", "--session", name], setup);
  } finally {
    ai.server.setScript(SCRIPT);
  }
}, LONG * 2);
