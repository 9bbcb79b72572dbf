// Replay keeps the evidence: the cast records the process facts the outline rests on (an
// integrated shell at its prompt, the foreground program), so a golden saved live with
// `snapshot --save --outline` from a shell session matches its own replay — the README's CI
// flow — and `replay --format outline --json` gives the nodes with their evidence.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { walk, type OutlineNode } from "../../lib/outline/types.ts";
import { useWorld } from "../helpers/harness.ts";

setDefaultTimeout(60_000);

const world = useWorld();

const byRef = (nodes: OutlineNode[]) => Object.fromEntries([...walk(nodes)].map((node) => [node.ref, node]));

test("snapshot --save --outline from a bash session replays to an identical outline; --format outline --json gives nodes with evidence", async () => {
  const { name } = await world.spawn([], ["--shell", "bash", "--cols", "60", "--rows", "10"]);
  await world.json(["exec", "--session", name, "--", "echo replayed-$((6*7))"]);
  await world.json(["type", "--session", name, "echo half-typed"]);
  await world.json(["wait", "--session", name, "--ref", "@shell.prompt", "--ref-value", "echo half-typed"]);
  const golden = join(world.dir, "prompt.snap");
  await world.json(["snapshot", "--session", name, "--save", golden, "--outline"]);
  expect(readFileSync(golden, "utf8")).toContain("@shell.prompt");
  await world.json(["mark", "--session", name, "saved"]);
  const live = (await world.json(["snapshot", "--session", name, "--format", "outline"])).outline;
  const cast = (await world.json(["get", "--session", name, "cast"])).value as string;

  // While vim runs in the shell, the foreground program shapes the outline, live and replayed.
  await world.json(["press", "--session", name, "C-u"]);
  await world.json(["type", "--session", name, "vim -u NONE -N\r"]);
  await world.json(["wait", "--session", name, "--ref", "@vim.mode"]);
  const vimGolden = join(world.dir, "vim.snap");
  await world.json(["snapshot", "--session", name, "--save", vimGolden, "--outline"]);
  await world.json(["mark", "--session", name, "in vim"]);
  await world.json(["type", "--session", name, ":q!\r"]);
  await world.json(["wait", "--session", name, "--ref", "@shell.prompt"]);
  await world.json(["kill", "--session", name]);

  const checked = await world.run(["replay", cast, "--at-marker", "saved", "--expect-snapshot", golden]);
  expect(checked.stdout + checked.stderr).toContain("matches");
  expect(checked.code).toBe(0);
  const inVim = await world.run(["replay", cast, "--at-marker", "in vim", "--expect-snapshot", vimGolden]);
  expect(inVim.stdout + inVim.stderr).toContain("matches");
  expect(inVim.code).toBe(0);

  const replayed = await world.json(["replay", cast, "--at-marker", "saved", "--format", "outline"]);
  expect(Array.isArray(replayed.outline.nodes)).toBe(true);
  expect(replayed.outline.adapter).toBe("shell");
  const prompt = byRef(replayed.outline.nodes)["@shell.prompt"]!;
  expect(prompt).toMatchObject({ role: "input", value: "echo half-typed" });
  expect(prompt.evidence?.[0]).toMatchObject({ source: "escape", sequence: "OSC 133;B" }); // the basis first
  expect(prompt.name).toBe(byRef(live.nodes)["@shell.prompt"]!.name);
  // The facts are no markers to the user: numbering and the marker list skip them.
  expect(replayed.markers).not.toContainEqual(expect.stringContaining("tuiwright:facts"));
  expect(replayed.stoppedAt.label).toBe("saved");
  expect(readFileSync(cast, "utf8")).toContain('"m", "tuiwright:facts {\\"shellPrompt\\":true');

  // The report lists and gives the player the user's markers only.
  const html = join(world.dir, "report.html");
  const report = await world.json(["report", cast, "-o", html]);
  expect(report.markers).toBe((await world.json(["replay", cast])).markers.length);
  const page = readFileSync(html, "utf8");
  expect(page).not.toContain("tuiwright:facts");
  expect(page).toContain(`markers: [[`);
  expect(page).toContain('"saved"]');
});

test("a malformed facts marker in a cast is a bad-cast error naming its line", async () => {
  const cast = join(world.dir, "bad-facts.cast");
  const header = JSON.stringify({ version: 3, term: { cols: 20, rows: 5 } });
  writeFileSync(cast, `${header}\n[0.1, "o", "hi"]\n[0.1, "m", "tuiwright:facts {\\"shellPrompt\\":\\"yes\\"}"]\n`);
  const result = await world.run(["replay", cast]);
  expect(result.code).toBe(65);
  expect(result.stderr).toContain("bad-facts.cast:3: a \"tuiwright:facts\" marker needs");
});
