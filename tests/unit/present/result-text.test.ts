// How results read as text (the CLI's human and --plain output, MCP's text part). Each fixture
// is parsed by the method's own result schema first, so it is a result the daemon could send.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { METHODS, type MethodName, type Result } from "../../../lib/protocol/methods.ts";
import { formatExit, formatList, rendererOf, type OutputMode } from "../../../lib/present/result-text.ts";

function result<M extends MethodName>(method: M, value: unknown): Result<M> {
  return v.parse(METHODS[method].result, value) as Result<M>;
}
const render = (method: MethodName, value: unknown, mode: OutputMode) => rendererOf(method)(result(method, value), mode);

const session = (name: string, more: Record<string, unknown> = {}) => ({
  name, pid: 4242, argv: ["vim", "notes.txt"], cwd: "/home/u", cols: 80, rows: 24, state: "running", exit: null,
  startedAt: "2026-01-01T00:00:00.000Z", revision: 7, title: "", cast: null, kind: "program", ...more,
});
const turnInfo = (state: string) => ({ id: 3, prompt: "fix it", state, submitted: 10, taken: 12, takenBy: "busy mark", changed: 40, ref: null });
const block = (more: Record<string, unknown> = {}) => ({
  session: "sh", block: 5, seq: 5, command: "seq 1000", exitCode: 0, output: "1\n2\n", outputTruncated: false, outputChars: 4,
  startedAt: "2026-01-01T00:00:00.000Z", endedAt: "2026-01-01T00:00:01.000Z", cwd: "/tmp", cursor: 99, ...more,
});

describe("list", () => {
  const listing = {
    sessions: [session("editor"), session("build-and-test-long", { state: "exited", exit: { code: 2, signal: null }, argv: ["make", "test"] }), session("top", { state: "exited", exit: { code: null, signal: "SIGKILL" } })],
    current: "editor",
    lost: [{ name: "old", pid: 99, argv: ["htop", "-d", "5"], cast: "/state/old.cast", startedAt: "2026-01-01T00:00:00.000Z", killed: true }],
  };

  test("the current session is marked with *, the others are not, and exited ones say how they ended", () => {
    const lines = render("list", listing, "human").split("\n");
    expect(lines[0]).toMatch(/^ {2}NAME +PID +SIZE +STATE +COMMAND$/);
    expect(lines[1]).toMatch(/^\* editor +4242 +80x24 +running +vim notes\.txt$/);
    expect(lines[2]).toMatch(/^ {2}build-and-test-long +4242 +80x24 +exit code 2 +make test$/);
    expect(lines[3]).toMatch(/^ {2}top +4242 +80x24 +killed by SIGKILL +vim notes\.txt$/);
  });

  test("columns line up under their headers whatever the name lengths", () => {
    const [header, ...rows] = render("list", listing, "human").split("\n");
    const cells = [["editor", "4242", "80x24", "running", "vim notes.txt"], ["build-and-test-long", "4242", "80x24", "exit code 2", "make test"], ["top", "4242", "80x24", "killed by SIGKILL", "vim notes.txt"]];
    const starts = ["NAME", "PID", "SIZE", "STATE", "COMMAND"].map((title) => header!.indexOf(title));
    cells.forEach((row, r) => {
      let from = 0;
      row.forEach((cell, c) => {
        from = rows[r]!.indexOf(cell, from);
        expect({ cell, at: from }).toEqual({ cell, at: starts[c]! });
      });
    });
  });

  test("sessions lost with a previous daemon are listed, with whether their program was killed and their recording", () => {
    const text = render("list", listing, "human");
    expect(text).toContain("lost: old (htop -d 5) died with the previous daemon; its leftover program was killed; recording /state/old.cast");
    const alone = render("list", { sessions: [], current: null, lost: [{ ...listing.lost[0], killed: false, cast: null }] }, "human");
    expect(alone).toBe("no sessions\nlost: old (htop -d 5) died with the previous daemon");
    expect(render("list", { sessions: [], current: null, lost: [] }, "human")).toBe("no sessions");
  });

  test("plain is the names only, one a line, for scripts", () => {
    expect(render("list", listing, "plain")).toBe("editor\nbuild-and-test-long\ntop");
    expect(formatList(result("list", listing))).toBe(render("list", listing, "human"));
  });
});

describe("wait", () => {
  const fired = { fired: ["text:ready", "settled:200"], revision: 12, hash: "abc", elapsedMs: 340, exit: null };

  test("human says what fired, at which revision, after how long; with the turn when a turn condition fired", () => {
    expect(render("wait", fired, "human")).toBe("fired: text:ready, settled:200 (revision 12, 340 ms)");
    expect(render("wait", { ...fired, turn: { ...turnInfo("approval"), ref: "@claude.approval" } }, "human"))
      .toBe("fired: text:ready, settled:200 (revision 12, 340 ms)\nturn 3: approval (@claude.approval)");
    expect(render("wait", { ...fired, text: "$ ready" }, "human")).toBe("fired: text:ready, settled:200 (revision 12, 340 ms)\n$ ready");
  });

  test("plain is the screen text when asked for, else the fired conditions one a line", () => {
    expect(render("wait", fired, "plain")).toBe("text:ready\nsettled:200");
    expect(render("wait", { ...fired, text: "$ ready" }, "plain")).toBe("$ ready");
    expect(render("wait", { ...fired, text: "" }, "plain")).toBe("");
  });
});

describe("exec", () => {
  test("a finished block: its output, then its number, exit code and cwd", () => {
    expect(render("exec", block(), "human")).toBe("1\n2\n[block 5 exited 0 in /tmp]");
    expect(render("exec", block(), "plain")).toBe("1\n2");
    expect(render("exec", block({ exitCode: null, cwd: null }), "human")).toBe("1\n2\n[block 5 exited ? in ?]");
  });

  test("truncated output says how much was returned and where the rest is, in both modes", () => {
    const cut = block({ output: "1\n2\n3\n4\n5\n", outputTruncated: true, outputChars: 3893 });
    const hint = "[output truncated: 10 of 3893 bytes; `tuiwright block 5` has more]";
    expect(render("exec", cut, "human")).toBe(`1\n2\n3\n4\n5\n${hint}\n[block 5 exited 0 in /tmp]`);
    expect(render("exec", cut, "plain")).toBe(`1\n2\n3\n4\n5\n${hint}`);
  });

  test("the truncation hint counts both sides in UTF-8 bytes, the unit of outputChars and cursors", () => {
    const wide = block({ output: "é漢\n", outputTruncated: true, outputChars: 100 });
    expect(render("exec", wide, "plain")).toBe("é漢\n[output truncated: 6 of 100 bytes; `tuiwright block 5` has more]");
  });

  test("without shell integration it says the output came from the screen and the exit code is unknown", () => {
    const screen = block({ exitCode: null, integration: false });
    expect(render("exec", screen, "human")).toBe("1\n2\n[block 5 exited ? in /tmp (no shell integration: output read from the screen, exit code unknown)]");
    expect(render("exec", block(), "human")).not.toContain("no shell integration");
    expect(render("exec", screen, "plain")).toBe("1\n2");
  });

  test("an interactive start gives the output cursor and how to go on", () => {
    const started = { session: "sh", cursor: 1234, mode: "interactive", block: 6 };
    expect(render("exec", started, "plain")).toBe("1234");
    expect(render("exec", started, "human")).toBe("started interactively; output cursor 1234 (send input, then wait --output … --from-cursor 1234)");
  });
});

describe("turn", () => {
  const done = { session: "claude", turn: turnInfo("done"), response: { text: "Fixed the bug.", complete: true }, elapsedMs: 5100 };

  test("a complete answer: the state line, then the answer; plain is the answer alone", () => {
    expect(render("turn", done, "human")).toBe("turn 3: done in 5100 ms\nFixed the bug.");
    expect(render("turn", done, "plain")).toBe("Fixed the bug.");
  });

  test("an incomplete answer says so and why (or that part of it is not on screen)", () => {
    const why = render("turn", { ...done, response: { text: "Fixed", complete: false, why: "its start scrolled out of the scrollback" } }, "human");
    expect(why.split("\n")[0]).toBe("turn 3: done in 5100 ms (answer incomplete: its start scrolled out of the scrollback)");
    const unsaid = render("turn", { ...done, response: { text: "Fixed", complete: false } }, "human");
    expect(unsaid.split("\n")[0]).toBe("turn 3: done in 5100 ms (answer incomplete: part of it is not on screen)");
  });

  test("a question: the CLI's message and its choices, the highlighted one marked, each with its ref", () => {
    const asked = {
      session: "claude", turn: { ...turnInfo("approval"), ref: "@claude.approval" }, message: "Allow edit of main.ts?", elapsedMs: 800,
      choices: [{ name: "Yes", ref: "@e4", selected: true }, { name: "No", ref: "@e5" }],
    };
    expect(render("turn", asked, "human")).toBe("turn 3: approval in 800 ms\nAllow edit of main.ts?\n  > Yes  [@e4]\n    No  [@e5]");
    expect(render("turn", asked, "plain")).toBe("Allow edit of main.ts?");
    // An answer and a message: both, answer first.
    expect(render("turn", { ...asked, response: { text: "I will edit main.ts", complete: true } }, "human").split("\n").slice(1, 3))
      .toEqual(["I will edit main.ts", "Allow edit of main.ts?"]);
  });
});

describe("kill, get, spawn: human and plain", () => {
  test("kill never says a killed session is still running", () => {
    expect(render("kill", { session: "s", exit: null }, "human")).toBe("killed session s (exit status unknown)");
    expect(render("kill", { session: "s", exit: null }, "plain")).toBe("exit status unknown");
    expect(render("kill", { session: "s", exit: { code: null, signal: "SIGHUP" } }, "human")).toBe("killed session s (killed by SIGHUP)");
    expect(render("kill", { session: "s", exit: { code: 0, signal: null } }, "plain")).toBe("exit code 0");
    expect(formatExit(null)).toBe("still running"); // what kill must not borrow
  });

  test("get cursor says when the cursor is hidden; plain is row,col", () => {
    const at = (visible: boolean) => ({ session: "s", what: "cursor", value: { row: 4, col: 17, visible } });
    expect(render("get", at(false), "human")).toBe("row 4, col 17 (hidden)");
    expect(render("get", at(true), "human")).toBe("row 4, col 17");
    expect(render("get", at(false), "plain")).toBe("4,17");
  });

  test("get exit: running (plain: nothing) while the program runs, else how it ended; size; text values", () => {
    expect(render("get", { session: "s", what: "exit", value: null }, "human")).toBe("running");
    expect(render("get", { session: "s", what: "exit", value: null }, "plain")).toBe("");
    expect(render("get", { session: "s", what: "exit", value: { code: 3, signal: null } }, "plain")).toBe("exit code 3");
    expect(render("get", { session: "s", what: "size", value: { cols: 100, rows: 30 } }, "human")).toBe("100x30");
    expect(render("get", { session: "s", what: "title", value: "vim — notes" }, "human")).toBe("vim — notes");
    expect(render("get", { session: "s", what: "cwd", value: null }, "plain")).toBe("");
  });

  test("spawn: plain is the name a script captures; human says what started", () => {
    const started = session("editor");
    expect(render("spawn", started, "plain")).toBe("editor");
    expect(render("spawn", started, "human")).toBe("started session editor (pid 4242, 80x24): vim notes.txt");
  });

  test("a method without a renderer reads as indented JSON", () => {
    const subscribed = { subscription: "sub-1" };
    expect(render("subscribe", subscribed, "human")).toBe(JSON.stringify(subscribed, null, 2));
  });
});
