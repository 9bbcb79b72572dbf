// `tuiwright attach`, driven the way a person uses it: it runs in a session of its own (a real
// terminal), shows the target session live, forwards keys only with --write (holding the write
// lease meanwhile), and detaches on Ctrl-].
import { expect, test } from "bun:test";
import { BIN, useWorld } from "../helpers/harness.ts";

const world = useWorld();

async function target(name: string): Promise<void> {
  await world.spawn(["bash", "--norc", "--noprofile"], ["--session", name, "--cols", "60", "--rows", "10"]);
  expect((await world.run(["wait", "--session", name, "--regex", "[$#]$"])).code).toBe(0);
}

async function viewer(name: string, argv: string[]): Promise<void> {
  await world.spawn([BIN, "attach", ...argv], ["--session", name, "--cols", "80", "--rows", "14"]);
  expect((await world.run(["wait", "--session", name, "--text", "tuiwright attach:"])).code).toBe(0);
}

test("read-only: the viewer follows the session live, ignores typing, and Ctrl-] detaches with exit 0", async () => {
  await target("watched");
  await viewer("ro", ["--session", "watched"]);
  expect((await world.run(["--plain", "snapshot", "--session", "ro"])).stdout).toContain("tuiwright attach: watched (read-only)");
  expect((await world.run(["type", "--session", "watched", "echo live-$((40+2))\r"])).code).toBe(0);
  expect((await world.run(["wait", "--session", "ro", "--text", "live-42"])).code).toBe(0);
  // Keys typed into a read-only viewer never reach the session.
  expect((await world.run(["type", "--session", "ro", "echo nope-$((1+1))\r"])).code).toBe(0);
  expect((await world.run(["type", "--session", "watched", "echo after-$((3+4))\r", "--wait-text", "after-7"])).code).toBe(0);
  expect((await world.run(["wait", "--session", "ro", "--text", "after-7"])).code).toBe(0);
  expect((await world.run(["--plain", "snapshot", "--session", "watched"])).stdout).not.toContain("nope-2");
  const detached = await world.run(["--json", "press", "--session", "ro", "C-]", "--wait-exit"]);
  expect(detached.code).toBe(0);
  expect(JSON.parse(detached.stdout).wait.exit).toMatchObject({ code: 0 });
  expect((await world.run(["--plain", "snapshot", "--session", "ro"])).stdout).toContain("tuiwright: detached from watched");
}, 30_000);

test("--write forwards keys and holds the lease: others are refused (exit 75) until it detaches", async () => {
  await target("helped");
  await viewer("rw", ["--session", "helped", "--write"]);
  expect((await world.run(["--plain", "snapshot", "--session", "rw"])).stdout).toContain("(writing: your keys go to it)");
  expect((await world.run(["type", "--session", "rw", "echo helped-$((5*5))\r"])).code).toBe(0);
  expect((await world.run(["wait", "--session", "helped", "--text", "helped-25"])).code).toBe(0);
  const refused = await world.run(["type", "--session", "helped", "x"]);
  expect(refused.code).toBe(75);
  expect((await world.run(["press", "--session", "rw", "C-]", "--wait-exit"])).code).toBe(0);
  // The lease went with the viewer's connection.
  expect((await world.run(["type", "--session", "helped", "echo free\r", "--wait-text", "free"])).code).toBe(0);
}, 30_000);

test("attach without a terminal, to no session, or with arguments is a clear error", async () => {
  const noTty = await world.run(["attach", "--session", "helped"]);
  expect(noTty.code).toBe(64);
  expect(noTty.stderr).toContain("attach needs a terminal on stdin and stdout");
  await world.spawn([BIN, "attach", "--session", "nobody"], ["--session", "lost"]);
  const gone = await world.run(["--json", "wait", "--session", "lost", "--exit", "--all", "--text", "no session named"]);
  expect(JSON.parse(gone.stdout).exit).toMatchObject({ code: 66 });
  expect((await world.run(["attach", "extra"])).code).toBe(64);
}, 30_000);
