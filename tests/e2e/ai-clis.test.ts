// The real AI coding CLIs (installed by scripts/install-ai-clis.sh) against the scripted model
// server on 127.0.0.1, offline: each one's manifest (@X.input, @X.response, busy/done,
// approval), a tool call with its effect on disk, and `ask` over its non-interactive mode.
// A CLI that is not installed is skipped with the reason printed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";
import { type AiCli, aiClisBin, installed, setupCli, type CliSetup } from "../model-server/cli-setup.ts";
import type { Script } from "../model-server/script.ts";
import { type ModelServer, startModelServer } from "../model-server/server.ts";

const SCRIPT: Script = {
  delayMs: 20,
  rules: [
    { match: "INNER.*AGENT.*OK", turns: [[{ text: "INNER_AGENT_OK" }]] },
    { match: "say pong", turns: [[{ text: "pong: the answer streamed in small chunks, done." }]] },
    { match: "make the file", turns: [[{ run: "echo tool-ran > made-by-tool.txt" }], [{ text: "Created made-by-tool.txt for you." }]] },
  ],
};

let world: World;
let server: ModelServer;
beforeAll(async () => {
  world = await World.start();
  server = startModelServer({ script: SCRIPT });
});
afterAll(async () => {
  await server?.stop();
  await world?.[Symbol.asyncDispose]();
});

const LONG = 120_000; // a CLI's first start (module loading) on a loaded 2-core machine

async function tw(args: string[], setup: CliSetup): Promise<any> {
  const result = await world.run(["--json", ...args], { env: setup.env, cwd: setup.cwd });
  if (result.code !== 0) throw new Error(`tuiwright ${args.join(" ")} exited ${result.code}: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout);
}

type Node = { ref: string; name: string; value?: string; focused?: boolean; children?: Node[] };
async function node(session: string, ref: string, setup: CliSetup): Promise<Node | undefined> {
  const snap = await tw(["snapshot", "--session", session, "--format", "outline", "--select", ref], setup);
  return snap.outline.nodes[0];
}

const skipReason = (cli: AiCli) => (installed(cli) ? null : `${cli} is not installed in ${aiClisBin()} (run scripts/install-ai-clis.sh)`);

/** Start the CLI in a fresh home and wait until its prompt takes input. */
async function start(cli: AiCli, name: string): Promise<CliSetup> {
  const setup = setupCli(cli, server.url, mkdtempSync(join(world.dir, `${cli}-`)));
  await tw(["spawn", "--session", name, "--cols", "100", "--rows", "30", "--", ...setup.argv], setup);
  await tw(["wait", "--session", name, "--ref", `@${cli}.input[focused]`, "--timeout", String(LONG)], setup);
  return setup;
}

async function prompt(cli: AiCli, name: string, setup: CliSetup, text: string): Promise<void> {
  await tw(["type", "--session", name, text], setup);
  await tw(["wait", "--session", name, "--ref", `@${cli}.input[name~=/${text.split(" ")[0]}/]`], setup);
  // Codex and Gemini CLI take keys that arrive in a burst for a paste, where Enter inserts a
  // newline instead of sending: let the screen be still for a moment after the typing first.
  await tw(["wait", "--session", name, "--settled", "150"], setup);
  await tw(["press", "--session", name, "Enter"], setup);
}

/** Which CLIs ask before running a command (Pi runs tools without asking, by design). */
const ASKS_APPROVAL: Record<string, boolean> = { pi: false, codex: true, claude: true, opencode: true, gemini: true };

/** Approve through the @X.approval item: the option says which key chooses it, e.g. "1. Yes, proceed (y)",
 * or its number ("1. Yes" in Claude Code, where the digit picks the option). */
async function approve(cli: AiCli, name: string, setup: CliSetup): Promise<string> {
  await tw(["wait", "--session", name, "--ref", `@${cli}.approval`, "--timeout", String(LONG)], setup);
  const dialog = await node(name, `@${cli}.approval`, setup);
  const options = dialog?.children ?? [];
  expect(options.length).toBeGreaterThanOrEqual(2);
  const yes = options.find((o) => /^(1\. Yes\b|1\. Allow once$|Allow once$)/.test(o.name));
  // The key the option names, its digit, or Enter when it is the highlighted button (opencode).
  const key = /\((\w+)\)$/.exec(yes?.name ?? "")?.[1] ?? /^(\d)\./.exec(yes?.name ?? "")?.[1] ?? ((yes as { selected?: boolean } | undefined)?.selected ? "Enter" : undefined);
  if (!yes || !key) throw new Error(`no approve option with a key among ${JSON.stringify(options.map((o) => o.name))}`);
  expect((yes as { selected?: boolean }).selected).toBe(true); // each CLI highlights its first option
  // Claude Code ignores keys for a moment after it shows the dialog (a guard against typing
  // ahead into an approval), with nothing on screen marking the end of it: press again while
  // the dialog stays. Each round waits on the screen (the dialog gone), not on a clock.
  for (let round = 1; ; round++) {
    await tw(["press", "--session", name, key], setup);
    const gone = await world.run(["--json", "wait", "--session", name, "--ref", `@${cli}.approval`, "--gone", "--timeout", "2000"], { env: setup.env, cwd: setup.cwd });
    if (gone.code === 0) break;
    if (gone.code !== 124 || round === 10) throw new Error(`the approval dialog stayed after ${round} presses of ${key}: ${gone.stdout}`);
  }
  return yes.name;
}

for (const cli of ["pi", "codex", "claude", "opencode", "gemini"] as AiCli[]) {
  const reason = skipReason(cli);
  if (reason) console.log(`skipping ${cli}: ${reason}`);
  describe.skipIf(reason !== null)(cli, () => {
    test(`${cli}: input focused, a streamed answer, @${cli}.done, the answer read from @${cli}.response`, async () => {
      const name = `${cli}-chat`;
      const setup = await start(cli, name);
      await prompt(cli, name, setup, "say pong please");
      await tw(["wait", "--session", name, "--ref", `@${cli}.done[name~=/done\\./]`, "--timeout", String(LONG)], setup);
      const response = await node(name, `@${cli}.response`, setup);
      expect(response?.value).toBe("pong: the answer streamed in small chunks, done.");
      expect(server.log.some((e) => e.prompt.includes("say pong please"))).toBe(true);
      expect((await node(name, `@${cli}.input`, setup))?.focused).toBe(true);
      await tw(["kill", "--session", name], setup);
    }, LONG * 2);

    test(`${cli}: a scripted tool call runs a command${ASKS_APPROVAL[cli] ? " after approval through @" + cli + ".approval" : ""}; its effect is on disk`, async () => {
      const name = `${cli}-tool`;
      const setup = await start(cli, name);
      await prompt(cli, name, setup, "make the file");
      if (ASKS_APPROVAL[cli]) {
        expect(await approve(cli, name, setup)).toMatch(/^(1\. Yes|1\. Allow once|Allow once)/);
      }
      await tw(["wait", "--session", name, "--ref", `@${cli}.done[name~=/Created made-by-tool/]`, "--timeout", String(LONG)], setup);
      expect(readFileSync(join(setup.cwd, "made-by-tool.txt"), "utf8")).toBe("tool-ran\n");
      await tw(["kill", "--session", name], setup);
    }, LONG * 2);

    test(`ask --via ${cli}`, async () => {
      const setup = setupCli(cli, server.url, mkdtempSync(join(world.dir, `${cli}-ask-`)));
      const result = await tw(["ask", "--via", cli, "say pong now"], setup);
      expect(result).toMatchObject({ via: cli, exitCode: 0, text: "pong: the answer streamed in small chunks, done." });
      expect(result.elapsedMs).toBeGreaterThan(0);
      expect(existsSync(setup.cwd)).toBe(true);
    }, LONG);
  });
}

// A file-change pane: Claude Code's Write approval shows the file and its new lines.
test.skipIf(skipReason("claude") !== null)("claude: a file write shows @claude.changes (path and lines); approving writes the file", async () => {
  const name = "claude-write";
  const setup = await start("claude", name);
  const file = join(setup.cwd, "note.txt");
  server.setScript({ ...SCRIPT, rules: [{ match: "write the note", turns: [[{ write: { path: file, content: "hello from the model\nsecond line\n" } }], [{ text: "Wrote note.txt for you." }]] }, ...SCRIPT.rules] });
  try {
    await prompt("claude", name, setup, "write the note");
    await tw(["wait", "--session", name, "--ref", "@claude.changes", "--timeout", String(LONG)], setup);
    const changes = await node(name, "@claude.changes", setup);
    expect(changes?.value).toBe("note.txt");
    expect(changes?.children?.map((line) => line.name)).toEqual(["1 hello from the model", "2 second line"]);
    expect(existsSync(file)).toBe(false); // not before the approval
    await approve("claude", name, setup);
    await tw(["wait", "--session", name, "--ref", "@claude.done[name~=/Wrote note/]", "--timeout", String(LONG)], setup);
    expect(readFileSync(file, "utf8")).toBe("hello from the model\nsecond line\n");
    await tw(["kill", "--session", name], setup);
  } finally {
    server.setScript(SCRIPT);
  }
}, LONG * 2);

// The article's demo: an outer Codex session is given a task; the scripted model answer makes
// Codex run tuiwright (a second daemon, its own socket) to start Pi in a nested session, wait
// for @pi.input, type the token question, wait for @pi.done and print @pi.response. The model
// server's next answer quotes what that command printed, so the token reaches the outer screen
// only if Pi really answered it.
const demoReason = skipReason("codex") ?? skipReason("pi");
if (demoReason) console.log(`skipping the nested-agent demo: ${demoReason}`);
test.skipIf(demoReason !== null)("demo: Codex drives Pi in a nested tuiwright session and prints INNER_AGENT_OK", async () => {
  const pi = setupCli("pi", server.url, mkdtempSync(join(world.dir, "inner-pi-")));
  const innerSocket = join(world.dir, "inner.sock");
  const bin = join(import.meta.dir, "../../dist/tuiwright");
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
    const setup = await start("codex", name);
    await prompt("codex", name, setup, "ask the pi agent for the inner token");
    await approve("codex", name, setup);
    const done = await tw(["wait", "--session", name, "--ref", "@codex.done[name~=/Pi answered/]", "--timeout", String(LONG)], setup);
    expect(done.fired ?? done).toBeTruthy();
    const response = await node(name, "@codex.response", setup);
    expect(response?.value).toBe("Pi answered: INNER_AGENT_OK");
    expect(server.log.some((e) => e.api === "chat" && /joining INNER, AGENT, and OK/.test(e.prompt))).toBe(true); // Pi asked the model
    const screen = await tw(["snapshot", "--session", name], setup);
    expect(screen.text).toContain("Pi answered: INNER_AGENT_OK");
    await tw(["kill", "--session", name], setup);
  } finally {
    server.setScript(SCRIPT);
  }
}, LONG * 3);

// The recorded casts keep the manifests honest without the CLIs: each state's outline.
const RECORDED: [string, string, number][] = [
  ["pi", "pi-states.cast", 5], ["pi", "pi-states.cast", 6], ["pi", "pi-states.cast", 7],
  ["codex", "codex-states.cast", 6], ["codex", "codex-states.cast", 7], ["codex", "codex-states.cast", 11], ["codex", "codex-states.cast", 12],
  // Markers: 2 input focused, 7 busy, 8 done, 14 approval, 16 done after the tool call.
  ...(["claude", "gemini", "opencode"] as const).flatMap((cli) => [2, 7, 8, 14, 16].map((m): [string, string, number] => [cli, `${cli}-states.cast`, m])),
];
for (const [cli, cast, marker] of [...RECORDED, ["claude", "claude-write.cast", 0] as [string, string, number]]) {
  // Marker 0: the end of the recording (claude-write.cast ends on the file-change approval).
  test(`adapter test: adapters/${cli}.toml on ${cast}${marker ? ` at marker ${marker}` : ""}`, async () => {
    const data = join(import.meta.dir, "../testdata/ai-clis");
    const expected = join(data, marker ? `${cli}-m${marker}.outline` : cast.replace(/\.cast$/, ".outline"));
    const result = await world.run(["adapter", "test", join(import.meta.dir, `../../adapters/${cli}.toml`), "--cast", join(data, cast), ...(marker ? ["--at-marker", String(marker)] : []), "--expect-outline", expected]);
    expect(result.stderr + result.stdout).not.toContain("differs");
    expect(result.code).toBe(0);
  });
}
