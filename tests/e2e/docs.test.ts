// Self-description: agent-context, the generated CLI docs (must not be stale), and SKILL.md,
// whose examples run for real.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ERRORS } from "../../lib/protocol/errors.ts";
import { METHODS } from "../../lib/protocol/methods.ts";
import { BIN, useWorld } from "../helpers/harness.ts";

const world = useWorld();

const ROOT = resolve(import.meta.dir, "../..");

test("agent-context lists every method, verb and flag, every exit code and error of the table", async () => {
  const run = await world.run(["agent-context"]);
  expect(run.code).toBe(0);
  const context = JSON.parse(run.stdout);
  expect(context).toMatchObject({ name: "tuiwright", contextVersion: 2 });
  // The core methods, then each seed document's names (compat tables) with aliasOf — as capabilities lists them.
  const { COMPAT_TABLES, listedName } = await import("../../lib/protocol/compat/index.ts");
  const compat = COMPAT_TABLES.flatMap((table) => Object.keys(table.aliases).map((name) => listedName(table, name)));
  expect(context.methods.map((m: any) => m.name).sort()).toEqual([...Object.keys(METHODS), ...compat].sort());
  expect(context.errors.map((e: any) => e.name).sort()).toEqual(Object.keys(ERRORS).sort());
  const exits = new Set(Object.values(ERRORS).map((e) => e.exit));
  for (const exit of exits) expect(context.exitCodes.map((e: any) => e.exit)).toContain(exit);
  const spawn = context.verbs.find((v: any) => v.name === "spawn");
  expect(spawn.flags.map((f: any) => f.name)).toEqual(expect.arrayContaining(["--cols", "--shell", "--browser", "--no-record"]));
  expect(spawn.flags.find((f: any) => f.name === "--cols")).toMatchObject({ type: "int", description: expect.stringContaining("default 120") });
  expect(context.verbs.map((v: any) => v.name)).toEqual(expect.arrayContaining(["browse", "navigate", "back", "forward", "reload", "scroll", "set-viewport"]));
  expect(context.methods.find((m: any) => m.name === "send_key")).toMatchObject({ aliasOf: "press", document: "awi-tty-carbonyl-agent-socket" });
  const snapshot = context.verbs.find((v: any) => v.name === "snapshot");
  expect(snapshot.flags.find((f: any) => f.name === "--format")).toMatchObject({ default: "text", choices: expect.arrayContaining(["outline", "png"]) });
  expect(context.verbs.map((v: any) => v.name)).toEqual(expect.arrayContaining(["exec", "replay", "mcp", "agent-context", "skill"]));
  expect(context.globalFlags.map((f: any) => f.name)).toContain("--json");
  expect(context.keys.names).toEqual(expect.arrayContaining(["Enter", "PageDown", "F12"]));
  expect(context.selectors).toContain("role");
  const vim = context.manifests.find((m: any) => m.name === "vim");
  expect(vim).toMatchObject({ origin: "builtin", programs: expect.arrayContaining(["vim"]) });
  expect(vim.regions.length).toBeGreaterThan(0);
});

test("docs/CLI.md is what `help --markdown` generates (regenerate it when a verb changes)", async () => {
  const generated = (await world.run(["help", "--markdown"])).stdout;
  expect(generated).toContain("## spawn");
  expect(readFileSync(join(ROOT, "docs/CLI.md"), "utf8")).toBe(generated);
});

test("docs/mcp-tools.md is what scripts/gen-mcp-tools-doc.ts generates (regenerate it when a tool or profile changes)", async () => {
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts/gen-mcp-tools-doc.ts"), "--print"], { stdout: "pipe", stderr: "pipe" });
  const [generated, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  expect(generated).toContain("### `spawn`");
  expect(readFileSync(join(ROOT, "docs/mcp-tools.md"), "utf8")).toBe(generated);
});

test("`tuiwright skill` prints SKILL.md", async () => {
  expect((await world.run(["skill"])).stdout).toBe(`${readFileSync(join(ROOT, "SKILL.md"), "utf8").replace(/\n$/, "")}\n`);
});

const examples = [...readFileSync(join(ROOT, "SKILL.md"), "utf8").matchAll(/```sh example=(\w+)\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!] as const);

test("SKILL.md has the vim, shell and REPL examples", () => {
  expect(examples.map(([name]) => name)).toEqual(["vim", "shell", "repl"]);
});

for (const [name, script] of examples) {
  test(`the SKILL.md ${name} example runs as written`, async () => {
    const bin = mkdtempSync(join(tmpdir(), "tw-bin-"));
    symlinkSync(BIN, join(bin, "tuiwright"));
    const proc = Bun.spawn(["bash", "-e", "-c", script], {
      env: { ...world.env, PATH: `${bin}:${process.env.PATH}` },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ name, code, stderr: code === 0 ? "" : stderr + stdout }).toEqual({ name, code: 0, stderr: "" });
  }, 30_000);
}
