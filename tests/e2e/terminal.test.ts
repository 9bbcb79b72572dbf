import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { useWorld } from "../helpers/harness.ts";

const world = useWorld();

// Writes each byte of the text in its own write(2), so every multibyte character is split
// across PTY reads.
const byteByByte = (text: string) => [
  "python3", "-c",
  "import os,sys,time\ndata=sys.argv[1].encode()\nfor b in data:\n  os.write(1, bytes([b]))\nprint('\\nDONE', flush=True)\nsys.stdin.read()",
  text,
];

test("CJK and emoji written one byte at a time render intact with the right widths", async () => {
  const text = "漢字かな 🙂👍🏽 é ✓ end";
  const { name } = await world.spawn(byteByByte(text));
  await world.json(["wait", "--session", name, "--regex", "^DONE$"]);
  const snap = await world.json(["snapshot", "--session", name]);
  expect(snap.text.split("\n")[0]).toBe(text);
  const cells = (await world.json(["snapshot", "--session", name, "--format", "cells"])).cells[0];
  const row = cells.map((run: any) => run.text).join("");
  expect(row).toBe(text);
  const width = cells.reduce((sum: number, run: any) => sum + run.width, 0);
  // 漢字かな: 4 wide chars = 8 cells; 🙂 2; 👍🏽 is one grapheme cluster (the skin-tone
  // modifier joins it, as in a modern terminal and the AI CLIs: lib/terminal/widths.ts) = 2;
  // the rest 1 each.
  expect(width).toBe(8 + 1 + 2 + 2 + " é ✓ end".length);
  const meta = (await world.json(["snapshot", "--session", name, "--include-meta"])).meta;
  expect(meta.cursor).toMatchObject({ row: 2, col: 0 });
});

const queryProgram = `
import os, sys, termios, tty
fd = sys.stdin.fileno()
tty.setraw(fd)
def ask(query, end):
    os.write(1, query)
    reply = b""
    while not reply.endswith(end):
        reply += os.read(fd, 1)
    return reply
pos = ask(b"\\x1b[6n", b"R")
da = ask(b"\\x1b[c", b"c")
bg = ask(b"\\x1b]11;?\\x1b\\\\", b"\\x1b\\\\")
os.write(1, ("\\r\\nREPLIES " + repr((pos, da, bg)) + "\\r\\n").encode())
`;

test("terminal queries (cursor position, device attributes, background colour) get answers", async () => {
  const { name } = await world.spawn(["python3", "-c", queryProgram]);
  const done = await world.json(["wait", "--session", name, "--exit", "--print", "--timeout", "5000"]);
  expect(done.exit).toEqual({ code: 0, signal: null });
  expect(done.text).toContain("REPLIES (b'\\x1b[1;1R', b'\\x1b[?1;2c', b'\\x1b]11;rgb:0000/0000/0000\\x1b\\\\')");
});

const paletteProgram = `
import os, sys, tty
fd = sys.stdin.fileno()
tty.setraw(fd)
os.write(1, b"\\x1b]4;1;?;196;?\\x07")
reply = b""
while reply.count(b"\\x1b\\\\") < 2:
    reply += os.read(fd, 1)
os.write(1, ("\\r\\nPALETTE " + repr(reply) + "\\r\\n").encode())
`;

test("palette queries (OSC 4) get the xterm palette (opencode waits for them before drawing)", async () => {
  const { name } = await world.spawn(["python3", "-c", paletteProgram]);
  const done = await world.json(["wait", "--session", name, "--exit", "--print", "--timeout", "5000"]);
  expect(done.exit).toEqual({ code: 0, signal: null });
  expect(done.text).toContain("PALETTE b'\\x1b]4;1;rgb:cdcd/0000/0000\\x1b\\\\\\x1b]4;196;rgb:ffff/0000/0000\\x1b\\\\'");
});

test("title (OSC 2) and cwd (OSC 7) are reported", async () => {
  const { name } = await world.spawn(["sh", "-c", "printf '\\033]2;my title\\007\\033]7;file://host/tmp/some%%20dir\\007ready'; read x"]);
  await world.json(["wait", "--session", name, "--title", "my title"]);
  expect((await world.json(["get", "--session", name, "title"])).value).toBe("my title");
  expect((await world.json(["get", "--session", name, "cwd"])).value).toBe("/tmp/some dir");
  const meta = (await world.json(["snapshot", "--session", name, "--include-meta"])).meta;
  expect(meta).toMatchObject({ title: "my title", cwd: "/tmp/some dir", cols: 120, rows: 40, altScreen: false, droppedBytes: 0 });
});

test("ansi snapshots keep colours, cells report them", async () => {
  const { name } = await world.spawn(["sh", "-c", "printf '\\033[1;31mred\\033[0m \\033[7minv\\033[0m\\n'; read x"]);
  await world.json(["wait", "--session", name, "--text", "red inv"]);
  const ansi = (await world.json(["snapshot", "--session", name, "--format", "ansi"])).ansi;
  expect(ansi).toContain("\x1b[");
  expect(ansi).toContain("red");
  const runs = (await world.json(["snapshot", "--session", name, "--format", "cells"])).cells[0];
  expect(runs).toEqual([
    { col: 0, text: "red", width: 3, fg: 1, bold: true },
    { col: 3, text: " ", width: 1 },
    { col: 4, text: "inv", width: 3, inverse: true },
  ]);
});

function peakRssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)![1]);
}

test("a 3,000,000-line flood completes with flow control, no Stopped job, bounded memory", async () => {
  const { name } = await world.spawn(["bash", "--norc", "--noprofile"]);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  await world.json(["type", "--session", name, "seq 1 3000000; echo flood-$((1+1))"]);
  const done = await world.json(["press", "--session", name, "Enter", "--wait-regex", "^flood-2$", "--timeout", "120000"]);
  const text = (await world.json(["snapshot", "--session", name])).text;
  expect(text).toMatch(/^3000000$/m);
  expect(text).not.toContain("Stopped");
  const meta = (await world.json(["snapshot", "--session", name, "--include-meta"])).meta;
  expect(meta.droppedBytes).toBe(0);
  const peak = peakRssKb(world.daemon!.pid);
  console.log(`flood: ${done.wait.elapsedMs} ms for seq 1 3000000 (20.9 MB); daemon peak RSS ${(peak / 1024).toFixed(1)} MiB; XOFF pauses ${meta.flowPauses}`);
  expect(peak).toBeLessThan(400 * 1024);
}, 150_000);
