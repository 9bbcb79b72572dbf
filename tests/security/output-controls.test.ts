// What a program prints must not act on the terminal of the person who reads it through
// tuiwright (issue 24, item 10): `exec`, `block` and `exec --follow` passed C1 controls (U+009B
// CSI, U+009D OSC, U+009C ST) to stdout, which set the title and clear the screen in xterm.js-based
// terminals. On a terminal they are shown as stand-ins; into a pipe the text is kept as it is;
// JSON escapes them always.
import { expect, test } from "bun:test";
import { BIN, useWorld } from "../helpers/harness.ts";

const world = useWorld();

/** Runs the CLI with stdout and stderr on a pseudo-terminal; returns what it wrote there. */
const ON_A_TERMINAL = `
import os, subprocess, sys
master, slave = os.openpty()
proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
proc.wait()
sys.stdout.buffer.write(out)
sys.exit(proc.returncode)
`;

async function onTerminal(args: string[]): Promise<{ code: number; text: string }> {
  const proc = Bun.spawn(["python3", "-c", ON_A_TERMINAL, BIN, ...args], { env: world.env, stdout: "pipe", stderr: "inherit" });
  const [bytes, code] = await Promise.all([new Response(proc.stdout).bytes(), proc.exited]);
  return { code, text: new TextDecoder().decode(bytes) };
}

const C1 = /[\u0080-\u009f]/;
let shell = "";
/** A command printing CSI 2J (clear), OSC 0 (title) and ST as C1 characters, a raw 0x9B byte and DEL. */
let HOSTILE = "";

test("a shell session to print from", async () => {
  await Bun.write(`${world.dir}/hostile.sh`, String.raw`printf 'A\302\2332J B \302\2350;EVIL\302\234 C \233 D \177 E\n'` + "\n");
  HOSTILE = `sh ${world.dir}/hostile.sh`;
  shell = (await world.json(["spawn", "--shell", "bash"])).name;
  await world.json(["exec", "--session", shell, "true"]);
}, 180_000);

test("exec, block and exec --follow show controls as stand-ins on a terminal", async () => {
  const exec = await onTerminal(["exec", "--session", shell, HOSTILE]);
  expect(exec.code).toBe(0);
  expect(exec.text).not.toMatch(C1);
  expect(exec.text).not.toContain("\x1b");
  expect(exec.text).toContain("A\ufffd2J B \ufffd0;EVIL\ufffd C \ufffd D  E"); // (the output stream drops DEL)
  const seq = (await world.json(["status", "--session", shell])).blocks;
  const block = await onTerminal(["block", "--session", shell, String(seq)]);
  expect(block.text).not.toMatch(C1);
  expect(block.text).toContain("A\ufffd2J B \ufffd0;EVIL\ufffd C");
  const follow = await onTerminal(["exec", "--follow", "--session", shell, HOSTILE]);
  expect(follow.code).toBe(0);
  expect(follow.text).not.toMatch(C1);
  expect(follow.text).toContain("A\ufffd2J B \ufffd0;EVIL\ufffd C");
}, 180_000);

test("into a pipe the output is kept as the program printed it", async () => {
  const piped = await world.run(["exec", "--session", shell, HOSTILE]);
  expect(piped.stdout).toContain("A\u009b2J B \u009d0;EVIL\u009c C");
}, 180_000);

test("--json escapes C1 controls and DEL, on a terminal or not, for exec, exec --follow and batch", async () => {
  for (const json of [
    (await world.run(["--json", "exec", "--session", shell, HOSTILE])).stdout,
    (await world.run(["--json", "exec", "--follow", "--session", shell, HOSTILE])).stdout,
    (await onTerminal(["--json", "exec", "--session", shell, HOSTILE])).text,
    (await world.run(["batch"], { stdin: `exec --session ${shell} '${HOSTILE}'\n` })).stdout,
  ]) {
    expect(json).not.toMatch(C1);
    expect(json).not.toContain("\x7f");
    expect(json).toContain(String.raw`A\u009b2J B \u009d0;EVIL\u009c C`);
  }
  const parsed = JSON.parse((await world.run(["--json", "exec", "--session", shell, HOSTILE])).stdout);
  expect(parsed.output).toContain("A\u009b2J B \u009d0;EVIL\u009c C");
}, 180_000);

test("an error message quoting a control character is inert on a terminal too", async () => {
  const refused = await onTerminal(["press", "--session", shell, "\u009b"]);
  expect(refused.code).toBe(65);
  expect(refused.text).toContain('invalid key "\ufffd"');
  expect(refused.text).not.toMatch(C1);
  await world.run(["kill", "--session", shell]);
}, 180_000);
