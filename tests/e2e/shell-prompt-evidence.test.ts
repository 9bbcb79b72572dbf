// `@shell.prompt` only with evidence: an integrated shell's OSC 133;B (its primary prompt is
// drawn and no command started since), cited on the node. A shell running `read` or `select`
// is not at its prompt, though it owns the terminal; a shell without integration gives no
// sound sign either way, so it gets no prompt node at all.
import { expect, setDefaultTimeout, test } from "bun:test";
import { walk, type OutlineNode } from "../../lib/outline/types.ts";
import { useWorld } from "../helpers/harness.ts";

setDefaultTimeout(60_000);

const world = useWorld();

async function outline(name: string): Promise<{ revision: number; byRef: Record<string, OutlineNode> }> {
  const snap = await world.json(["snapshot", "--session", name, "--format", "outline"]);
  const byRef: Record<string, OutlineNode> = {};
  for (const node of walk(snap.outline.nodes)) byRef[node.ref] = node;
  return { revision: snap.revision, byRef };
}

const BUILTIN_QUESTIONS = [
  ['read -p "Delete all files? [y/N] " answer', "Delete all files? [y/N]", "n\r"],
  ["select choice in keep delete; do break; done", "#?", "1\r"],
] as const;

test("bash --norc running read -p or select: no @shell.prompt (the shell owns the terminal but waits for an answer, not a command)", async () => {
  const { name } = await world.spawn(["bash", "--norc", "--noprofile"], ["--cols", "60", "--rows", "8"]);
  await world.json(["wait", "--session", name, "--regex", "/[$#]$/"]);
  for (const [command, question, answer] of BUILTIN_QUESTIONS) {
    await world.json(["type", "--session", name, `${command}\r`, "--wait-text", question]);
    const o = await outline(name);
    expect({ command, prompt: o.byRef["@shell.prompt"] }).toEqual({ command, prompt: undefined });
    await world.json(["type", "--session", name, answer]);
  }
  await world.json(["kill", "--session", name]);
});

for (const shell of ["bash", "zsh"]) {
  test(`${shell} with integration: @shell.prompt cites OSC 133;B at the prompt, and is absent while read or select waits`, async () => {
    const { name } = await world.spawn([], ["--shell", shell, "--cols", "60", "--rows", "8"]);
    await world.json(["wait", "--session", name, "--ref", "@shell.prompt"]);
    let o = await outline(name);
    expect(o.byRef["@shell.prompt"]!.value).toBe("");
    // The basis first (the shell's own mark), then where the manifest found the row and its value.
    const [basis, ...rest] = o.byRef["@shell.prompt"]!.evidence!;
    expect(basis).toEqual({ source: "escape", sequence: "OSC 133;B", revision: o.revision });
    expect(rest.map((e: { source: string }) => e.source)).toEqual(rest.map(() => "manifest"));
    for (const [command, bashQuestion, answer] of BUILTIN_QUESTIONS) {
      if (shell === "zsh" && command.startsWith("read -p")) continue; // zsh's read -p reads from a coprocess
      const question = shell === "zsh" && bashQuestion === "#?" ? "?#" : bashQuestion; // zsh's PS3
      const started = await world.json(["exec", "--session", name, "--interactive", "--", command]);
      await world.json(["wait", "--session", name, "--output", question, "--from-cursor", String(started.cursor)]);
      o = await outline(name);
      expect({ command, prompt: o.byRef["@shell.prompt"] }).toEqual({ command, prompt: undefined });
      await world.json(["send", "--session", name, answer]);
      await world.json(["wait", "--session", name, "--output", "EOF", "--from-cursor", String(started.cursor)]);
      o = await outline(name);
      expect(o.byRef["@shell.prompt"]?.evidence?.[0]).toMatchObject({ source: "escape", sequence: "OSC 133;B" });
    }
    await world.json(["kill", "--session", name]);
  });
}
