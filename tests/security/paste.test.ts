// Input to programs is inert unless a key is named (issue 24, item 1). A paste is text from
// elsewhere: Ctrl-C, Ctrl-Z or Ctrl-\ inside it used to end the shell's bracketed paste (the tty
// driver raises the signal) and the rest ran as typed. `type` without --paste types text only:
// a control character is a key, pressed by name. Real bash, zsh and fish, and a raw-mode reader
// that prints exactly the bytes it got.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { useWorld } from "../helpers/harness.ts";

const world = useWorld();

/** Prints the bytes it reads, in raw mode (no tty signals, no echo), as Python's repr: from the
 * start of a bracketed paste to its end, or (plain) up to "END". */
const READER = `
import os, sys, tty
tty.setraw(0)
bracketed = sys.argv[1] == "bracketed"
os.write(1, (b"\\x1b[?2004h" if bracketed else b"") + b"ready>")
end = b"\\x1b[201~" if bracketed else b"END"
got = b""
while not got.endswith(end):
    got += os.read(0, 4096)
os.write(1, b"\\r\\ngot " + repr(got).encode() + b"\\r\\n")
os.read(0, 1)
`;

async function reader(mode: "bracketed" | "plain"): Promise<string> {
  const { name } = await world.spawn(["python3", "-c", READER, mode]);
  await world.json(["wait", "--session", name, "--text", "ready>", "--timeout", "60000"]);
  return name;
}

/** The line the reader printed: `got b'…'`. */
async function got(name: string): Promise<string> {
  await world.json(["wait", "--session", name, "--regex", "^got .*$", "--timeout", "60000"]);
  return /^got (.*)$/m.exec((await world.json(["snapshot", "--session", name])).text)![1]!;
}

const SIGNALS = [
  { shell: "bash", key: "\x03", name: "Ctrl-C" },
  { shell: "bash", key: "\x1a", name: "Ctrl-Z" },
  { shell: "bash", key: "\x1c", name: "Ctrl-\\" },
  { shell: "zsh", key: "\x03", name: "Ctrl-C" },
  { shell: "fish", key: "\x03", name: "Ctrl-C" },
];

for (const { shell, key, name: keyName } of SIGNALS) {
  test(`a paste with ${keyName} then a command line cannot run the command in ${shell}`, async () => {
    const marker = join(world.dir, `pwned-${shell}-${key.charCodeAt(0)}`);
    const { name } = await world.json(["spawn", "--shell", shell]);
    await world.json(["exec", "--session", name, "true"]);
    // The next prompt is drawn (the shell turns bracketed paste on before it draws it).
    await world.json(["wait", "--session", name, "--regex", "/true\\n.*[#$%>] *$/", "--timeout", "60000"]);
    expect((await world.json(["snapshot", "--session", name, "--include-meta"])).meta.modes.bracketedPaste).toBe(true);
    const pasted = await world.json(["type", "--session", name, "--paste", `echo A${key}\rtouch ${marker}\r`, "--wait-text", `touch ${marker}`, "--timeout", "60000"]);
    expect(pasted).toMatchObject({ controlsRemoved: 1, bracketed: true });
    // The pasted lines wait on the command line; Ctrl-C (a named key) drops them.
    await world.json(["press", "--session", name, "C-c"]);
    const check = await world.json(["exec", "--session", name, `test -e ${marker} && echo PRESENT || echo ABSENT`]);
    expect(check.output.trim()).toBe("ABSENT");
    expect(existsSync(marker)).toBe(false);
    await world.run(["kill", "--session", name]);
  }, 180_000);
}

test("a bracketed paste arrives as its text: line breaks as CR, tab kept, C0/C1 controls and ESC left out", async () => {
  const name = await reader("bracketed");
  const typed = await world.json(["type", "--session", name, "--paste", "echo A\x03\r\ntouch x\x1a\x1c\x04\x1b[201~\tB\u009b2J\x7f\n"]);
  expect(typed).toMatchObject({ controlsRemoved: 7, bracketed: true });
  expect(await got(name)).toBe(String.raw`b'\x1b[200~echo A\rtouch x[201~\tB2J\r\x1b[201~'`);
  expect(typed.bytes).toBe(Buffer.byteLength("\x1b[200~echo A\rtouch x[201~\tB2J\r\x1b[201~"));
  await world.run(["kill", "--session", name]);
}, 180_000);

test("a paste into a program without bracketed paste leaves controls out too", async () => {
  const name = await reader("plain");
  const typed = await world.json(["type", "--session", name, "--paste", "a\x03b\x1a\nEND"]);
  expect(typed).toMatchObject({ controlsRemoved: 2, bracketed: false });
  expect(await got(name)).toBe(String.raw`b'ab\rEND'`);
  await world.run(["kill", "--session", name]);
}, 180_000);

test("type refuses a control character (exit 65, nothing sent) and names the key to press; --raw sends it", async () => {
  const name = await reader("plain");
  const refused = await world.run(["type", "--session", name, "ls\x03"]);
  expect(refused.code).toBe(65);
  expect(refused.stderr).toContain("type takes text: U+0003 (C-c) at character 3 is a control character, not text");
  expect(refused.stderr).toContain("`press C-c`");
  const escape = await world.run(["type", "--session", name, "\x1b[2J"]);
  expect(escape.code).toBe(65);
  expect(escape.stderr).toContain("U+001B (Escape) at character 1");
  const c1 = await world.run(["type", "--session", name, "a\u009bb"]);
  expect(c1.code).toBe(65);
  expect(c1.stderr).toContain("U+009B (a C1 control)");
  // Long text goes in several requests: refused before the first is sent.
  const rpc = await world.rpc();
  try {
    await expect(rpc.call("type", { session: name, text: `${"x".repeat(600_000)}\x01` })).rejects.toThrow("U+0001 (C-a) at character 600001");
  } finally {
    rpc.close();
  }
  await world.json(["type", "--session", name, "--raw", "\x07raw"]);
  await world.json(["type", "--session", name, "tab\there\rEND"]);
  expect(await got(name)).toBe(String.raw`b'\x07rawtab\there\rEND'`);
  await world.run(["kill", "--session", name]);
}, 180_000);

test("--paste with --raw is a usage error", async () => {
  const name = await reader("plain");
  const both = await world.run(["type", "--session", name, "--paste", "--raw", "x"]);
  expect(both.code).toBe(64);
  expect(both.stderr).toContain("paste and raw do not go together");
  await world.run(["kill", "--session", name]);
}, 180_000);

test("a control character is not a key name: press, AWI-TTY send_key Char and type_text refuse it", async () => {
  const name = await reader("plain");
  const pressed = await world.run(["press", "--session", name, "\x03"]);
  expect(pressed.code).toBe(65);
  expect(pressed.stderr).toContain("U+0003 (C-c) is a control character, not a key name");
  const notation = await world.run(["press", "--session", name, "x\x1b<cr>"]);
  expect(notation.code).toBe(65);
  expect(notation.stderr).toContain("U+001B (Escape) is a control character, not text");
  const rpc = await world.rpc();
  try {
    // AWI-TTY calls drive browser sessions; bad input is refused before the session is looked at.
    await expect(rpc.call("send_key", { session: name, key: "Char", char: "\x03" })).rejects.toThrow("U+0003 (C-c) is a control character");
    await expect(rpc.call("type_text", { session: name, text: "a\x1ab" })).rejects.toThrow("U+001A (C-z) at character 2");
    await expect(rpc.call("paste", { session: name, text: "a\x1ab" })).rejects.toThrow("AWI-TTY calls drive browser sessions");
    expect(await rpc.call("type", { session: name, text: "a\x1ab", paste: true })).toMatchObject({ controlsRemoved: 1 });
    await rpc.call("type", { session: name, text: "END" });
  } finally {
    rpc.close();
  }
  expect(await got(name)).toBe(String.raw`b'abEND'`);
  await world.run(["kill", "--session", name]);
}, 180_000);

test("type of 2 MiB reports every byte it wrote", async () => {
  const { name } = await world.spawn(["sh", "-c", "stty raw -echo; echo ready; head -c 2097152 | wc -c; read x"]);
  await world.json(["wait", "--session", name, "--text", "ready", "--timeout", "60000"]);
  const rpc = await world.rpc();
  try {
    const typed = await rpc.call("type", { session: name, text: "a".repeat(2 * 1024 * 1024), wait: { regex: ["^\\s*2097152\\s*$"], timeoutMs: 60_000 } }) as { bytes: number };
    expect(typed.bytes).toBe(2 * 1024 * 1024);
  } finally {
    rpc.close();
  }
  await world.run(["kill", "--session", name]);
}, 180_000);
