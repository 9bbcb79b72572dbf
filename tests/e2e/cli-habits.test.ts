// The habits of a well-kept CLI: -V, "did you mean" for verbs and flags, help for a group,
// --json help, completion scripts that load (and complete) in bash, zsh and fish, a man page
// that groff renders without a warning, and `skill --install DIR`.
import { afterAll, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { BIN, World } from "../helpers/harness.ts";

const ROOT = resolve(import.meta.dir, "../..");
// No daemon: none of these verbs needs one.
const world = World.empty();
afterAll(async () => { await world[Symbol.asyncDispose](); });

async function shell(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(argv, { env: { ...world.env, TW: BIN }, cwd: world.dir, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

test("-V and --version print the version", async () => {
  const short = await world.run(["-V"]);
  expect(short.code).toBe(0);
  expect(short.stdout).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}\n$/);
  expect((await world.run(["--version"])).stdout).toBe(short.stdout);
});

test("a mistyped verb, group verb or flag is a usage error that suggests the closest one", async () => {
  const verb = await world.run(["snapshto"]);
  expect(verb.code).toBe(64);
  expect(verb.stderr).toContain('unknown verb "snapshto" (did you mean snapshot?)');
  const group = await world.run(["daemon", "stauts"]);
  expect(group.code).toBe(64);
  expect(group.stderr).toContain('unknown daemon verb "stauts": one of status, start, stop (did you mean status?)');
  const flag = await world.run(["snapshot", "--formt", "text"]);
  expect(flag.code).toBe(64);
  expect(flag.stderr).toContain("unknown flag --formt for `snapshot` (did you mean --format?)");
  const global = await world.run(["spawn", "--sesion", "x", "--", "bash"]);
  expect(global.stderr).toContain("(did you mean --session?)");
  const far = await world.run(["xyzzy"]);
  expect(far.code).toBe(64);
  expect(far.stderr).toContain('unknown verb "xyzzy"\n');
  const help = await world.run(["help", "snapshto"]);
  expect(help.code).toBe(64);
  expect(help.stderr).toContain('no verb named "snapshto" (did you mean snapshot?)');
});

test("help GROUP lists the group's verbs with their flags; --json help is machine-readable", async () => {
  const group = await world.run(["help", "daemon"]);
  expect(group.code).toBe(0);
  expect(group.stdout).toContain("tuiwright daemon: status, start, stop");
  expect(group.stdout).toContain("usage: tuiwright daemon stop");
  const lease = await world.run(["help", "lease"]);
  expect(lease.stdout).toContain("usage: tuiwright lease acquire");

  const all = JSON.parse((await world.run(["--json", "help"])).stdout);
  expect(all.verbs.map((v: any) => v.name)).toEqual(expect.arrayContaining(["spawn", "daemon stop", "completion", "man"]));
  expect(all.globalFlags.map((f: any) => f.name)).toContain("--session");
  const one = JSON.parse((await world.run(["--json", "help", "snapshot"])).stdout);
  expect(one).toMatchObject({ name: "snapshot", method: "snapshot", usage: expect.stringMatching(/^tuiwright snapshot /) });
  const groupJson = JSON.parse((await world.run(["--json", "help", "daemon"])).stdout);
  expect(groupJson.verbs.map((v: any) => v.name)).toEqual(["daemon status", "daemon start", "daemon stop"]);
});

test("the bash completion loads and completes verbs, group verbs, flags and flag choices", async () => {
  const script = [
    'source <("$TW" completion bash) || exit 3',
    'complete -p tuiwright',
    'c() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _tuiwright; echo "${COMPREPLY[*]}"; }',
    "c tuiwright snaps", "c tuiwright daemon st", "c tuiwright --session s snapshot --form", "c tuiwright snapshot --format o",
  ].join("\n");
  const result = await shell(["bash", "--norc", "--noprofile", "-c", script]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout.split("\n")).toEqual(["complete -o default -F _tuiwright tuiwright", "snapshot", "status start stop", "--format", "outline", ""]);
});

test("in a real interactive bash, Tab completes each verb's own choices (snapshot --format has svg and png; press --to offers no cast version) and verbs after help", async () => {
  const { name } = await world.spawn(["bash", "--norc", "--noprofile", "-i"], ["--cols", "100", "--rows", "20", "--env", `TW=${BIN}`, "--env", "PS1=$ "]);
  await world.json(["wait", "--session", name, "--regex", "^\\$ $"]);
  await world.json(["type", "--session", name, 'source <("$TW" completion bash); clear\r']);
  await world.json(["wait", "--session", name, "--regex", "^\\$ $"]);
  const complete = async (line: string, wait: string[]) => {
    await world.json(["type", "--session", name, line]);
    await world.json(["press", "--session", name, "Tab", "Tab"]);
    const result = await world.json(["wait", "--session", name, ...wait.flatMap((text) => ["--text", text]), "--all", "--settled", "100", "--print"]);
    await world.json(["press", "--session", name, "C-c"]);
    await world.json(["type", "--session", name, "clear\r"]);
    await world.json(["wait", "--session", name, "--regex", "^\\$ $"]);
    return result.text as string;
  };
  expect(await complete("tuiwright snapshot --format ", ["svg", "png", "outline"])).toContain("cells");
  const to = await complete("tuiwright press --to ", ["$ tuiwright press --to"]);
  expect(to).not.toMatch(/\bv2\b|\bv3\b/);
  expect(await complete("tuiwright help sn", ["tuiwright help snapshot"])).toContain("help snapshot");
  await world.json(["press", "--session", name, "C-d", "--wait-exit"]);
});

test("the zsh completion loads after compinit and registers for tuiwright", async () => {
  const result = await shell(["zsh", "-f", "-c", 'autoload -U compinit && compinit -u -D && source <("$TW" completion zsh) && print -r -- ${_comps[tuiwright]}']);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("_tuiwright\n");
  const withoutCompinit = await shell(["zsh", "-f", "-c", 'source <("$TW" completion zsh)']);
  expect(withoutCompinit.stderr).toContain("run 'autoload -U compinit && compinit' before loading it");
});

test("the fish completion loads and completes verbs, group verbs and flag choices", async () => {
  const result = await shell(["fish", "--no-config", "-c", '"$TW" completion fish | source; and complete -C "tuiwright snaps"; and complete -C "tuiwright daemon sto"; and complete -C "tuiwright snapshot --format ou"']);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("snapshot\tprint the screen");
  expect(result.stdout).toContain("stop\tkill every session and stop the daemon");
  expect(result.stdout).toContain("outline\t");
});

test("completion without a known shell is a usage error", async () => {
  const result = await world.run(["completion", "tcsh"]);
  expect(result.code).toBe(64);
  expect(result.stderr).toContain('completion needs one shell: bash, zsh or fish; got "tcsh"');
});

test("the man page renders with groff without a warning and documents every verb", async () => {
  const page = (await world.run(["man"])).stdout;
  expect(page).toStartWith(".TH TUIWRIGHT 1");
  expect(page).not.toMatch(/[^\x00-\x7f]/);
  const checked = await shell(["sh", "-c", '"$TW" man | groff -man -Tutf8 -ww -z']);
  expect(checked.stderr).toBe("");
  expect(checked.code).toBe(0);
  const rendered = await shell(["sh", "-c", '"$TW" man | MANWIDTH=100 man -l -']);
  expect(rendered.code).toBe(0);
  for (const verb of ["spawn", "daemon stop", "completion", "EXIT STATUS"]) expect(rendered.stdout).toContain(verb);
});

test("SKILL.md has Agent Skills frontmatter; skill --install DIR writes DIR/tuiwright/SKILL.md and refuses a symlink", async () => {
  const text = readFileSync(join(ROOT, "SKILL.md"), "utf8");
  const front = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(text);
  expect(front?.[1]).toBe("tuiwright");
  expect(front![2]!.length).toBeLessThanOrEqual(1024);

  const skills = join(world.dir, "skills");
  mkdirSync(skills);
  const installed = await world.run(["skill", "--install", skills]);
  expect(installed.stderr).toBe("");
  expect(installed.stdout).toBe(`installed ${skills}/tuiwright/SKILL.md\n`);
  expect(readFileSync(join(skills, "tuiwright/SKILL.md"), "utf8")).toBe(text);
  expect((await world.run(["skill", "--install", skills])).code).toBe(0);

  const missing = await world.run(["skill", "--install", join(world.dir, "nope")]);
  expect(missing.code).toBe(66);
  expect(missing.stderr).toContain("no directory");

  const evil = join(world.dir, "evil");
  mkdirSync(join(evil, "target"), { recursive: true });
  symlinkSync(join(evil, "target"), join(evil, "tuiwright"));
  const refused = await world.run(["skill", "--install", evil]);
  expect(refused.code).toBe(77);
  expect(refused.stderr).toContain("is a symlink; refusing to write through it");
  expect(lstatSync(join(evil, "target")).isDirectory()).toBe(true);
  expect(() => lstatSync(join(evil, "target", "SKILL.md"))).toThrow();
});
