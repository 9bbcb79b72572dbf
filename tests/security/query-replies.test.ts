// Terminal query replies (DSR, DA, DECRQSS, colour queries) go only to a program that reads
// them. One printed by a command that does not read — `printf '\e[6n'`, `cat` of a file holding
// queries — must not wait in the shell's input and prefix the next exec: `exec 'cd scratch;
// rm -f *'` once ran as `26Rcd scratch; rm -f *`, and the `rm` emptied the parent directory.
// Race loops: TUIWRIGHT_RACE_LOOPS (default 5), under load (two `yes > /dev/null`).
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useWorld } from "../helpers/harness.ts";

setDefaultTimeout(120_000);

const LOOPS = Number(process.env.TUIWRIGHT_RACE_LOOPS ?? 5);
const world = useWorld();

const QUERIES: Record<string, string> = {
  "DSR (cursor position)": String.raw`printf '\e[6n'`,
  "DA1": String.raw`printf '\e[c'`,
  "DA2": String.raw`printf '\e[>c'`,
  "DECRQSS": String.raw`printf '\eP$qm\e\\'`,
  "OSC 11 (background colour)": String.raw`printf '\e]11;?\a'`,
};

async function exec(session: string, command: string): Promise<any> {
  return world.json(["exec", "--session", session, "--timeout", "30000", "--", command]);
}

test("a query printed by a command that does not read is not answered: the next exec runs exactly as typed, and rm stays in its directory", async () => {
  const parent = join(world.dir, "parent");
  mkdirSync(join(parent, "scratch"), { recursive: true });
  writeFileSync(join(parent, "canary"), "must survive");
  writeFileSync(join(parent, "scratch", "junk"), "");
  const { name } = await world.spawn([], ["--shell", "bash"]);
  await exec(name, `cd ${parent}`);
  await exec(name, QUERIES["DSR (cursor position)"]!);
  const rm = await exec(name, "cd scratch; rm -f *");
  expect(rm).toMatchObject({ command: "cd scratch; rm -f *", exitCode: 0, output: "" });
  expect(existsSync(join(parent, "canary"))).toBe(true);
  expect(readdirSync(join(parent, "scratch"))).toEqual([]);
  await world.json(["kill", "--session", name]);
});

for (const shell of ["bash", "zsh", "fish"]) {
  test(`${shell}: after each kind of query (and cat of a file holding them) the next exec starts and runs as typed`, async () => {
    const file = join(world.dir, `queries-${shell}.txt`);
    writeFileSync(file, "\x1b[6n\x1b[c\x1bP$qm\x1b\\\x1b]11;?\x07plain text\n");
    const { name } = await world.spawn([], ["--shell", shell]);
    for (const [kind, command] of [...Object.entries(QUERIES), ["cat of a file", `cat ${file}`]]) {
      await exec(name, command!);
      const next = await exec(name, "echo after");
      expect({ kind, command: next.command, output: next.output, exit: next.exitCode }).toEqual({ kind, command: "echo after", output: "after\n", exit: 0 });
    }
    await world.json(["kill", "--session", name]);
  });
}

test("a program that asks and reads its reply still gets it: in raw mode, or switching just after asking (printf; read -sdR in a script)", async () => {
  const { name } = await world.spawn([], ["--shell", "bash", "--cols", "80", "--rows", "24"]);
  const python = await exec(name, String.raw`python3 -c "import os,sys,termios,tty; old=termios.tcgetattr(0); tty.setraw(0); os.write(1,b'\x1b[6n'); r=b''
while not r.endswith(b'R'): r+=os.read(0,1)
termios.tcsetattr(0,termios.TCSADRAIN,old); print('reply', r[1:].decode())"`);
  expect(python.output).toMatch(/reply \[\d+;\d+R\n$/);
  const script = join(world.dir, "where.sh");
  writeFileSync(script, "printf '\\033[6n'; IFS=';' read -rs -d R row col; echo \"row=${row#*[} col=$col\"\n");
  const asked = await exec(name, `bash ${script}`);
  expect(asked.output).toMatch(/^row=\d+ col=\d+\n$/);
  await world.json(["kill", "--session", name]);
});

const load: Bun.Subprocess[] = [];
afterAll(() => {
  for (const child of load) child.kill();
});

test(`under load, ${LOOPS} rounds of a query then a command: the command is never prefixed`, async () => {
  for (let i = 0; i < 2; i++) load.push(Bun.spawn(["sh", "-c", "exec yes > /dev/null"], { stdout: "ignore" }));
  const { name } = await world.spawn([], ["--shell", "bash"]);
  const queries = Object.values(QUERIES);
  for (let round = 0; round < LOOPS; round++) {
    await exec(name, queries[round % queries.length]!);
    const next = await exec(name, `echo round-${round}`);
    expect({ round, command: next.command, output: next.output }).toEqual({ round, command: `echo round-${round}`, output: `round-${round}\n` });
  }
  await world.json(["kill", "--session", name]);
});
