// Each built-in manifest against the real program, across a state change.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useWorld } from "../helpers/harness.ts";

const world = useWorld();

type Node = { ref: string; role: string; name: string; value?: string; focused?: boolean; selected?: boolean; children?: Node[] };

async function outline(session: string): Promise<{ adapter: string | null; byRef: Record<string, Node> }> {
  const snap = await world.json(["snapshot", "--session", session, "--format", "outline"]);
  const byRef: Record<string, Node> = {};
  const visit = (nodes: Node[]) => { for (const n of nodes) { byRef[n.ref] = n; if (n.children) visit(n.children); } };
  visit(snap.outline.nodes);
  return { adapter: snap.outline.adapter, byRef };
}

const waitValue = (session: string, ref: string, value: string) => world.json(["wait", "--session", session, "--ref", ref, "--ref-value", value]);

test("vim: @vim.mode follows normal → insert → visual → replace → command; @vim.cmdline; @vim.file", async () => {
  const file = join(world.dir, "notes.txt");
  writeFileSync(file, "alpha\nbeta\n");
  const { name } = await world.spawn(["vim", "-u", "NONE", "-N", file], ["--cols", "80", "--rows", "12"]);
  await waitValue(name, "@vim.file", file);
  let o = await outline(name);
  expect(o.adapter).toBe("vim");
  expect(o.byRef["@vim.mode"]!.value).toBe("unknown"); // no mode message seen yet: normal, or insert without 'showmode'?
  expect(o.byRef["@vim.buffer"]!.name).toStartWith("alpha\nbeta");
  await world.json(["press", "--session", name, "i"]);
  await waitValue(name, "@vim.mode", "insert");
  await world.json(["press", "--session", name, "Escape", "v"]);
  await waitValue(name, "@vim.mode", "visual");
  await world.json(["press", "--session", name, "Escape", "R"]);
  await waitValue(name, "@vim.mode", "replace");
  await world.json(["press", "--session", name, "Escape"]);
  await waitValue(name, "@vim.mode", "normal"); // 'showmode' is on (it showed "-- REPLACE --"): empty means normal
  await world.json(["type", "--session", name, ":echo 42", "--wait-ref", "@vim.cmdline", "--ref-value", "echo 42"]);
  o = await outline(name);
  expect(o.byRef["@vim.mode"]).toMatchObject({ value: "command", focused: true });
  expect(o.byRef["@vim.cmdline"]).toMatchObject({ role: "input", name: ":echo 42", value: "echo 42", focused: true });
  await world.json(["press", "--session", name, "Escape"]);
  await world.json(["wait", "--session", name, "--ref", "@vim.cmdline", "--gone"]);
  await world.json(["type", "--session", name, ":q!\r", "--wait-exit"]);
});

test("vim with laststatus=2: @vim.statusline and @vim.file from it; the buffer stops above it; modes still read", async () => {
  const file = join(world.dir, "status.txt");
  writeFileSync(file, "one\n");
  const { name } = await world.spawn(["vim", "-u", "NONE", "-N", "--cmd", "set laststatus=2", file], ["--cols", "80", "--rows", "10"]);
  await world.json(["wait", "--session", name, "--ref", "@vim.statusline"]);
  let o = await outline(name);
  expect(o.byRef["@vim.statusline"]!.name).toContain("status.txt");
  expect(o.byRef["@vim.file"]!.value).toBe("status.txt"); // vim shows it relative to the cwd
  expect(o.byRef["@vim.buffer"]!.name).not.toContain("status.txt");
  await world.json(["press", "--session", name, "i"]);
  await waitValue(name, "@vim.mode", "insert");
  o = await outline(name);
  expect(o.byRef["@vim.statusline"]).toBeDefined();
  await world.json(["press", "--session", name, "Escape"]);
  await world.json(["type", "--session", name, ":q!\r", "--wait-exit"]);
});

test("less: body, status, and (END) appearing at the end; / is a search prompt", async () => {
  const file = join(world.dir, "pages.txt");
  writeFileSync(file, Array.from({ length: 100 }, (_, i) => `row ${i + 1}`).join("\n") + "\n");
  const { name } = await world.spawn(["less", file], ["--rows", "10"]);
  await world.json(["wait", "--session", name, "--ref", "@less.body[name~=/^row 1$/m]"]);
  let o = await outline(name);
  expect(o.adapter).toBe("less");
  expect(o.byRef["@less.status"]!.value).toBe("file");
  expect(o.byRef["@less.end"]).toBeUndefined();
  await world.json(["press", "--session", name, "G"]);
  await world.json(["wait", "--session", name, "--ref", "@less.end"]);
  o = await outline(name);
  expect(o.byRef["@less.status"]!.value).toBe("end");
  expect(o.byRef["@less.body"]!.name).toContain("row 100");
  await world.json(["press", "--session", name, "/"]);
  await waitValue(name, "@less.status", "search");
  // Backspace on an empty pattern leaves the search prompt (Escape is a prefix key in less).
  await world.json(["press", "--session", name, "Backspace"]);
  await world.json(["wait", "--session", name, "--ref", "@less.status", "--ref-value", "search", "--gone"]);
  await world.json(["press", "--session", name, "q", "--wait-exit"]);
});

test("htop: the process table has a selected row; Down moves the selection and @htop.selected follows", async () => {
  const { name } = await world.spawn(["htop"], ["--cols", "120", "--rows", "30"]);
  await world.json(["wait", "--session", name, "--ref", "@htop.selected"]);
  let o = await outline(name);
  expect(o.adapter).toBe("htop");
  const rows = o.byRef["@htop.processes"]!.children!;
  expect(rows.length).toBeGreaterThan(3);
  expect(rows.filter((r) => r.selected).length).toBe(1);
  const first = rows[0]!;
  expect(first.selected).toBe(true);
  const pid = (row: Node) => row.name.trim().split(/\s+/)[0]!;
  expect(o.byRef["@htop.selected"]!.value).toBe(pid(first));
  expect(o.byRef["@htop.meters"]!.children!.some((m) => m.name.includes("Mem["))).toBe(true);
  expect(o.byRef["@htop.footer"]!.children!.map((k) => k.name)).toContain("F10Quit");
  await world.json(["press", "--session", name, "Down"]);
  await world.json(["wait", "--session", name, "--ref", "@htop.selected", "--ref-value", pid(first), "--gone"]);
  o = await outline(name);
  const selectedRow = o.byRef["@htop.processes"]!.children!.find((r) => r.selected)!;
  expect(o.byRef["@htop.selected"]!.value).toBe(pid(selectedRow));
  await world.json(["press", "--session", name, "q", "--wait-exit"]);
});

test("htop: clicking a process row selects it", async () => {
  // Sorted by PID, rows keep their places between the snapshot and the click (sorted by CPU, a
  // loaded machine reorders them, and the click is refused as stale, rightly).
  const { name } = await world.spawn(["htop", "--sort-key", "PID"], ["--cols", "120", "--rows", "30"]);
  await world.json(["wait", "--session", name, "--ref", "@htop.selected"]);
  const snap = await world.json(["snapshot", "--session", name, "--format", "outline", "--select", "@htop.processes > row"]);
  const third = snap.outline.nodes[2];
  const pid = third.name.trim().split(/\s+/)[0];
  await world.json(["click", "--session", name, third.ref, "--rev", String(snap.revision)]);
  await world.json(["wait", "--session", name, "--ref", "@htop.selected", "--ref-value", pid]);
  await world.json(["press", "--session", name, "q", "--wait-exit"]);
});

test("top: summary with the load average, and the task table shrinking when idle tasks are hidden", async () => {
  const { name } = await world.spawn(["top"], ["--cols", "120", "--rows", "40"]);
  await world.json(["wait", "--session", name, "--ref", "@top.tasks"]);
  const o = await outline(name);
  expect(o.adapter).toBe("top");
  expect(o.byRef["@top.summary"]!.value).toMatch(/^\d+\.\d+$/);
  const before = o.byRef["@top.tasks"]!.children!.length;
  expect(before).toBeGreaterThan(5);
  const revision = (await world.json(["snapshot", "--session", name])).revision;
  // "i" hides idle tasks; top redraws at once, then sits quiet until its next refresh.
  await world.json(["press", "--session", name, "i", "--changed-since", String(revision), "--settled", "100", "--all"]);
  // Select the table, not its rows: on a quiet machine every task may be idle (no rows at all).
  const after = await world.json(["snapshot", "--session", name, "--format", "outline", "--select", "@top.tasks"]);
  // On a busy machine most tasks may be active: the table never grows, it may not shrink.
  expect(after.outline.nodes[0].children?.length ?? 0).toBeLessThanOrEqual(before);
  await world.json(["press", "--session", name, "q", "--wait-exit"]);
});

test("python3 REPL: @python.prompt carries the code being typed; continuation lines too; output above", async () => {
  const { name } = await world.spawn(["python3", "-q"]);
  await world.json(["wait", "--session", name, "--ref", "@python.prompt"]);
  let o = await outline(name);
  expect(o.adapter).toBe("python");
  expect(o.byRef["@python.prompt"]).toMatchObject({ name: ">>>", value: "", focused: true });
  await world.json(["type", "--session", name, "6 * 7"]);
  await waitValue(name, "@python.prompt", "6 * 7");
  await world.json(["press", "--session", name, "Enter"]);
  await world.json(["wait", "--session", name, "--ref", "@python.output[name~=^42$]"]);
  await world.json(["type", "--session", name, "if True:\r"]);
  await world.json(["wait", "--session", name, "--ref", "@python.prompt[name^=...]"]);
  o = await outline(name);
  expect(o.byRef["@python.prompt"]).toMatchObject({ name: "...", value: "" });
  await world.json(["press", "--session", name, "C-c", "--wait-ref", '@python.prompt[name=">>>"]']);
  await world.json(["press", "--session", name, "C-d", "--wait-exit"]);
});

test("man: the page name and the line number, which moves when paging", async () => {
  const { name } = await world.spawn(["man", "ls"], ["--rows", "20"]);
  await world.json(["wait", "--session", name, "--ref", "@man.page", "--timeout", "20000"]);
  let o = await outline(name);
  expect(o.adapter).toBe("man");
  expect(o.byRef["@man.page"]!.value).toBe("ls(1)");
  expect(o.byRef["@man.status"]!.value).toBe("1");
  expect(o.byRef["@man.body"]!.name).toContain("NAME");
  await world.json(["press", "--session", name, "Space"]);
  await world.json(["wait", "--session", name, "--ref", "@man.status", "--ref-value", "1", "--gone"]);
  o = await outline(name);
  expect(Number(o.byRef["@man.status"]!.value)).toBeGreaterThan(1);
  await world.json(["press", "--session", name, "q", "--wait-exit"]);
});

test("git log in the pager: commits as items with the first hash as value; (END) at the end", async () => {
  const repo = join(world.dir, "repo");
  const git = (...args: string[]) => Bun.spawnSync(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args]);
  Bun.spawnSync(["git", "init", "-q", repo]);
  for (const message of ["first", "second", "third"]) git("commit", "-q", "--allow-empty", "-m", message);
  const head = git("rev-parse", "HEAD").stdout.toString().trim();
  const { name } = await world.spawn(["git", "-C", repo, "log"], ["--rows", "12", "--env", "GIT_PAGER=less", "--env", "LESS=-R"]);
  await world.json(["wait", "--session", name, "--ref", "@git.commits"]);
  let o = await outline(name);
  expect(o.adapter).toBe("git");
  expect(o.byRef["@git.commits"]!.value).toBe(head);
  expect(o.byRef["@git.commits"]!.children![0]!).toMatchObject({ role: "commit", name: `commit ${head}` });
  await world.json(["press", "--session", name, "G"]);
  await waitValue(name, "@git.status", "end");
  o = await outline(name);
  expect(o.byRef["@git.body"]!.name).toContain("first");
  await world.json(["press", "--session", name, "q", "--wait-exit"]);
});

// An integrated shell: @shell.prompt rests on its OSC 133 marks (a shell without them gets none).
for (const shell of [["bash"], ["zsh"]]) {
  test(`${shell[0]}: @shell.prompt holds the typed command; after Enter the output shows above the new prompt`, async () => {
    const { name } = await world.spawn([], ["--shell", shell[0]!]);
    await world.json(["wait", "--session", name, "--ref", "@shell.prompt"]);
    expect((await outline(name)).adapter).toBe("shell");
    await world.json(["type", "--session", name, "echo out-$((40+2))"]);
    await waitValue(name, "@shell.prompt", "echo out-$((40+2))");
    await world.json(["press", "--session", name, "Enter"]);
    await world.json(["wait", "--session", name, "--ref", "@shell.output[name~=^out-42$]"]);
    await world.json(["wait", "--session", name, "--ref", "@shell.prompt"]);
    const o = await outline(name);
    expect(o.byRef["@shell.prompt"]).toMatchObject({ value: "", focused: true });
    // vim started from the shell is vim, not the shell.
    await world.json(["type", "--session", name, "vim -u NONE -N\r"]);
    await world.json(["wait", "--session", name, "--ref", "@vim.mode"]);
    await world.json(["type", "--session", name, ":q!\r"]);
    await world.json(["wait", "--session", name, "--ref", "@shell.prompt"]);
  });
}
