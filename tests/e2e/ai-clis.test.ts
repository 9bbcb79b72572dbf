// The real AI coding CLIs (installed by scripts/install-ai-clis.sh) against the scripted model
// server on 127.0.0.1, offline: each one's manifest (@X.input, @X.response, busy/done,
// approval), a tool call with its effect on disk, and `ask` over its non-interactive mode.
// A CLI that is not installed is skipped with the reason printed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
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
  await tw(["press", "--session", name, "Enter"], setup);
}

/** Which CLIs ask before running a command (Pi runs tools without asking, by design). */
const ASKS_APPROVAL: Record<string, boolean> = { pi: false, codex: true };

/** Approve through the @X.approval item: the option says which key chooses it, e.g. "1. Yes, proceed (y)". */
async function approve(cli: AiCli, name: string, setup: CliSetup): Promise<string> {
  await tw(["wait", "--session", name, "--ref", `@${cli}.approval`, "--timeout", String(LONG)], setup);
  const dialog = await node(name, `@${cli}.approval`, setup);
  const options = dialog?.children ?? [];
  expect(options.length).toBeGreaterThanOrEqual(2);
  const yes = options.find((o) => /^1\. Yes\b/.test(o.name));
  const key = /\((\w+)\)$/.exec(yes?.name ?? "")?.[1];
  if (!yes || !key) throw new Error(`no approve option with a key among ${JSON.stringify(options.map((o) => o.name))}`);
  await tw(["press", "--session", name, key], setup);
  await tw(["wait", "--session", name, "--ref", `@${cli}.approval`, "--gone"], setup);
  return yes.name;
}

for (const cli of ["pi", "codex"] as AiCli[]) {
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
        expect(await approve(cli, name, setup)).toStartWith("1. Yes");
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
