// The article's demo: an outer Codex session is given a task; the scripted model answer makes
// Codex run tuiwright (a second daemon, its own socket) to start Pi in a nested session, wait
// for @pi.input, type the token question, wait for @pi.done and print @pi.response. The model
// server's next answer quotes what that command printed, so the token reaches the outer screen
// only if Pi really answered it. Skipped with the reason printed when Codex or Pi is missing.
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LONG, SCRIPT, skipReason, useAiClis } from "../../helpers/ai-clis.ts";
import { setupCli } from "../../model-server/cli-setup.ts";

const ai = useAiClis();

const demoReason = skipReason("codex") ?? skipReason("pi");
if (demoReason) console.log(`skipping the nested-agent demo: ${demoReason}`);
test.skipIf(demoReason !== null)("demo: Codex drives Pi in a nested tuiwright session and prints INNER_AGENT_OK", async () => {
  const { world, server } = ai;
  const pi = setupCli("pi", server.url, mkdtempSync(join(world.dir, "inner-pi-")));
  const innerSocket = join(world.dir, "inner.sock");
  const bin = join(import.meta.dir, "../../../dist/tuiwright");
  const piEnvFile = join(world.dir, "pi-env.sh");
  writeFileSync(piEnvFile, Object.entries(pi.env).map(([k, v]) => `export ${k}='${v}'\n`).join(""));
  const question = "Reply with the token formed by joining INNER, AGENT, and OK with _.";
  // The command sequence of the article, as a script Codex runs (a short command keeps the
  // approval screen whole on a 30-row terminal).
  const driver = join(world.dir, "drive-pi.sh");
  writeFileSync(driver, [
    "set -e",
    `export TUIWRIGHT_SOCKET='${innerSocket}' TUIWRIGHT_NS=inner T='${bin}'`,
    `cd '${pi.cwd}'`,
    `(. '${piEnvFile}' && "$T" spawn --session pi --cols 100 --rows 30 -- ${pi.argv.join(" ")} >/dev/null)`,
    `"$T" wait --ref '@pi.input[focused]' --timeout 120000 >/dev/null`,
    `"$T" type --session pi '${question}' >/dev/null`,
    `"$T" wait --ref '@pi.input[name~=/Reply with/]' >/dev/null`,
    `"$T" press --session pi Enter >/dev/null`,
    `"$T" wait --ref '@pi.done' --timeout 120000 >/dev/null`,
    `"$T" snapshot --session pi --select '@pi.response' --format outline --plain`,
    `"$T" daemon stop >/dev/null`,
    "",
  ].join("\n"));
  const cmd = `bash '${driver}'`;
  server.setScript({
    ...SCRIPT,
    rules: [
      { match: "ask the pi agent", turns: [
        [{ text: "I'll start Pi in a nested tuiwright session." }, { tool: { name: "exec_command", input: { cmd, sandbox_permissions: "require_escalated", justification: "Drive Pi through tuiwright?", yield_time_ms: 30000 } } }],
        [{ fromToolOutput: "INNER_[A-Z_]+", prefix: "Pi answered: " }],
      ] },
      ...SCRIPT.rules,
    ],
  });
  try {
    const name = "outer-codex";
    const setup = await ai.start("codex", name);
    await ai.prompt("codex", name, setup, "ask the pi agent for the inner token");
    await ai.approve("codex", name, setup);
    const done = await ai.tw(["wait", "--session", name, "--ref", "@codex.done[name~=/Pi answered/]", "--timeout", String(LONG)], setup);
    expect(done.fired ?? done).toBeTruthy();
    const response = await ai.node(name, "@codex.response", setup);
    expect(response?.value).toBe("Pi answered: INNER_AGENT_OK");
    expect(server.log.some((e) => e.api === "chat" && /joining INNER, AGENT, and OK/.test(e.prompt))).toBe(true); // Pi asked the model
    const screen = await ai.tw(["snapshot", "--session", name], setup);
    expect(screen.text).toContain("Pi answered: INNER_AGENT_OK");
    await ai.tw(["kill", "--session", name], setup);
  } finally {
    server.setScript(SCRIPT);
  }
}, LONG * 3);
