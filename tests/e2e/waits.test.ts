import { expect, test } from "bun:test";
import { useWorld } from "../helpers/harness.ts";

const world = useWorld();

test("--settled waits out a program printing every 20 ms, then returns at once on the quiet screen", async () => {
  const ticker = "import sys,time\nfor i in range(1, 11):\n  print(f'tick {i}', flush=True); time.sleep(0.02)\nprint('finished', flush=True)\nsys.stdin.read()";
  const { name } = await world.spawn(["python3", "-c", ticker]);
  // Until python prints, the blank screen is quiet too: settled would rightly fire on it.
  await world.json(["wait", "--session", name, "--text", "tick 1"]);
  const settled = await world.json(["wait", "--session", name, "--settled", "150", "--print"]);
  expect(settled.fired).toEqual(["settled 150ms"]);
  expect(settled.text).toContain("finished"); // it did not fire between ticks
  // Counted from the wait's start this would take a whole new window; from the last change it holds now.
  const again = await world.json(["wait", "--session", name, "--settled", "150"]);
  expect(again.elapsedMs).toBeLessThan(150);
  expect(again.revision).toBe(settled.revision);
});

test("a settled wait sent right after type (JSON-RPC, no gap) fires after the late echo, not on the quiet from before the input", async () => {
  // The program echoes each key 60 ms after reading it, as a busy TUI does.
  const slowEcho = "import sys,termios,tty,time\ntty.setraw(0)\nprint('ready', end='', flush=True)\nwhile True:\n  c = sys.stdin.read(1)\n  time.sleep(0.06)\n  print(c, end='', flush=True)";
  const { name } = await world.spawn(["python3", "-c", slowEcho]);
  await world.json(["wait", "--session", name, "--text", "ready"]);
  await world.json(["wait", "--session", name, "--settled", "200"]); // quiet long enough to satisfy 150 at once
  const rpc = await world.rpc();
  try {
    const typing = rpc.call("type", { session: name, text: "Q" });
    const settled = rpc.call("wait", { session: name, settledMs: 150 }) as Promise<{ revision: number }>;
    await typing;
    // The echo was on the screen the settled wait fired on: a wait for it answers at that revision.
    const echoed = (await rpc.call("wait", { session: name, text: ["readyQ"] })) as { revision: number };
    expect(echoed.revision).toBe((await settled).revision);
  } finally {
    rpc.close();
  }
});

test("--text already on screen returns with the revision unchanged", async () => {
  const { name } = await world.spawn(["sh", "-c", "echo present; read x"]);
  const first = await world.json(["wait", "--session", name, "--text", "present"]);
  const second = await world.json(["wait", "--session", name, "--text", "present"]);
  expect(second.revision).toBe(first.revision); // fired on the screen as it was: nothing new was needed
});

test("--gone fires when a progress line is replaced", async () => {
  // No echo: the Enter we send must not move the cursor off the progress line.
  const { name } = await world.spawn(["sh", "-c", "stty -echo; printf 'Working... 40%%'; read x; printf '\\r\\033[KDone\\n'; read y"]);
  await world.json(["wait", "--session", name, "--text", "Working"]);
  const rpc = await world.rpc();
  const gone = rpc.call("wait", { session: name, text: ["Working"], gone: true, timeoutMs: 5000 });
  await world.json(["press", "--session", name, "Enter"]);
  expect(((await gone) as { fired: string[] }).fired).toEqual(['text "Working" gone']);
  rpc.close();
});

test("--any reports which condition fired; --all waits for both", async () => {
  const { name } = await world.spawn(["sh", "-c", "echo ALPHA; read x; echo BRAVO; read y"]);
  const any = await world.json(["wait", "--session", name, "--text", "ALPHA", "--text", "BRAVO"]);
  expect(any.fired).toEqual(['text "ALPHA"']);
  const rpc = await world.rpc();
  const all = rpc.call("wait", { session: name, text: ["ALPHA", "BRAVO"], mode: "all", timeoutMs: 5000 });
  await world.json(["press", "--session", name, "Enter"]);
  expect(((await all) as { fired: string[] }).fired).toEqual(['text "ALPHA"', 'text "BRAVO"']);
  rpc.close();
});

test("--exit returns the program's status", async () => {
  const { name } = await world.spawn(["sh", "-c", "exit 7"]);
  const result = await world.json(["wait", "--session", name, "--exit"]);
  expect(result.exit).toEqual({ code: 7, signal: null });
  expect(result.fired).toEqual(["exit"]);
});

test("--title, --cursor and --alt-screen through the CLI", async () => {
  const { name } = await world.spawn(["sh", "-c", "printf '\\033]0;job 12\\007'; read x; printf '\\033[?1049h\\033[5;9Hhere'; read y"]);
  expect((await world.json(["wait", "--session", name, "--title", "/job \\d+/"])).fired).toEqual(['title "/job \\\\d+/"']);
  await world.json(["press", "--session", name, "Enter"]);
  const result = await world.json(["wait", "--session", name, "--alt-screen", "on", "--cursor", "4,12", "--all"]);
  expect(result.fired).toEqual(["cursor 4,12", "alt-screen on"]);
});

test("--in-scrollback finds text that has scrolled off the screen", async () => {
  const { name } = await world.spawn(["sh", "-c", "echo EARLY-LINE; seq 1 100; read x"], ["--rows", "10"]);
  await world.json(["wait", "--session", name, "--regex", "^100$"]);
  const visible = await world.run(["wait", "--session", name, "--text", "EARLY-LINE", "--timeout", "0"]);
  expect(visible.code).toBe(124);
  expect((await world.json(["wait", "--session", name, "--text", "EARLY-LINE", "--in-scrollback"])).fired).toEqual(['text "EARLY-LINE"']);
});
