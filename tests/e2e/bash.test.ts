import { expect, test } from "bun:test";
import { useWorld } from "../helpers/harness.ts";

const world = useWorld();

const bash = ["bash", "--norc", "--noprofile"];

test("bash evaluates typed input and the snapshot shows the result", async () => {
  const { name } = await world.spawn(bash, ["--session", "b1"]);
  expect(name).toBe("b1");
  await world.json(["wait", "--session", "b1", "--regex", "[$#]$"]);
  await world.json(["type", "--session", "b1", "echo hi-$((6*7))"]);
  const pressed = await world.json(["press", "--session", "b1", "Enter", "--wait-regex", "^hi-42$"]);
  expect(pressed.wait.fired).toEqual(["regex /^hi-42$/m"]);
  expect(pressed.revisionAfter).toBeGreaterThan(pressed.revisionBefore);
  const snap = await world.json(["snapshot", "--session", "b1"]);
  expect(snap.text.split("\n")).toContain("hi-42");
  expect(snap.revision).toBeGreaterThanOrEqual(pressed.revisionAfter);
});

test("exit status is kept after the program exits and the session stays readable", async () => {
  await world.spawn(bash, ["--session", "b2"]);
  await world.json(["type", "--session", "b2", "echo bye; exit 3"]);
  const waited = await world.json(["press", "--session", "b2", "Enter", "--wait-exit"]);
  expect(waited.wait.exit).toEqual({ code: 3, signal: null });
  expect((await world.json(["get", "--session", "b2", "exit"])).value).toEqual({ code: 3, signal: null });
  expect((await world.run(["--plain", "get", "--session", "b2", "exit"])).stdout.trim()).toBe("exit code 3");
  expect((await world.json(["snapshot", "--session", "b2"])).text).toContain("bye");
  const listed = await world.json(["list"]);
  expect(listed.sessions.find((s: any) => s.name === "b2")).toMatchObject({ state: "exited", exit: { code: 3, signal: null } });
  const typed = await world.run(["type", "--session", "b2", "x"]);
  expect(typed.code).toBe(69);
  expect(typed.stderr).toContain("the program has exited (exit code 3)");
});

test("the most recently used session is the default target", async () => {
  await world.spawn(bash, ["--session", "b3"]);
  await world.json(["snapshot", "--session", "b1"]);
  expect((await world.json(["snapshot"])).session).toBe("b1");
  expect((await world.json(["list"])).current).toBe("b1");
});

test("spawn runs in the client's cwd with its environment and --env", async () => {
  const { name } = await world.spawn(bash, ["--env", "TW_MARK=marked", "--cwd", "/usr"]);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  await world.json(["type", "--session", name, 'echo "$PWD:$TW_MARK:$TERM:${COLUMNS}x${LINES}"']);
  const done = await world.json(["press", "--session", name, "Enter", "--wait-text", "/usr:marked:xterm-256color:120x40"]);
  expect(done.wait.fired.length).toBe(1);
});

test("signal reaches the foreground job, and kill removes the session", async () => {
  await world.spawn(bash, ["--session", "b4"]);
  await world.json(["wait", "--session", "b4", "--regex", "[$#]$"]);
  await world.json(["type", "--session", "b4", "sleep 300"]);
  await world.json(["press", "--session", "b4", "Enter", "--wait-text", "sleep 300"]);
  const sent = await world.json(["signal", "--session", "b4", "INT"]);
  expect(sent.signal).toBe("SIGINT");
  // A signal from outside is not echoed as ^C; bash prints a blank line and a new prompt.
  await world.json(["wait", "--session", "b4", "--regex", "sleep 300\\n\\n.*[$#]$"]);
  const killed = await world.json(["kill", "--session", "b4", "--grace", "500"]);
  expect(killed.session).toBe("b4");
  expect((await world.run(["snapshot", "--session", "b4"])).code).toBe(66);
});

test("kill escalates to SIGKILL when the program ignores the first signal", async () => {
  const { name } = await world.spawn(["sh", "-c", "trap '' TERM; echo armed; while :; do :; done"]);
  await world.json(["wait", "--session", name, "--text", "armed"]);
  const killed = await world.json(["kill", "--session", name, "--signal", "TERM", "--grace", "100"]);
  expect(killed.exit).toEqual({ code: null, signal: "SIGKILL" });
});

test("kill hangs up an interactive shell at once (SIGHUP by default; it ignores SIGTERM)", async () => {
  const { name } = await world.spawn(bash);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  const started = performance.now();
  const killed = await world.json(["kill", "--session", name]);
  expect(killed.exit.signal ?? `code ${killed.exit.code}`).not.toBe("SIGKILL");
  expect(performance.now() - started).toBeLessThan(1500); // no grace period spent
});

test("resize changes the size the program sees", async () => {
  const { name } = await world.spawn(bash, ["--cols", "80", "--rows", "24"]);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  expect((await world.json(["resize", "--session", name, "100", "30"])).cols).toBe(100);
  await world.json(["type", "--session", name, "stty size"]);
  await world.json(["press", "--session", name, "Enter", "--wait-regex", "^30 100$"]);
  expect((await world.run(["--plain", "get", "--session", name, "size"])).stdout.trim()).toBe("100x30");
});

test("type --paste sends a bracketed paste when the program enabled it: newlines do not execute", async () => {
  const { name } = await world.spawn(bash);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  expect((await world.json(["snapshot", "--session", name, "--include-meta"])).meta.modes.bracketedPaste).toBe(true);
  await world.json(["type", "--session", name, "--paste", "echo pasted-$((1+1))\necho pasted-$((2+2))", "--wait-text", "pasted-$((2+2))"]);
  // Still one edit buffer: neither command ran.
  expect((await world.json(["snapshot", "--session", name])).text).not.toMatch(/^pasted-2$/m);
  await world.json(["press", "--session", name, "Enter", "--wait-regex", "^pasted-2\\npasted-4$"]);
});

test("snapshot --scrollback includes history above the screen", async () => {
  const { name } = await world.spawn(bash, ["--rows", "10"]);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  await world.json(["type", "--session", name, "seq 1 50\r", "--wait-regex", "^50\\n.*[$#]$"]);
  const screen = (await world.json(["snapshot", "--session", name])).text.split("\n");
  expect(screen).toHaveLength(10);
  expect(screen).not.toContain("1");
  const history = (await world.json(["snapshot", "--session", name, "--scrollback", "100"])).text.split("\n");
  expect(history.slice(1, 4)).toEqual(["1", "2", "3"]);
  expect(history.at(-2)).toBe("50");
});

test("snapshot --scrollback with a screen-only format or --select is refused (exit 64, -32602), never answered with the screen alone", async () => {
  const { name } = await world.spawn(bash, ["--rows", "10"]);
  await world.json(["wait", "--session", name, "--regex", "[$#]$"]);
  await world.json(["type", "--session", name, "seq 1 50\r", "--wait-regex", "^50\\n.*[$#]$"]);
  for (const args of [["--format", "outline"], ["--format", "svg"], ["--select", "*"]]) {
    const refused = await world.run(["snapshot", "--session", name, "--scrollback", "100", ...args]);
    expect({ args, code: refused.code, stdout: refused.stdout }).toEqual({ args, code: 64, stdout: "" });
    expect(refused.stderr).toContain("--scrollback 100");
    expect(refused.stderr).toContain("--format text, ansi or cells");
  }
  const saved = await world.run(["snapshot", "--session", name, "--scrollback", "100", "--save", "never-written.snap"]);
  expect({ code: saved.code, stderr: saved.stderr }).toMatchObject({ code: 64, stderr: expect.stringContaining("--save writes the screen only") });
  // Over JSON-RPC the same refusal names the param; scrollback 0 (the screen) is still an outline.
  const rpc = await world.rpc();
  try {
    const error = (await rpc.call("snapshot", { session: name, format: "outline", scrollback: 100 }).catch((e: unknown) => e)) as { code: number; message: string; details: { param: string } };
    expect({ code: error.code, param: error.details.param }).toEqual({ code: -32602, param: "scrollback" });
    expect(error.message).toContain("format outline is built from the screen");
    const outline = (await rpc.call("snapshot", { session: name, format: "outline", scrollback: 0 })) as { outline: { nodes: unknown[] } };
    expect(outline.outline.nodes.length).toBeGreaterThan(0);
  } finally {
    rpc.close();
  }
  // The rows the refusal points to do reach into the history.
  const rows = (await world.json(["snapshot", "--session", name, "--scrollback", "100", "--format", "ansi"])).ansi;
  expect(rows).toMatch(/^1\r?$/m);
});
