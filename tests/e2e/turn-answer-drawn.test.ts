// A CLI that draws its end-of-turn line a frame before the answer's text (opencode does, under
// load: the "▣ Build · 3.8s" line over an empty answer, the text 160 ms later): `turn` answers
// with the text, not with "no answer". A stand-in CLI holds the answer back until the test
// lets it go, so the order is certain.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";
import { installStandInCli, standInManifest, standInScript } from "../helpers/stand-in-cli.ts";

const world = World.empty();
afterAll(async () => { await world[Symbol.asyncDispose](); });

const MANIFEST = standInManifest("endfirst", "a stand-in AI CLI that draws its end line before its answer", { endLine: "END · [^\\n]*", busy: true });

// Raw keys; Enter: "working", then the end line over an empty answer, with a clock ticking
// below (as opencode's footer changes) until a line arrives on the FIFO named by argv[1]; then
// the answer. The prompt "nothing" gets an empty answer and no clock.
const CLI = standInScript(`    prompt, typed = typed, ""
    history += ["you: " + prompt]
    draw(["working"])
    history += ["", "END · 1.0s"]
    draw()
    if prompt == "nothing":
        continue
    tick = 0
    while not select.select([fifo], [], [], 0.1)[0]:
        tick += 1
        draw(["clock %d" % tick])
    os.read(fifo, 100)
    history[-2] = "answer to " + prompt
    draw()
`, { imports: ["select"], setup: "fifo = os.open(sys.argv[1], os.O_RDWR)  # read-write: select waits for data, never sees EOF\n" });

test("turn answers with the text a CLI draws after its end line, and an empty answer once the screen stays still", async () => {
  const { env, cli } = installStandInCli(world, "endfirst", MANIFEST, CLI);
  const fifo = join(world.dir, "answer.fifo");
  expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
  const tw = (args: string[]) => world.json(args, { env });
  await tw(["spawn", "--session", "ef", "--cols", "60", "--rows", "12", "--", cli, fifo]);
  await tw(["wait", "--session", "ef", "--ref", "@endfirst.input"]);
  const turn = world.run(["--json", "turn", "--session", "ef", "hello", "--timeout", "30000"], { env });
  // The end line is on screen over an empty answer; only then is the answer let go.
  await tw(["wait", "--session", "ef", "--text", "END · 1.0s", "--timeout", "30000"]);
  writeFileSync(fifo, "go\n");
  const ended = await turn;
  expect(ended.stderr).toBe("");
  const result = JSON.parse(ended.stdout);
  expect(result.turn.state).toBe("done");
  expect(result.response).toEqual({ text: "answer to hello", complete: true });
  // A CLI that answers nothing: done with no response, once the screen has stayed still.
  const empty = await tw(["turn", "--session", "ef", "nothing", "--timeout", "30000"]);
  expect(empty.turn.state).toBe("done");
  expect(empty.response).toBeUndefined();
}, 60_000);
