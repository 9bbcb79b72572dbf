// `ask` refuses what is no answer: a CLI that is not logged in (its own words are not the
// answer), an empty answer, no answer within the timeout (there is a default). Against the
// real CLIs (skipped with the reason when one is not installed) and the model server.
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { aiClisBin, setupCli } from "../../model-server/cli-setup.ts";
import { LONG, SCRIPT, skipReason, useAiClis } from "../../helpers/ai-clis.ts";

const ai = useAiClis();

// Claude, Gemini CLI and Pi say so when they have no credentials (an empty HOME).
for (const [cli, says] of [["claude", /claude is not logged in: it said "Not logged in/], ["gemini", /gemini is not logged in: it said "Please set an Auth method/], ["pi", /pi is not logged in: it said "No API key found/]] as const) {
  test.skipIf(skipReason(cli) !== null)(`ask --via ${cli} not logged in: exit 77 with the CLI's words, not an answer`, async () => {
    const home = mkdtempSync(join(ai.world.dir, `${cli}-nologin-`));
    mkdirSync(join(home, "work"));
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), PATH: `${aiClisBin()}:${process.env.PATH}`, NO_UPDATE_NOTIFIER: "1" };
    const result = await ai.world.run(["--json", "ask", "--via", cli, "--timeout", "60000", "say pong"], { env, cwd: join(home, "work") });
    expect(result.code).toBe(77);
    const error = JSON.parse(result.stdout).error;
    expect(error.message).toMatch(says);
    expect(error.message).toContain("that is no answer");
    expect(error.data).toMatchObject({ name: "permission", hint: expect.stringMatching(/log|KEY|auth/i) });
  }, LONG);
}

test.skipIf(skipReason("pi") !== null)("ask: an answer that is empty (exit 0, no text) is refused with exit 1", async () => {
  ai.server.setScript({ ...SCRIPT, rules: [{ match: "say nothing", turns: [[{ text: "" }]] }, ...SCRIPT.rules] });
  try {
    const setup = setupCli("pi", ai.server.url, mkdtempSync(join(ai.world.dir, "pi-empty-")));
    const result = await ai.world.run(["--json", "ask", "--via", "pi", "say nothing"], { env: setup.env, cwd: setup.cwd });
    expect({ code: result.code, message: JSON.parse(result.stdout).error?.message }).toEqual({ code: 1, message: "pi exited 0 but printed no answer" });
  } finally {
    ai.server.setScript(SCRIPT);
  }
}, LONG);

test.skipIf(skipReason("pi") !== null)("ask: no answer within --timeout exits 124 naming the time; the default timeout is stated in help", async () => {
  const setup = setupCli("pi", ai.server.url, mkdtempSync(join(ai.world.dir, "pi-stall-")));
  const result = await ai.world.run(["--json", "ask", "--via", "pi", "--timeout", "5000", "stall now"], { env: setup.env, cwd: setup.cwd });
  expect(result.code).toBe(124);
  expect(JSON.parse(result.stdout).error.message).toBe("pi gave no answer within 5000 ms");
  const help = await ai.world.run(["help", "ask"]);
  expect(help.stdout).toContain("default 300000, 0: no limit");
}, LONG);
