// A session's process limit is in place from its program's first instruction (issue 24, item 9):
// a limit set after the spawn let a fork bomb's first children keep the user's whole limit on a
// loaded machine. A program that cannot run is the same error a spawn without a limit gives.
import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";
import { spawnPty, type Pty } from "../../../lib/pty/pty.ts";
import { limitedStart } from "../../../lib/pty/task-limit.ts";
import { libc, RLIMIT_NPROC } from "../../../lib/runtime/libc.ts";

let pty: Pty | null = null;
afterEach(() => {
  pty?.close();
  pty = null;
});

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm" };

/** Below this process's own limit (an unprivileged process may only lower it). */
function aLowerLimit(): number {
  const [soft] = libc()!.getLimit(0, RLIMIT_NPROC)!;
  return Number(soft < 5000n ? soft - 1n : 4999n);
}

function start(argv: string[], taskLimit: number, cwd = "/"): Pty {
  return spawnPty({ argv, cwd, env, cols: 80, rows: 24, taskLimit, onData: () => {}, onClose: () => {} });
}

test("started through prlimit(1), the program runs under the session's limit from its first instruction, soft and hard", () => {
  const limit = aLowerLimit();
  const argv = ["sh", "-c", "grep '^Max processes' /proc/self/limits"];
  const start = limitedStart(argv, limit, "/", env);
  if (!existsSync("/usr/bin/prlimit") && !existsSync("/bin/prlimit")) {
    // Without util-linux the limit can only be set after the spawn (pty.ts does, descendants too).
    expect(start).toEqual({ argv, limitedBeforeStart: false });
    return;
  }
  expect(start.limitedBeforeStart).toBe(true);
  // Run as is, with nobody setting a limit after the start: what the program sees is the wrapper's.
  const ran = Bun.spawnSync(start.argv, { env });
  expect(ran.stdout.toString().trim().split(/\s+/).slice(2, 4)).toEqual([String(limit), String(limit)]);
});

test("a missing or non-executable program under a limit is the same error as without one", () => {
  const dir = mkdtempSync("/tmp/tw-task-limit-");
  try {
    writeFileSync(join(dir, "plain"), "#!/bin/sh\n");
    chmodSync(join(dir, "plain"), 0o644);
    const errorOf = (argv: string[], taskLimit: number | null) => {
      try {
        pty = spawnPty({ argv, cwd: dir, env, cols: 80, rows: 24, taskLimit, onData: () => {}, onClose: () => {} });
        return null;
      } catch (error) {
        return error instanceof TuiwrightError ? { name: error.errorName, message: error.message } : String(error);
      }
    };
    const limit = aLowerLimit();
    expect(errorOf(["no-such-program-xyz"], limit)).toEqual({ name: "no-such-program", message: 'no such program: "no-such-program-xyz"' });
    expect(errorOf(["/no/such/program"], limit)).toEqual(errorOf(["/no/such/program"], null));
    expect(errorOf(["./plain"], limit)).toEqual({ name: "permission", message: 'not executable: "./plain"' });
    expect(errorOf(["./plain"], limit)).toEqual(errorOf(["./plain"], null));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a program found by a relative path runs under the limit", async () => {
  const dir = mkdtempSync("/tmp/tw-task-limit-");
  try {
    writeFileSync(join(dir, "tool"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(dir, "tool"), 0o755);
    pty = start(["./tool"], aLowerLimit(), dir);
    expect((await pty.exited).code).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
