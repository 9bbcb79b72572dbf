import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useWorld } from "../helpers/harness.ts";

const world = useWorld();

test("vim: insert text, :wq, and the file on disk has it", async () => {
  const file = join(world.dir, "note.txt");
  writeFileSync(file, "");
  const { name } = await world.spawn(["vim", "-u", "NONE", "-N", file]);
  await world.json(["wait", "--session", name, "--alt-screen", "on", "--text", "note.txt", "--all"]);
  await world.json(["press", "--session", name, "i", "--wait-text", "-- INSERT --"]);
  await world.json(["type", "--session", name, "hello from tuiwright", "--wait-text", "hello from tuiwright"]);
  await world.json(["press", "--session", name, "Escape", "--wait-text", "-- INSERT --", "--gone"]);
  await world.json(["type", "--session", name, ":wq"]);
  const done = await world.json(["press", "--session", name, "Enter", "--wait-exit"]);
  expect(done.wait.exit).toEqual({ code: 0, signal: null });
  expect(readFileSync(file, "utf8")).toBe("hello from tuiwright\n");
});

test("vim: arrows honour application cursor mode", async () => {
  const file = join(world.dir, "lines.txt");
  writeFileSync(file, "first\nsecond\nthird\n");
  const { name } = await world.spawn(["vim", "-u", "NONE", "-N", file]);
  await world.json(["wait", "--session", name, "--text", "third"]);
  const meta = (await world.json(["snapshot", "--session", name, "--include-meta"])).meta;
  expect(meta.altScreen).toBe(true);
  await world.json(["press", "--session", name, "Down", "Down", "--wait-cursor", "2,0"]);
  await world.json(["press", "--session", name, "Up", "--wait-cursor", "1,0"]);
  await world.json(["type", "--session", name, ":q!"]);
  await world.json(["press", "--session", name, "Enter", "--wait-exit"]);
});

test("python3 REPL: 1+1 gives 2, and C-d ends it with status 0", async () => {
  const { name } = await world.spawn(["python3", "-q"]);
  await world.json(["wait", "--session", name, "--regex", "^>>>$"]);
  await world.json(["type", "--session", name, "1+1"]);
  await world.json(["press", "--session", name, "Enter", "--wait-regex", "^2\\n>>>$"]);
  const done = await world.json(["press", "--session", name, "C-d", "--wait-exit"]);
  expect(done.wait.exit).toEqual({ code: 0, signal: null });
});

test("less: pages a file and quits", async () => {
  const file = join(world.dir, "long.txt");
  writeFileSync(file, Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  const { name } = await world.spawn(["less", file], ["--rows", "20"]);
  await world.json(["wait", "--session", name, "--regex", "^line 19$"]);
  await world.json(["press", "--session", name, "Space", "--wait-regex", "^line 38$"]);
  await world.json(["press", "--session", name, "G", "--wait-text", "(END)"]);
  const done = await world.json(["press", "--session", name, "q", "--wait-exit"]);
  expect(done.wait.exit.code).toBe(0);
});

test("htop runs on the alternate screen and quits on q", async () => {
  const { name } = await world.spawn(["htop"], ["--cols", "140", "--rows", "45"]);
  await world.json(["wait", "--session", name, "--text", "F10Quit", "--alt-screen", "on", "--all"]);
  const done = await world.json(["press", "--session", name, "q", "--wait-exit"]);
  expect(done.wait.exit.code).toBe(0);
});
