// The real opencode CLI (installed by scripts/install-ai-clis.sh) against the scripted model server
// on 127.0.0.1, offline: its manifest, a tool call with its effect on disk, and `ask --via opencode`.
// Skipped with the reason printed when it is not installed. (The steps: tests/helpers/ai-clis.ts.)
import { expect, test } from "bun:test";
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
