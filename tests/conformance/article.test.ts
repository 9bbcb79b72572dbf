// The article's own command lines (../shared/seeds/terminal-apps-need-a-dom.md), run as
// written with `agent-tui` standing for our binary: a reader who copies them gets what the
// article promises. (Lines that pipe agent-tui's JSON envelope through jq are the one
// difference: our --json prints the result object itself, without a `data` wrapper.)
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, World } from "../helpers/harness.ts";

let world: World;
beforeAll(async () => { world = World.empty(); });
afterAll(async () => { await world[Symbol.asyncDispose](); });

async function script(body: string) {
  const proc = Bun.spawn(["bash", "-euo", "pipefail", "-c", `agent-tui() { "${BIN}" "$@"; }\n${body}`], {
    cwd: world.dir, env: { ...world.env, TUIWRIGHT_SESSION: "" }, stdout: "pipe", stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

test("the complete vim workflow: refs instead of sleeps, keys in vim notation", async () => {
  const run = await script(`
agent-tui spawn -- vim -u DEFAULTS -i NONE todo.txt
agent-tui wait --ref '@vim.buffer'              # 1. wait for the buffer to exist
agent-tui press i                               # 2. enter insert mode
agent-tui wait --ref '@vim.mode[value=insert]'  # 3. wait for the mode to flip
agent-tui type 'review the draft'               # 4. type
agent-tui press '<esc>'                          # 5. leave insert
agent-tui wait --ref '@vim.mode[value=normal]'  # 6. wait for the mode to flip back
agent-tui press ':wq<cr>'                        # 7. save and quit
agent-tui wait --exit
`);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(readFileSync(join(world.dir, "todo.txt"), "utf8")).toBe("review the draft\n");
});

test("waiting for absence, and a program with no adapter read after it goes idle", async () => {
  const run = await script(`
agent-tui spawn -- vim -u DEFAULTS -i NONE notes.md
agent-tui wait --ref '@vim.buffer'
agent-tui press ':'
agent-tui wait --ref '@vim.cmdline[focused]'
agent-tui press '<esc>'
agent-tui wait --ref '@vim.cmdline[focused]' --gone
agent-tui press ':q!<cr>'
agent-tui wait --exit
agent-tui spawn -- python3 -c 'print("no adapter here"); input()'
agent-tui wait --idle 500
agent-tui snapshot --mode text
`);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("no adapter here");
});

test("run: a non-interactive command's output, as the article's gh example", async () => {
  const run = await script(`agent-tui run -- printf '{"default_branch": "main"}'`);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('{"default_branch": "main"}');
});
