// Terminal-app operations keep their word: they answer ok only once the screen settled on the
// outcome their manifest names (the evidence comes with the answer), a program's refusal is an
// E_* error with the program's own message, an item-bound operation acts on the item the agent
// referenced or on nothing, and an argument can never become keys of its own. Real vim, less
// and htop on real PTYs, through the compiled binary.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive, World } from "../helpers/harness.ts";
import { findItem } from "../helpers/markdown-agent.ts";

setDefaultTimeout(120_000);

let world: World;
beforeAll(async () => {
  world = await World.start();
  await world.json(["desktop", "create", "--op-timeout", "30000"]);
});
afterAll(async () => { await world[Symbol.asyncDispose](); });

type Outcome = { code: number; ack?: any; error?: { code: number; message: string; data: Record<string, any> } };

async function exec(command: string, app: string): Promise<Outcome> {
  const run = await world.run(["--json", "desktop", "exec", command, "--app", app]);
  const body = JSON.parse(run.stdout);
  return run.code === 0 ? { code: 0, ack: body } : { code: run.code, error: body.error };
}

async function screen(session: string): Promise<string> {
  return (await world.run(["snapshot", "-s", session])).stdout;
}

async function openVim(session: string, file: string, content = "first line\nsecond line\n"): Promise<string> {
  writeFileSync(file, content);
  await world.spawn(["vim", "-n", "-u", "NONE", "-N", file], ["--session", session, "--cwd", world.dir]);
  await world.run(["wait", "-s", session, "--text", content.split("\n")[0]!]);
  return (await world.json(["desktop", "open-session", session])).app;
}

test("vim: quit with unsaved changes is E_REFUSED with E37 (vim still runs); quit answers only once vim has exited", async () => {
  const app = await openVim("q1", join(world.dir, "q1.txt"));
  expect((await exec(`execute append_line --text "unsaved"`, app)).code).toBe(0);
  const refused = await exec("execute quit", app);
  expect(refused.code).toBe(1);
  expect(refused.error!.message).toMatch(/^E_REFUSED: vim refused quit: E37: No write since last change/);
  expect(refused.error!.data).toMatchObject({ name: "app-refused", aotui: "E_REFUSED", recoverable: true, rule: "vim-error" });
  expect(refused.error!.data.evidence[0]).toMatchObject({ source: "manifest", adapter: "vim", rule: "vim-error" });
  expect((await world.json(["list"])).sessions.find((s: any) => s.name === "q1").state).toBe("running");
  const quit = await exec("execute quit_discarding", app);
  expect(quit.code).toBe(0);
  expect(quit.ack.evidence[0]).toMatchObject({ source: "manifest", adapter: "vim", rule: "exited" });
  // The answer came after the exit, not before it: no wait needed to see it.
  expect((await world.json(["list"])).sessions.find((s: any) => s.name === "q1").state).not.toBe("running");
});

test("vim: save_as into a missing folder is E212, over an existing file E13; a good one answers with vim's written message", async () => {
  const app = await openVim("w1", join(world.dir, "w1.txt"));
  const missing = await exec(`execute save_as --path /nonexistent/dir/x.txt`, app);
  expect(missing.code).toBe(1);
  expect(missing.error!.message).toContain("E212: Can't open file for writing");
  const existing = await exec(`execute save_as --path /proc/version`, app);
  expect(existing.code).toBe(1);
  expect(existing.error!.message).toContain("E13: File exists");
  const good = await exec(`execute save_as --path "${join(world.dir, "w1 copy.txt")}"`, app);
  expect(good.code).toBe(0);
  expect(good.ack.message).toMatch(/w1 copy\.txt" \[New\] 2L, 23B written/);
  expect(good.ack.evidence).toEqual([expect.objectContaining({ source: "manifest", adapter: "vim", rule: "written", cells: expect.any(Object), revision: expect.any(Number) })]);
  expect(readFileSync(join(world.dir, "w1 copy.txt"), "utf8")).toBe("first line\nsecond line\n");
});

test("vim: a failed search is E486; append_line answers with vim back in normal mode and the line in the buffer", async () => {
  const app = await openVim("s1", join(world.dir, "s1.txt"));
  const notFound = await exec(`execute search --pattern nowhere`, app);
  expect(notFound.code).toBe(1);
  expect(notFound.error!.message).toContain("E486: Pattern not found: nowhere");
  const found = await exec(`execute search --pattern "sec.nd"`, app);
  expect(found.code).toBe(0);
  expect(found.ack.message).toBe("line 2");
  const appended = await exec(`execute append_line --text "third | line"`, app);
  expect(appended.code).toBe(0);
  // Read at once, no wait: the answer came after vim had the line and was in normal mode.
  const text = await screen("s1");
  expect(text).toContain("third | line");
  expect(text).not.toContain("-- INSERT --");
  expect((await world.json(["snapshot", "-s", "s1", "--format", "outline", "--select", "@vim.cmdline"]).catch(() => null))).toBeNull();
});

test("vim: replace_all's pattern cannot end the command (no shell runs); a pattern with / works", async () => {
  const app = await openVim("r1", join(world.dir, "r1.txt"), "a/b and x/y\n");
  const canary = join(world.dir, "pwned");
  const injected = await exec(`execute replace_all --pattern 'x/y/|!touch ${canary}|s/qq' --replacement z`, app);
  expect(injected.code).toBe(1);
  expect(injected.error!.message).toContain("E486: Pattern not found");
  expect(existsSync(canary)).toBe(false);
  const slash = await exec(`execute replace_all --pattern "a/b" --replacement "c&d\\\\1"`, app);
  expect(slash.code).toBe(0);
  expect(await screen("r1")).toContain("c&d\\1 and x/y");
});

test("vim: save_as and open_file with shell and vim metacharacters name files, they run nothing", async () => {
  const app = await openVim("m1", join(world.dir, "m1.txt"));
  const before = new Set(readdirSync(world.dir));
  expect((await exec(`execute save_as --path 'x|!touch M'`, app)).code).toBe(0);
  const opened = await exec(`execute open_file --path '+!touch\\ M file'`, app);
  expect(opened.code).toBe(0);
  const created = readdirSync(world.dir).filter((name) => !before.has(name));
  expect(created).toEqual(["x|!touch M"]);
  expect(opened.ack.message).toBe("+!touch\\ M file");
});

test("an argument with a control character is E_INVALID_ARG and nothing is typed", async () => {
  const app = await openVim("c1", join(world.dir, "c1.txt"));
  const before = (await world.json(["snapshot", "-s", "c1"])).revision;
  const refused = await exec(`execute open_file --path "x\r!touch M\r"`, app);
  expect(refused.code).toBe(65);
  expect(refused.error!.message).toMatch(/^E_INVALID_ARG: open_file --path "x\\r!touch M\\r" cannot be typed safely: it contains a carriage return/);
  expect(refused.error!.data).toMatchObject({ name: "invalid-argument", aotui: "E_INVALID_ARG", recoverable: true });
  expect((await world.json(["snapshot", "-s", "c1"])).revision).toBe(before);
  expect(existsSync(join(world.dir, "M"))).toBe(false);
});

test("less: next_match with no further match is E_REFUSED with less's message; search answers once less moved", async () => {
  const file = join(world.dir, "pager.txt");
  writeFileSync(file, Array.from({ length: 200 }, (_, i) => `line ${i + 1}${i === 149 ? " needle" : ""}`).join("\n") + "\n");
  await world.spawn(["less", file], ["--session", "pg"]);
  await world.run(["wait", "-s", "pg", "--text", "line 1"]);
  const app = (await world.json(["desktop", "open-session", "pg"])).app;
  const found = await exec("execute search --pattern needle", app);
  expect(found.code).toBe(0);
  expect(found.ack.evidence.map((e: any) => [e.adapter, e.rule])).toEqual([["less", "prompt"], ["less", "moved"]]);
  expect(await screen("pg")).toMatch(/^line 150 needle/);
  const again = await exec("execute next_match", app);
  expect(again.code).toBe(1);
  expect(again.error!.message).toBe("E_REFUSED: less refused next_match: Pattern not found");
  const bad = await exec("execute search --pattern 'a('", app);
  expect(bad.code).toBe(1);
  expect(bad.error!.message).toContain("Invalid pattern");
});

test("htop: kill_process on a process that exited before the command is E_NOT_FOUND and kills nothing else", async () => {
  const gone = Bun.spawn(["sleep", "3613"]);
  const bystander = Bun.spawn(["sleep", "3614"]);
  try {
    await world.spawn(["htop"], ["--session", "ht", "--cols", "160"]);
    await world.run(["wait", "-s", "ht", "--text", "PID"]);
    const app = (await world.json(["desktop", "open-session", "ht"])).app;
    expect((await exec(`execute filter --text "sleep 361"`, app)).code).toBe(0);
    await world.run(["wait", "-s", "ht", "--text", `${gone.pid} `, "--text", `${bystander.pid} `, "--all"]);
    const item = findItem((await world.run(["desktop", "snapshot"])).stdout, `${gone.pid} `);
    // The agent read the list; the process exits before its command arrives.
    gone.kill("SIGKILL");
    await gone.exited;
    await world.run(["wait", "-s", "ht", "--text", `${gone.pid} `, "--gone", "--timeout", "20000"]);
    const refused = await exec(`execute kill_process --process ${item.ref}`, app);
    expect(refused.code).toBe(66);
    expect(refused.error!.message).toContain(`E_NOT_FOUND: kill_process: process ${gone.pid} is no longer in htop's list`);
    expect(processAlive(bystander.pid)).toBe(true);
    // The one it references is killed, with htop's list as the evidence.
    const markup = (await world.run(["desktop", "snapshot"])).stdout;
    const target = findItem(markup, `${bystander.pid} `);
    const killed = await exec(`execute kill_process --process ${target.ref}`, app);
    expect(killed.code).toBe(0);
    expect(killed.ack.evidence.map((e: any) => e.rule)).toEqual(["selected", "signal-menu", "process-gone"]);
    expect(await bystander.exited).not.toBe(0);
    expect(bystander.signalCode).toBe("SIGTERM");
  } finally {
    gone.kill("SIGKILL");
    bystander.kill("SIGKILL");
  }
});

test("top: kill_process names the referenced PID to top itself; a process gone is E_NOT_FOUND with top's message", async () => {
  const target = Bun.spawn(["sleep", "3621"]);
  const gone = Bun.spawn(["sleep", "3622"]);
  try {
    await world.spawn(["top", "-d", "1", "-p", `${target.pid},${gone.pid}`], ["--session", "tp", "--cols", "160", "--rows", "30"]);
    await world.run(["wait", "-s", "tp", "--text", "PID"]);
    const app = (await world.json(["desktop", "open-session", "tp"])).app;
    await world.run(["wait", "-s", "tp", "--regex", `^\\s*${target.pid} `, "--regex", `^\\s*${gone.pid} `, "--all", "--timeout", "30000"]);
    const markup = (await world.run(["desktop", "snapshot"])).stdout;
    const row = (pid: number) => new RegExp(`^\\s*\\d+\\. \\[${pid} .*\\]\\(item:(tasks\\[\\d+\\])\\)$`, "m").exec(markup)![1]!;
    const goneRef = { ref: row(gone.pid) };
    const targetRef = { ref: row(target.pid) };
    gone.kill("SIGKILL");
    await gone.exited;
    const refused = await exec(`execute kill_process --process ${goneRef.ref}`, app);
    expect(refused.code).toBe(66);
    expect(refused.error!.message).toMatch(new RegExp(`^E_NOT_FOUND: kill_process: Failed signal pid '${gone.pid}' with '15': No such process`));
    const killed = await exec(`execute kill_process --process ${targetRef.ref}`, app);
    expect(killed.code).toBe(0);
    expect(killed.ack.evidence.map((e: any) => e.rule)).toEqual(["pid-prompt", "signal-prompt", "signal-sent"]);
    expect(await target.exited).not.toBe(0);
    expect(target.signalCode).toBe("SIGTERM");
  } finally {
    target.kill("SIGKILL");
    gone.kill("SIGKILL");
  }
});
