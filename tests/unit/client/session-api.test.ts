// The library's Client and Session over any connection (here a recording stand-in): what each
// call sends, how sessions clean up, and the test helpers that wait on the screen.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Client, expectSession, Session, type Rpc } from "../../../lib/client/session-api.ts";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";
import { formatSnapshotFile } from "../../../lib/record/snapshot-file.ts";
import { cleanUp, tempDir } from "./fake-daemon.ts";

afterEach(cleanUp);

type Call = { method: string; params: any };

/** A connection that records calls and answers each with `answer` (a value, or a thrown error). */
function recordingRpc(answer: (call: Call) => unknown = () => ({})): Rpc & { calls: Call[]; closed: boolean } {
  const rpc = {
    calls: [] as Call[],
    closed: false,
    async call(method: string, params: unknown) {
      const call = { method, params };
      rpc.calls.push(call);
      return answer(call);
    },
    close() { rpc.closed = true; },
  };
  return rpc;
}

test("spawn starts the program in this process's cwd with this environment, the given env merged over it", async () => {
  const rpc = recordingRpc(() => ({ name: "vim-1" }));
  const session = await new Client(rpc, "1.0.0").spawn({ argv: ["vim"], env: { EDITOR_THEME: "dark", HOME: "/tmp/home" } });
  expect(session).toBeInstanceOf(Session);
  expect(session.name).toBe("vim-1");
  const { method, params } = rpc.calls[0]!;
  expect(method).toBe("spawn");
  expect(params.cwd).toBe(process.cwd());
  expect(params.argv).toEqual(["vim"]);
  expect(params.env.PATH).toBe(process.env.PATH);
  expect(params.env).toMatchObject({ EDITOR_THEME: "dark", HOME: "/tmp/home", TERM: "xterm-256color" });
  expect("replaceEnv" in params).toBe(false);
});

test("spawn with replaceEnv sends the given environment alone (with TERM); a given cwd wins", async () => {
  const rpc = recordingRpc(() => ({ name: "s" }));
  await new Client(rpc, "1.0.0").spawn({ argv: ["env"], env: { ONLY: "1" }, replaceEnv: true, cwd: "/srv" });
  expect(rpc.calls[0]!.params.env).toEqual({ ONLY: "1", TERM: "xterm-256color" });
  expect(rpc.calls[0]!.params.cwd).toBe("/srv");
  expect("replaceEnv" in rpc.calls[0]!.params).toBe(false);
});

test("a session's calls name that session, whatever the params say", async () => {
  const rpc = recordingRpc(() => ({ text: "screen" }));
  const session = new Client(rpc, "1.0.0").session("editor");
  await session.type("hello", { session: "other" } as never);
  await session.press("Enter");
  await session.press(["C-x", "C-s"]);
  await session.click("@e3");
  await session.exec("ls", { timeoutMs: 5000 });
  await session.wait({ text: ["ready"] });
  expect(await session.text()).toBe("screen");
  expect(rpc.calls).toEqual([
    { method: "type", params: { text: "hello", session: "editor" } },
    { method: "press", params: { keys: ["Enter"], session: "editor" } },
    { method: "press", params: { keys: ["C-x", "C-s"], session: "editor" } },
    { method: "click", params: { target: "@e3", session: "editor" } },
    { method: "exec", params: { command: "ls", timeoutMs: 5000, session: "editor" } },
    { method: "wait", params: { text: ["ready"], session: "editor" } },
    { method: "snapshot", params: { session: "editor" } },
  ]);
});

test("`await using` kills the session; one already gone is fine, any other failure is thrown", async () => {
  const gone = recordingRpc(() => { throw new TuiwrightError("no-such-session", "no session named s"); });
  await new Client(gone, "1.0.0").session("s")[Symbol.asyncDispose]();
  expect(gone.calls).toEqual([{ method: "kill", params: { session: "s" } }]);
  const down = recordingRpc(() => { throw new TuiwrightError("daemon-unavailable", "the daemon closed the connection"); });
  expect(await new Client(down, "1.0.0").session("s")[Symbol.asyncDispose]().catch((e: TuiwrightError) => e.errorName)).toBe("daemon-unavailable");
  const client = new Client(gone, "1.0.0");
  await client[Symbol.asyncDispose]();
  expect(gone.closed).toBe(true);
});

test("toShow waits for text, or a regex as /SOURCE/FLAGS, on the daemon (10 s unless told)", async () => {
  const rpc = recordingRpc(() => ({ fired: ["text"] }));
  const session = new Client(rpc, "1.0.0").session("s");
  await expectSession(session).toShow("Ready");
  await expectSession(session).toShow(/done in \d+s/i, { timeoutMs: 500 });
  expect(rpc.calls.map((c) => c.params)).toEqual([
    { text: ["Ready"], timeoutMs: 10_000, session: "s" },
    { regex: ["/done in \\d+s/i"], timeoutMs: 500, session: "s" },
  ]);
});

describe("toMatchScreen", () => {
  const savedCI = process.env.CI;
  afterEach(() => {
    if (savedCI === undefined) delete process.env.CI;
    else process.env.CI = savedCI;
  });

  /** A screen that shows `screens[i]` at revision i; `wait` says what fired (or throws). */
  function screenRpc(screens: string[], onWait: (params: any) => unknown) {
    let revision = 0;
    return recordingRpc(({ method, params }) => {
      if (method === "snapshot") return { session: "s", format: "text", revision, hash: "h", cols: 20, rows: 2, text: screens[Math.min(revision, screens.length - 1)] };
      if (method === "wait") {
        const answer = onWait(params);
        revision++;
        return answer;
      }
      throw new Error(`unexpected ${method}`);
    });
  }
  const golden = (screen: string[]) => formatSnapshotFile({ cols: 20, rows: 2, masks: [], screen, outline: null });

  test("toMatchScreen writes a missing golden from the screen once it has settled", async () => {
    delete process.env.CI;
    const file = `${tempDir()}/menu.snap`;
    const rpc = screenRpc(["File  Edit\nready"], () => ({ fired: ["settled 200"] }));
    await expectSession(new Client(rpc, "1.0.0").session("s")).toMatchScreen(file);
    expect(rpc.calls.map((c) => c.method)).toEqual(["wait", "snapshot"]);
    expect(rpc.calls[0]!.params).toMatchObject({ settledMs: 200 });
    expect(readFileSync(file, "utf8")).toBe(golden(["File  Edit", "ready"]));
  });

  test("toMatchScreen under CI=true refuses to write a missing golden", async () => {
    process.env.CI = "true";
    const file = `${tempDir()}/menu.snap`;
    const rpc = screenRpc(["x"], () => ({ fired: ["settled 200"] }));
    const error = await expectSession(new Client(rpc, "1.0.0").session("s")).toMatchScreen(file).catch((e: unknown) => e);
    expect(error).toMatchObject({ errorName: "expectation-failed" });
    expect(existsSync(file)).toBe(false);
    expect(rpc.calls).toEqual([]);
  });

  test("toMatchScreen passes as soon as the screen equals the golden, after changes if need be", async () => {
    delete process.env.CI;
    const file = `${tempDir()}/menu.snap`;
    writeFileSync(file, golden(["File  Edit", "ready"]));
    const rpc = screenRpc(["File  Edit\nloading", "File  Edit\nready"], (params) => ({ fired: [`changed-since ${params.changedSince}`] }));
    await expectSession(new Client(rpc, "1.0.0").session("s")).toMatchScreen(file);
    expect(rpc.calls.map((c) => c.method)).toEqual(["snapshot", "wait", "snapshot"]);
    expect(rpc.calls[1]!.params).toMatchObject({ changedSince: 0, settledMs: 200 });
  });

  test("toMatchScreen fails with the diff once the differing screen is still", async () => {
    delete process.env.CI;
    const file = `${tempDir()}/menu.snap`;
    writeFileSync(file, golden(["File  Edit", "ready"]));
    const rpc = screenRpc(["File  Edit\nerror!"], () => ({ fired: ["settled 50"] }));
    const error = await expectSession(new Client(rpc, "1.0.0").session("s")).toMatchScreen(file, { settledMs: 50 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ errorName: "expectation-failed" });
    expect((error as Error).message).toContain("the screen has been still for 50 ms");
    expect((error as Error).message).toContain("-ready\n+error!");
    expect(readFileSync(file, "utf8")).toBe(golden(["File  Edit", "ready"])); // the golden is kept
  });

  test("toMatchScreen fails with the diff when the wait times out; other wait errors pass through", async () => {
    delete process.env.CI;
    const file = `${tempDir()}/menu.snap`;
    writeFileSync(file, golden(["ready"]));
    const timedOut = screenRpc(["busy"], () => { throw new TuiwrightError("timeout", "timed out"); });
    const error = await expectSession(new Client(timedOut, "1.0.0").session("s")).toMatchScreen(file, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ errorName: "expectation-failed" });
    expect((error as Error).message).toContain("after 300 ms");
    const gone = screenRpc(["busy"], () => { throw new TuiwrightError("session-exited", "exited"); });
    expect(await expectSession(new Client(gone, "1.0.0").session("s")).toMatchScreen(file).catch((e: TuiwrightError) => e.errorName)).toBe("session-exited");
  });

  test("toMatchScreen with update: true rewrites an existing golden from the screen", async () => {
    process.env.CI = "true";
    const file = `${tempDir()}/menu.snap`;
    writeFileSync(file, golden(["old"]));
    const rpc = screenRpc(["new screen"], () => ({ fired: ["settled 200"] }));
    await expectSession(new Client(rpc, "1.0.0").session("s")).toMatchScreen(file, { update: true });
    expect(readFileSync(file, "utf8")).toBe(golden(["new screen"]));
  });
});
