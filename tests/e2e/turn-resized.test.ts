// A terminal resized while a CLI draws its answer: the CLI may count its rows at the old width and
// leave rows of its earlier frame in the answer (Gemini CLI narrowed while it streams), so
// `turn` says the answer read from the screen is not complete, naming the resize, and
// @X.response's evidence says the same. A turn drawn at one size stays complete. A stand-in CLI
// holds each answer back until the test lets it go, so the resize comes while it is drawn.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { walk, type OutlineNode } from "../../lib/outline/types.ts";
import { World } from "../helpers/harness.ts";
import { installStandInCli, standInManifest, standInScript } from "../helpers/stand-in-cli.ts";

const world = World.empty();
afterAll(async () => { await world[Symbol.asyncDispose](); });

const MANIFEST = standInManifest("sized", "a stand-in AI CLI that answers when told to", { busy: true });

// Raw keys; Enter: "working" until a line arrives on the FIFO named by argv[1], then the answer
// and its end line.
const CLI = standInScript(`    prompt, typed = typed, ""
    history = ["you: " + prompt]
    draw(["working"])
    os.read(fifo, 100)
    history += ["answer to " + prompt, "END"]
    draw()
`, { setup: "fifo = os.open(sys.argv[1], os.O_RDWR)\n" });

test("turn: an answer drawn while the terminal was resized is not complete and says why; @X.response's evidence agrees; one size stays complete", async () => {
  const { env, cli } = installStandInCli(world, "sized", MANIFEST, CLI);
  const fifo = join(world.dir, "answer.fifo");
  expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
  const tw = (args: string[]) => world.json(args, { env });
  const turnWith = async (prompt: string, meanwhile: () => Promise<unknown>) => {
    const turn = world.run(["--json", "turn", "--session", "rs", prompt, "--timeout", "30000"], { env });
    await tw(["wait", "--session", "rs", "--ref", "@sized.busy", "--timeout", "30000"]);
    await meanwhile();
    writeFileSync(fifo, "go\n");
    const ended = await turn;
    expect(ended.stderr).toBe("");
    return JSON.parse(ended.stdout);
  };
  await tw(["spawn", "--session", "rs", "--cols", "60", "--rows", "12", "--", cli, fifo]);
  await tw(["wait", "--session", "rs", "--ref", "@sized.input"]);

  const resized = await turnWith("hello", () => tw(["resize", "--session", "rs", "50", "10"]));
  expect(resized.turn.state).toBe("done");
  expect(resized.response).toMatchObject({ text: "answer to hello", complete: false });
  expect(resized.response.why).toContain("not complete, the terminal was resized while the answer was drawn (60x12 → 50x10); rows of the CLI's earlier frame may remain in it");
  const outline = (await tw(["snapshot", "--session", "rs", "--format", "outline"])).outline as { nodes: OutlineNode[] };
  const response = [...walk(outline.nodes)].find((node) => node.ref === "@sized.response");
  expect(response?.evidence?.find((e) => e.source === "turn")).toMatchObject({ complete: false, fact: expect.stringContaining("(60x12 → 50x10)") });

  const steady = await turnWith("again", async () => {});
  expect(steady.turn.state).toBe("done");
  expect(steady.response).toEqual({ text: "answer to again", complete: true });
}, 60_000);
