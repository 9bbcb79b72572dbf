// The real opencode CLI (installed by scripts/install-ai-clis.sh) against the scripted model server
// on 127.0.0.1, offline: its manifest, a tool call with its effect on disk, and `ask --via opencode`.
// Skipped with the reason printed when it is not installed. (The steps: tests/helpers/ai-clis.ts.)
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cliTests, longAnswerTests, widthTests, endTests, turnTests, useAiClis, LONG, skipReason } from "../../helpers/ai-clis.ts";

const ai = useAiClis();
cliTests(ai, "opencode");
turnTests(ai, "opencode");
longAnswerTests(ai, "opencode");
widthTests(ai, "opencode");
endTests(ai, "opencode");

// One Esc in opencode only arms the interrupt ("esc again to interrupt") while the answer goes
// on: the turn is still running and @opencode.busy says so; it is not idle.
test.skipIf(skipReason("opencode") !== null)("opencode: after one Esc the turn is still running, @opencode.busy says esc again", async () => {
  const name = "opencode-esc";
  const setup = await ai.start("opencode", name);
  try {
    await ai.tw(["type", "--session", name, "stall now"], setup);
    await ai.tw(["wait", "--session", name, "--settled", "150"], setup);
    const pressed = await ai.tw(["press", "--session", name, "Enter", "--wait-turn", "last", "--turn-state", "running", "--timeout", String(LONG)], setup);
    await ai.tw(["wait", "--session", name, "--ref", "@opencode.response", "--ref-value", "/starting to answer/", "--timeout", String(LONG)], setup);
    await ai.tw(["press", "--session", name, "Escape"], setup);
    const armed = await ai.tw(["wait", "--session", name, "--ref", "@opencode.busy[name~=/esc again/]", "--timeout", String(LONG)], setup);
    expect(armed.fired).toEqual(["ref @opencode.busy[name~=/esc again/]"]);
    const turn = await ai.tw(["wait", "--session", name, "--turn", String(pressed.wait.turn.id), "--turn-state", "running", "--timeout", "5000"], setup);
    expect(turn.turn.state).toBe("running");
  } finally {
    await ai.tw(["kill", "--session", name], setup);
  }
}, LONG * 2);

// "Allow always" opens a second panel, "△ Always allow" with "Confirm  Cancel", whose button row
// holds the cursor: it is an approval like the first (its buttons the options), never the
// input's value "Confirm Cancel …" (read so, the turn looked running and waited forever).
test.skipIf(skipReason("opencode") !== null)("opencode: \"Allow always\" asks again; the second panel is @opencode.approval with Confirm and Cancel, never the input; confirmed, the command runs and the turn ends done", async () => {
  const name = "opencode-always";
  const setup = await ai.start("opencode", name);
  try {
    const asked = await ai.tw(["turn", "--session", name, "make a file always", "--timeout", String(LONG)], setup);
    expect(asked.turn).toMatchObject({ state: "approval", ref: "@opencode.approval" });
    expect(asked.choices.map((c: { name: string }) => c.name)).toEqual(["Allow once", "Allow always", "Reject"]);
    // From here until the turn ends, the panel's buttons must never read as the input.
    const misread = "@opencode.input[name~=/Confirm|Cancel/]";
    const watch = ai.tw(["wait", "--session", name, "--ref", misread, "--turn", String(asked.turn.id), "--turn-state", "done,error,interrupted,denied", "--timeout", String(LONG)], setup);
    await ai.tw(["press", "--session", name, "Right", "--wait-ref", "@opencode.approval > [selected][name~=/^Allow always$/]"], setup);
    await ai.tw(["press", "--session", name, "Enter", "--wait-ref", "@opencode.approval > [selected][name~=/^Confirm$/]", "--timeout", String(LONG)], setup);
    const again = await ai.tw(["wait", "--session", name, "--turn", String(asked.turn.id), "--timeout", String(LONG)], setup);
    expect(again.turn).toMatchObject({ state: "approval", ref: "@opencode.approval" });
    const dialog = await ai.node(name, "@opencode.approval", setup) as any;
    expect(dialog.name).toMatch(/^△ Always allow\b/);
    expect(dialog.name).toContain("- echo *");
    expect(dialog.children.map((c: any) => [c.name, c.selected === true])).toEqual([["Confirm", true], ["Cancel", false]]);
    expect(dialog.evidence.some((e: any) => e.source === "manifest" && e.adapter === "opencode")).toBe(true);
    const outline = await ai.tw(["snapshot", "--session", name, "--format", "outline"], setup);
    expect(JSON.stringify(outline.outline.nodes)).not.toContain('"ref":"@opencode.input"'); // the panel has the keys
    await ai.choose(name, setup, "Enter", "@opencode.approval"); // Confirm, the highlighted one
    const ended = await ai.tw(["wait", "--session", name, "--turn", String(asked.turn.id), "--turn-state", "done,error,interrupted,denied", "--timeout", String(LONG)], setup);
    expect(ended.turn.state).toBe("done");
    expect((await ai.node(name, "@opencode.response", setup))?.value).toBe("Made always.txt for you.");
    expect(readFileSync(join(setup.cwd, "always.txt"), "utf8")).toBe("always\n");
    const watched = await watch;
    expect(watched.fired).toHaveLength(1);
    expect(watched.fired[0]).toMatch(/^turn /);
  } finally {
    await ai.tw(["kill", "--session", name], setup);
  }
}, LONG * 2);
