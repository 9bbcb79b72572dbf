// The corpus replay takes the process facts a cast recorded as `tuiwright replay` does: an
// integrated shell at its prompt gets @shell.prompt with the OSC 133;B evidence, the same nodes
// the product's replay gives at that marker; without recorded facts the prompt is absent.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { walk, type OutlineNode } from "../../lib/outline/types.ts";
import { replayStates } from "./replay-states.ts";

const dir = mkdtempSync(join(tmpdir(), "truth-facts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const facts = (shellPrompt: boolean | null, foreground: string[] | null) => `tuiwright:facts ${JSON.stringify({ shellPrompt, foreground })}`;
const CAST = join(dir, "shell.cast");
writeFileSync(CAST, [
  JSON.stringify({ version: 3, term: { cols: 40, rows: 5 }, command: "bash" }),
  JSON.stringify([0.1, "o", "done\r\nuser@host:~$ "]),
  JSON.stringify([0.1, "m", "truth:no-facts"]),
  JSON.stringify([0.0, "m", facts(true, null)]),
  JSON.stringify([0.1, "m", "truth:at-prompt"]),
  JSON.stringify([0.1, "o", "sleep 9\r\n"]),
  JSON.stringify([0.0, "m", facts(false, ["sleep", "9"])]),
  JSON.stringify([0.1, "m", "truth:running"]),
  "",
].join("\n"));

const prompt = (nodes: OutlineNode[]) => [...walk(nodes)].find((n) => n.ref === "@shell.prompt");

test("recorded facts apply from their marker on, as in `tuiwright replay`, and give the same nodes", async () => {
  const seen: Record<string, OutlineNode[]> = {};
  const revisions: Record<string, number> = {};
  await replayStates(CAST, ({ marker, nodes, screen }) => {
    seen[marker] = nodes;
    revisions[marker] = screen.revision;
  });
  expect(Object.keys(seen)).toEqual(["no-facts", "at-prompt", "running"]);
  expect(prompt(seen["no-facts"]!)).toBeUndefined();
  const atPrompt = prompt(seen["at-prompt"]!);
  expect(atPrompt).toMatchObject({ role: "input", value: "" });
  expect(atPrompt!.evidence![0]).toEqual({ source: "escape", sequence: "OSC 133;B", revision: revisions["at-prompt"]! });
  expect(prompt(seen.running!)).toBeUndefined();

  const product = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../main.ts"), "replay", CAST, "--at-marker", "truth:at-prompt", "--format", "outline", "--json"], { env: { ...process.env, NO_COLOR: "1" } });
  expect(product.stderr.toString()).toBe("");
  const replayed = JSON.parse(product.stdout.toString());
  expect(replayed.outline.nodes).toEqual(JSON.parse(JSON.stringify(seen["at-prompt"])));
});
