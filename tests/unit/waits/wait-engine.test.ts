// The wait engine against a real headless screen, in process: exact revision and timing
// semantics without a PTY in between.
import { afterEach, expect, test } from "bun:test";
import type { ExitStatusValue } from "../../../lib/protocol/methods.ts";
import { Screen } from "../../../lib/terminal/screen.ts";
import { WaitEngine } from "../../../lib/waits/wait-engine.ts";
import { genericOutline } from "../../../lib/outline/generic.ts";
import { assignRefs } from "../../../lib/outline/refs.ts";
import { failure } from "../../helpers/errors.ts";

let screen: Screen;
let exit: ExitStatusValue | null;
let ended: boolean;
let engine: WaitEngine;
/** When input was last sent to the program (SessionCore sets it as it writes to the PTY). */
let inputAt: number;

function setup(): void {
  screen = new Screen({ cols: 40, rows: 6, scrollback: 100 });
  exit = null;
  ended = false;
  inputAt = 0;
  engine = new WaitEngine(() => ({
    screen, exit, ended,
    outline: () => assignRefs(genericOutline(screen.grid())),
    output: null,
    turns: { get: () => null, latestId: () => 0, root: () => null, notTaken: () => null },
    lastInputAt: inputAt,
  }));
  screen.onChange(() => engine.notify());
}
afterEach(() => screen?.dispose());

const spec = (s: object) => ({ mode: "any" as const, timeoutMs: 5000, ...s });


test("text already on screen returns at once with the revision unchanged", async () => {
  setup();
  await screen.write("ready> ");
  const revision = screen.revision;
  const result = await engine.wait(spec({ text: ["ready>"] }));
  expect(result.revision).toBe(revision);
  expect(result.fired).toEqual(['text "ready>"']);
});

test("text printed later fires on the very write that prints it", async () => {
  setup();
  await screen.write("working");
  let firedAt: number | null = null;
  const waiting = engine.wait(spec({ text: ["LATER"] })).then((r) => { firedAt = r.revision; return r; });
  await screen.write(" still");
  await Promise.resolve();
  expect(firedAt).toBeNull();
  await screen.write(" LATER");
  const revisionOfThatWrite = screen.revision;
  await waiting;
  expect(firedAt!).toBe(revisionOfThatWrite);
  expect(engine.size).toBe(0);
});

test("--gone fires when the text leaves the screen", async () => {
  setup();
  await screen.write("Progress 40%");
  const waiting = engine.wait(spec({ text: ["Progress"], gone: true }));
  await screen.write("\r\x1b[KDone");
  expect((await waiting).fired).toEqual(['text "Progress" gone']);
});

test("any reports which condition fired; all waits for every one", async () => {
  setup();
  const any = engine.wait(spec({ text: ["A-ok", "B-ok"] }));
  const all = engine.wait(spec({ text: ["A-ok", "B-ok"], mode: "all" }));
  let allDone = false;
  void all.then(() => { allDone = true; });
  await screen.write("B-ok ");
  expect((await any).fired).toEqual(['text "B-ok"']);
  await Promise.resolve();
  expect(allDone).toBe(false);
  await screen.write("A-ok");
  expect((await all).fired).toEqual(['text "A-ok"', 'text "B-ok"']);
});

test("settled is measured from the last change: a quiet screen satisfies it at once", async () => {
  setup();
  await screen.write("quiet");
  const result = await engine.wait(spec({ settledMs: 300 })); // quiet since before the wait began
  // Counted from the wait's start the same window would take 300 ms again; from the last change it holds now.
  const again = await engine.wait(spec({ settledMs: 300 }));
  expect(again.elapsedMs).toBeLessThan(300);
  expect(result.fired).toEqual(["settled 300ms"]);
});

test("settled waits while output keeps changing the screen, and fires after the last change", async () => {
  setup();
  const started = performance.now();
  const waiting = engine.wait(spec({ settledMs: 60 }));
  // Changes every ~20 ms keep pushing the 60 ms window back.
  for (let i = 0; i < 5; i++) {
    await screen.write(`line ${i}\r\n`);
    await engine.wait(spec({ settledMs: 20 }));
  }
  const lastChange = screen.lastChangeAt;
  const result = await waiting;
  expect(performance.now() - lastChange).toBeGreaterThanOrEqual(59);
  // Four 20 ms gaps separate the five writes; the 60 ms window starts at the last one.
  expect(performance.now() - started).toBeGreaterThanOrEqual(4 * 20 + 59);
  expect(result.revision).toBe(screen.revision);
});

// Typed text is echoed a little after it is sent (the program reads, then draws). A settled wait
// sent right after `type` must not fire on the screen's quiet from before the input, and one sent
// later counts from the echo, not from its own start (issue 28: `wait --settled 150` fired at 0 ms).
test("settled after an input counts from the input's echo, not from the screen's older quiet", async () => {
  setup();
  await screen.write("prompt> ");
  await engine.wait(spec({ settledMs: 150 })); // the screen is quiet for 150 ms: an older quiet
  inputAt = performance.now(); // `type hello` sent; the program has not echoed yet
  const waiting = engine.wait(spec({ settledMs: 100 }));
  let fired = false;
  void waiting.then(() => { fired = true; });
  await engine.wait(spec({ settledMs: 40 })); // 40 ms after the input, still no echo
  expect(fired).toBe(false);
  await screen.write("hello"); // the echo
  const echoAt = screen.lastChangeAt;
  const echoed = screen.revision;
  const result = await waiting;
  expect(performance.now() - echoAt).toBeGreaterThanOrEqual(99);
  expect(result.revision).toBe(echoed);
});

test("settled after an input is measured from the echo, not from the wait's start", async () => {
  setup();
  await screen.write("prompt> ");
  await engine.wait(spec({ settledMs: 150 }));
  inputAt = performance.now();
  await screen.write("hello"); // sent and echoed
  const echoAt = screen.lastChangeAt;
  await engine.wait(spec({ settledMs: 200 })); // the agent's own work: 200 ms after the echo
  const started = performance.now();
  const result = await engine.wait(spec({ settledMs: 300 }));
  const firedAt = started + result.elapsedMs;
  // From the echo it holds at echo + 300 ms, ~100 ms into this wait; from the wait's start it
  // would take the whole 300 ms again.
  expect(firedAt - echoAt).toBeGreaterThanOrEqual(299);
  expect(result.elapsedMs).toBeLessThan(300);
});

test("settled after an input that draws nothing counts from the input", async () => {
  setup();
  await screen.write("prompt> ");
  await engine.wait(spec({ settledMs: 150 }));
  inputAt = performance.now(); // a key the program takes silently
  await engine.wait(spec({ settledMs: 200 }));
  const started = performance.now();
  const result = await engine.wait(spec({ settledMs: 300 }));
  expect(started + result.elapsedMs - inputAt).toBeGreaterThanOrEqual(299);
  expect(result.elapsedMs).toBeLessThan(300);
});

test("changed-since, cursor, title (text and /regex/) and alt-screen conditions", async () => {
  setup();
  const start = screen.revision;
  const changed = engine.wait(spec({ changedSince: start }));
  const cursor = engine.wait(spec({ cursor: { row: 2, col: 3 } }));
  const title = engine.wait(spec({ title: "/^build \\d+$/" }));
  const alt = engine.wait(spec({ altScreen: true }));
  await screen.write("x");
  expect((await changed).fired).toEqual([`changed-since ${start}`]);
  await screen.write("\x1b[3;4H");
  expect((await cursor).fired).toEqual(["cursor 2,3"]);
  await screen.write("\x1b]2;build 42\x07");
  expect((await title).fired).toEqual(['title "/^build \\\\d+$/"']);
  await screen.write("\x1b[?1049h");
  expect((await alt).fired).toEqual(["alt-screen on"]);
});

test("a bare regex is line-oriented; /re/flags is exact", async () => {
  setup();
  await screen.write("alpha\r\nbeta\r\n");
  expect((await engine.wait(spec({ regex: ["^beta$"] }))).fired).toEqual(["regex /^beta$/m"]);
  const exact = await failure(engine.wait(spec({ regex: ["/^beta$/"], timeoutMs: 0 })));
  expect(exact.errorName).toBe("timeout");
});

test("an action's wait ignores the screen from before the action", async () => {
  setup();
  await screen.write("$ ");
  const before = screen.revision;
  let fired = false;
  const waiting = engine.wait(spec({ text: ["$"] }), { revision: before, at: performance.now() }).then((r) => { fired = true; return r; });
  await Promise.resolve();
  expect(fired).toBe(false);
  await screen.write("ls\r\nfile\r\n$ ");
  expect((await waiting).revision).toBeGreaterThan(before);
});

test("timeout: exit 124 with the unmet conditions, revision and the last rows; 0 checks once", async () => {
  setup();
  await screen.write("one\r\ntwo\r\nthree");
  const error = await failure(engine.wait(spec({ text: ["never"], regex: ["nope"], mode: "all", timeoutMs: 30 })));
  expect(error.errorName).toBe("timeout");
  expect(error.exitCode).toBe(124);
  expect(error.details).toMatchObject({ unmet: ['text "never"', "regex /nope/m"], revision: screen.revision, excerpt: "one\ntwo\nthree" });
  const once = await failure(engine.wait(spec({ text: ["never"], timeoutMs: 0 })));
  expect(once.errorName).toBe("timeout");
  expect(engine.size).toBe(0);
});

test("invalid regex and empty condition sets fail before waiting", () => {
  setup();
  expect(() => engine.wait(spec({ regex: ["(open"] }))).toThrow('invalid regex "(open"');
  expect(() => engine.wait(spec({}))).toThrow("wait needs at least one condition");
});

test("when the program ends, screen waits fail at once but exit waits fire with the status", async () => {
  setup();
  const forText = engine.wait(spec({ text: ["never"] }));
  const forExit = engine.wait(spec({ exit: true }));
  exit = { code: 7, signal: null };
  ended = true;
  engine.notify();
  const error = await failure(forText);
  expect(error.errorName).toBe("session-exited");
  expect(error.message).toBe('the program exited (code 7) before: text "never"');
  expect((await forExit).exit).toEqual({ code: 7, signal: null });
  expect((await failure(engine.wait(spec({ text: ["never"] })))).errorName).toBe("session-exited");
});

test("an aborted wait is dropped at once (its caller hung up), not at its timeout", async () => {
  setup();
  const controller = new AbortController();
  const waiting = engine.wait(spec({ text: ["never"], timeoutMs: 60_000 }), undefined, controller.signal);
  expect(engine.size).toBe(1);
  controller.abort();
  expect(engine.size).toBe(0);
  expect((await failure(waiting)).message).toBe("wait cancelled: the caller disconnected");
});

// Codex, opencode and Pi bracket each redraw with synchronized output (DECSET/DECRST 2026); a
// frame larger than one PTY read arrives in pieces, and in between the screen shows the top of
// the new frame over the bottom of the old one, a state the program never drew.
test("mid-frame (synchronized output) the revision holds and no wait reads the torn screen; the frame's end shows it whole", async () => {
  setup();
  screen.onFrameEnd(() => engine.notify());
  await screen.write("status: working\r\n");
  const before = screen.revision;
  const done = engine.wait(spec({ text: ["status: done"] }));
  let fired = false;
  void done.then(() => { fired = true; });
  // The new frame's first half: "done" is drawn but its answer below is not yet.
  await screen.write("\x1b[?2026h\x1b[H\x1b[2Kstatus: done");
  expect(screen.midFrame).toBe(true);
  expect(screen.revision).toBe(before);
  await engine.wait(spec({ text: ["status: working"], timeoutMs: 0 })).catch(() => undefined);
  expect(fired).toBe(false);
  await screen.write("\r\nanswer: 42\x1b[?2026l");
  expect(screen.midFrame).toBe(false);
  expect(screen.revision).toBe(before + 1);
  const result = await done;
  expect(result.revision).toBe(before + 1);
  expect(screen.text()).toContain("answer: 42");
});

test("a wait begun mid-frame looks when the frame ends, even if the frame changed nothing", async () => {
  setup();
  screen.onFrameEnd(() => engine.notify());
  await screen.write("ready> ");
  await screen.write("\x1b[?2026h");
  const waiting = engine.wait(spec({ text: ["ready>"] }));
  await screen.write("\x1b[?2026l");
  expect((await waiting).fired).toEqual(['text "ready>"']);
});

test("a frame that never ends counts after a second: a program that stalls mid-frame does not freeze waits", async () => {
  setup();
  screen.onFrameEnd(() => engine.notify());
  const before = screen.revision;
  await screen.write("\x1b[?2026hhalf a frame");
  expect(screen.revision).toBe(before);
  const result = await engine.wait(spec({ text: ["half a frame"] }));
  expect(result.revision).toBe(before + 1);
  expect(result.elapsedMs).toBeGreaterThanOrEqual(900);
  // Past the limit the open frame no longer holds anything back.
  await screen.write(" and more");
  expect(screen.revision).toBe(before + 2);
});

test("a prompt's trailing space up to the cursor matches; without padding the cursor text is the text itself", async () => {
  setup();
  await screen.write("line one\r\n$ ");
  // `$ ` ends in a space the rows' text trims: only the cursor's text keeps it.
  expect(screen.texts().text).toBe("line one\n$");
  expect(screen.texts().toCursor).toBe("line one\n$ ");
  const result = await engine.wait(spec({ regex: ["^\\$ $"] }));
  expect(result.fired).toEqual(["regex /^\\$ $/m"]);
  await screen.write("ls");
  const texts = screen.texts();
  expect(texts.toCursor).toBe(texts.text); // one string: a failing condition is not tested twice
  await expect(engine.wait(spec({ regex: ["^\\$ $"], timeoutMs: 0 }))).rejects.toThrow(/timed out/);
});
