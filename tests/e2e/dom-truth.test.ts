// The terminal DOM tells the truth (issue 14): every node and value stands on evidence from the
// screen or the process, in the ordinary states where the adapters used to guess.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { World } from "../helpers/harness.ts";

// A user manifest with keyed items, for a test program (the built-ins' keys are tested on htop).
const adapters = mkdtempSync(join(tmpdir(), "tw-keyed-"));
writeFileSync(join(adapters, "keyed.toml"), `name = "keyed"
[detect]
argv = ["keyed-table.py"]
confidence = 0.9
[[regions]]
name = "table"
role = "table"
rows = "1..-2"
items = "row"
item_role = "row"
key = '/^\\s*(?<key>\\d+)\\s/'
`);

let world: World;
beforeAll(async () => { world = await World.start({ TUIWRIGHT_ADAPTERS_DIR: adapters }); });
afterAll(async () => { await world[Symbol.asyncDispose](); });

type Node = { ref: string; role: string; name: string; value?: string; focused?: boolean; selected?: boolean; bbox: { row: number; col: number; rows: number; cols: number }; children?: Node[] };

async function outline(session: string): Promise<{ adapter: string | null; byRef: Record<string, Node>; revision: number }> {
  const snap = await world.json(["snapshot", "--session", session, "--format", "outline"]);
  const byRef: Record<string, Node> = {};
  const visit = (nodes: Node[]) => { for (const n of nodes) { byRef[n.ref] = n; if (n.children) visit(n.children); } };
  visit(snap.outline.nodes);
  return { adapter: snap.outline.adapter, byRef, revision: snap.revision };
}

const waitValue = (session: string, ref: string, value: string) => world.json(["wait", "--session", session, "--ref", ref, "--ref-value", value]);
const press = (session: string, ...keys: string[]) => world.json(["press", "--session", session, ...keys]);
const type = (session: string, text: string, ...flags: string[]) => world.json(["type", "--session", session, text, ...flags]);

test("a program named vim that has drawn nothing gets no @vim.buffer and no @vim.mode", async () => {
  // A `vim` that never draws (cat under vim's name): the moment between exec and vim's first
  // frame, held still.
  const bin = join(world.dir, "fakebin");
  mkdirSync(bin, { recursive: true });
  symlinkSync("/bin/cat", join(bin, "vim"));
  const { name } = await world.spawn([join(bin, "vim")], ["--cols", "60", "--rows", "8"]);
  let o = await outline(name);
  expect(o.byRef["@vim.buffer"]).toBeUndefined();
  expect(o.byRef["@vim.mode"]).toBeUndefined();
  // Text that is not vim's screen (no alternate screen) is not claimed either.
  await type(name, "hello\r", "--wait-text", "hello\nhello");
  o = await outline(name);
  expect(o.byRef["@vim.buffer"]).toBeUndefined();
  expect(o.byRef["@vim.mode"]).toBeUndefined();
  await press(name, "C-d", "--wait-exit");
});

test("vim without showmode (-u NONE, compatible): insert mode is `unknown`, never `normal`", async () => {
  const file = join(world.dir, "plain.txt");
  writeFileSync(file, "alpha\n");
  const { name } = await world.spawn(["vim", "-u", "NONE", file], ["--cols", "60", "--rows", "8"]);
  await world.json(["wait", "--session", name, "--ref", "@vim.buffer[name~=/alpha/]"]);
  await press(name, "i");
  await type(name, "XYZ", "--wait-text", "XYZalpha");
  const o = await outline(name);
  expect(o.adapter).toBe("vim");
  expect(o.byRef["@vim.mode"]!.value).toBe("unknown");
  await press(name, "Escape");
  await type(name, ":q!\r", "--wait-exit");
});

test("vim: once showmode was seen, `:set noshowmode` typed by this session makes an empty mode line `unknown` again, not `normal`; evidence names the rule", async () => {
  const file = join(world.dir, "smd.txt");
  writeFileSync(file, "alpha\n");
  const { name } = await world.spawn(["vim", "-u", "NONE", "-N", file], ["--cols", "60", "--rows", "8"]);
  await world.json(["wait", "--session", name, "--ref", "@vim.buffer[name~=/alpha/]"]);
  await press(name, "i");
  await waitValue(name, "@vim.mode", "insert");
  await press(name, "Escape");
  await waitValue(name, "@vim.mode", "normal");
  const snap = await world.json(["snapshot", "--session", name, "--format", "outline"]);
  const mode = JSON.stringify(snap.outline).match(/"ref":"@vim.mode".*?"evidence":(\[.*?\])/)![1]!;
  expect(mode).toContain("default_once_seen");
  await type(name, ":set noshowmode\r");
  await press(name, "i");
  await type(name, "XYZ", "--wait-text", "XYZalpha");
  expect((await outline(name)).byRef["@vim.mode"]!.value).toBe("unknown"); // inserting, but the screen cannot say
  await press(name, "Escape");
  await type(name, ":q!\r", "--wait-exit");
});

test("vim split windows: statusline, file and buffer are the current window's (the bold status line), never joined across a split; the q: window names no file", { timeout: 30_000 }, async () => {
  writeFileSync(join(world.dir, "left.txt"), "left-one\nleft-two\n");
  writeFileSync(join(world.dir, "right.txt"), "right-one\nright-two\n");
  const { name } = await world.spawn(["vim", "-u", "NONE", "-N", join(world.dir, "right.txt")], ["--cols", "80", "--rows", "14"]);
  await world.json(["wait", "--session", name, "--ref", "@vim.buffer[name~=/right-one/]"]);
  await type(name, `:vsplit ${join(world.dir, "left.txt")}\r`);
  // vim draws a split in steps (the status lines can come before the new window's text): the
  // outline is read once the screen is still.
  await world.json(["wait", "--session", name, "--ref", "@vim.file", "--ref-value", "/left.txt$/", "--settled", "150", "--all"]);
  let o = await outline(name);
  expect(o.byRef["@vim.buffer"]!.name).toContain("left-one");
  expect(o.byRef["@vim.buffer"]!.name).not.toContain("right-one");
  expect(o.byRef["@vim.buffer"]!.bbox).toMatchObject({ row: 0, col: 0, cols: 40 });
  expect(o.byRef["@vim.statusline"]!.name).toMatch(/left\.txt/);
  await press(name, "C-w", "l"); // to the right window: its status line turns bold
  await waitValue(name, "@vim.file", "/right.txt$/");
  o = await outline(name);
  expect(o.byRef["@vim.buffer"]!.name).toContain("right-one");
  expect(o.byRef["@vim.buffer"]!.name).not.toContain("left-one");
  expect(o.byRef["@vim.buffer"]!.bbox.col).toBe(41);
  await type(name, ":split\r"); // the right column split in two: the new upper half is current
  await world.json(["wait", "--session", name, "--ref", "@vim.buffer[name~=/right-one/]", "--settled", "150", "--all"]);
  o = await outline(name);
  expect(o.byRef["@vim.buffer"]!.bbox).toMatchObject({ row: 0, col: 41 });
  expect(o.byRef["@vim.buffer"]!.bbox.rows).toBeLessThan(8); // not the window below it
  expect(o.byRef["@vim.file"]!.value).toMatch(/right\.txt$/);
  await type(name, ":only\r");
  await press(name, "q", ":");
  await world.json(["wait", "--session", name, "--ref", "@vim.statusline[name~=/Command Line/]"]);
  o = await outline(name);
  expect(o.byRef["@vim.file"]?.value).toBeUndefined(); // "[Command Line]" is no file
  await press(name, "C-c");
  await press(name, "C-c");
  await type(name, ":qa!\r", "--wait-exit");
});

test("vim :terminal: while keys go to the job the mode is `terminal-job`, never `normal`; Ctrl-W N is `terminal-normal`", { timeout: 30_000 }, async () => {
  const file = join(world.dir, "term.txt");
  writeFileSync(file, "alpha\n");
  const { name } = await world.spawn(["vim", "-u", "NONE", "-N", file], ["--cols", "80", "--rows", "16"]);
  await world.json(["wait", "--session", name, "--ref", "@vim.buffer[name~=/alpha/]"]);
  await press(name, "i");
  await waitValue(name, "@vim.mode", "insert"); // showmode seen: an empty mode line would read `normal`
  await press(name, "Escape");
  await waitValue(name, "@vim.mode", "normal");
  await type(name, ":terminal sh\r");
  await waitValue(name, "@vim.mode", "terminal-job");
  expect((await outline(name)).byRef["@vim.file"]?.value).toBeUndefined();
  await press(name, "C-w", "N");
  await waitValue(name, "@vim.mode", "terminal-normal");
  await press(name, "i");
  await waitValue(name, "@vim.mode", "terminal-job");
  await type(name, "exit\r");
  await world.json(["wait", "--session", name, "--ref", "@vim.statusline[name~=/finished/]"]);
  await type(name, ":qa!\r", "--wait-exit");
});

test("vim: VISUAL LINE, VISUAL BLOCK, SELECT, -- More --, the hit-enter prompt and the swap question are told apart", { timeout: 30_000 }, async () => {
  const file = join(world.dir, "modes.txt");
  writeFileSync(file, "one\ntwo\nthree\n");
  const { name } = await world.spawn(["vim", "-u", "NONE", "-N", file], ["--cols", "80", "--rows", "10"]);
  await world.json(["wait", "--session", name, "--ref", "@vim.buffer[name~=/three/]"]);
  await press(name, "V");
  await waitValue(name, "@vim.mode", "visual-line");
  await press(name, "Escape", "C-v");
  await waitValue(name, "@vim.mode", "visual-block");
  await press(name, "Escape", "v");
  await waitValue(name, "@vim.mode", "visual");
  await press(name, "C-g");
  await waitValue(name, "@vim.mode", "select");
  await press(name, "Escape");
  await type(name, ':echo "first\\nsecond"\r');
  await waitValue(name, "@vim.mode", "hit-enter");
  let o = await outline(name);
  expect(o.byRef["@vim.buffer"]).toBeUndefined(); // the messages cover the buffer
  await press(name, "Enter");
  await type(name, ":for i in range(40) | echo i | endfor\r");
  await waitValue(name, "@vim.mode", "more");
  o = await outline(name);
  expect(o.byRef["@vim.buffer"]).toBeUndefined();
  await press(name, "q");
  // The swap file of this session makes a second vim on the same file ask.
  const second = await world.spawn(["vim", "-u", "NONE", "-N", file], ["--cols", "80", "--rows", "24"]);
  await waitValue(second.name, "@vim.mode", "swap-prompt");
  o = await outline(second.name);
  expect(o.byRef["@vim.buffer"]).toBeUndefined();
  expect(o.byRef["@vim.file"]).toBeUndefined();
  await press(second.name, "q", "--wait-exit");
  await type(name, ":q!\r", "--wait-exit");
});

test("plain bash: no @shell.prompt without shell integration (no sound sign of a prompt), even at a prompt-like line; meta.foreground says who", async () => {
  const { name, pid } = await world.spawn(["bash", "--norc", "--noprofile"], ["--cols", "60", "--rows", "8"]);
  await world.json(["wait", "--session", name, "--regex", "/[$#]$/"]);
  let meta = (await world.json(["snapshot", "--session", name, "--meta"])).meta;
  expect(meta.foreground).toEqual({ pid, argv0: "bash" });
  expect((await outline(name)).byRef["@shell.prompt"]).toBeUndefined();
  // The child prints the fake prompt after bash gave it the terminal (setpgid + tcsetpgrp
  // happen before exec), so once it shows, the foreground is no longer bash.
  await type(name, "sh -c 'printf \"fake$ \"; exec cat'; echo finished\r");
  await world.json(["wait", "--session", name, "--regex", "/^fake\\$$/m"]);
  meta = (await world.json(["snapshot", "--session", name, "--meta"])).meta;
  expect(meta.foreground.argv0).not.toBe("bash");
  const o = await outline(name);
  expect(o.byRef["@shell.prompt"]).toBeUndefined();
  await press(name, "C-d");
  await world.json(["wait", "--session", name, "--text", "finished"]);
  await world.json(["wait", "--session", name, "--regex", "/finished\\n.*[$#]$/"]);
  meta = (await world.json(["snapshot", "--session", name, "--meta"])).meta;
  expect(meta.foreground.argv0).toBe("bash");
  expect((await outline(name)).byRef["@shell.prompt"]).toBeUndefined();
});

test("integrated shell: @shell.prompt is absent during exec --interactive, back when the prompt returns", async () => {
  const { name } = await world.spawn([], ["--shell", "bash", "--cols", "60", "--rows", "8"]);
  await world.json(["wait", "--session", name, "--ref", "@shell.prompt"]);
  await world.json(["exec", "--session", name, "--interactive", "--", "sh -c 'printf \"fake$ \"; exec cat'"]);
  await world.json(["wait", "--session", name, "--regex", "/^fake\\$$/m"]);
  expect((await world.json(["status", "--session", name])).mode).toBe("interactive");
  expect((await outline(name)).byRef["@shell.prompt"]).toBeUndefined();
  await press(name, "C-d");
  await world.json(["wait", "--session", name, "--ref", "@shell.prompt"]);
});

test("--to on a keyboard-only program: an input or focused node is typed into without a click, and the result says so", async () => {
  const file = join(world.dir, "to.txt");
  writeFileSync(file, Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n"));
  const { name } = await world.spawn(["less", file], ["--rows", "8"]);
  await world.json(["wait", "--session", name, "--ref", "@less.status[focused]"]);
  const body = await world.run(["press", "--session", name, "--to", "@less.body", "G"]);
  expect(body.code).toBe(65);
  expect(body.stderr).toContain("@less.body");
  expect(body.stderr).toMatch(/not an input|mouse/);
  const r = await world.json(["press", "--session", name, "--to", "@less.status", "q", "--wait-exit"]);
  expect(r.target).toMatchObject({ ref: "@less.status", via: "focus" });
});

test("--select, --annotate and --to that match nothing exit 65 and list the refs that exist, nearest first", async () => {
  const file = join(world.dir, "sel.txt");
  writeFileSync(file, "a\nb\n");
  const { name } = await world.spawn(["less", file], ["--rows", "6"]);
  await world.json(["wait", "--session", name, "--ref", "@less.status"]);
  const select = await world.run(["snapshot", "--session", name, "--format", "outline", "--select", "@less.stauts"]);
  expect(select.code).toBe(65);
  expect(select.stderr).toContain("matches nothing");
  expect(select.stderr).toMatch(/@less\.status.*@less/s);
  expect(select.stderr.indexOf("@less.status")).toBeLessThan(select.stderr.indexOf("@less.body"));
  const text = await world.run(["snapshot", "--session", name, "--select", "[role=button]"]);
  expect(text.code).toBe(65);
  const annotate = await world.run(["snapshot", "--session", name, "--format", "svg", "--annotate", "[role=nothing]"]);
  expect(annotate.code).toBe(65);
  expect(annotate.stderr).toContain("@less.body");
  const to = await world.run(["press", "--session", name, "--to", "[name=nope]", "q"]);
  expect(to.code).toBe(65);
  expect(to.stderr).toContain("@less.status");
  await press(name, "q", "--wait-exit");
});

test("the compact outline is smaller than the text: filler folded, no text printed twice, --select '*' prints each node once", async () => {
  const file = join(world.dir, "small.txt");
  writeFileSync(file, "alpha\nbeta\n");
  const { name } = await world.spawn(["vim", "-u", "NONE", "-N", "--cmd", "set laststatus=2", file], ["--cols", "80", "--rows", "24"]);
  await world.json(["wait", "--session", name, "--ref", "@vim.statusline"]);
  const compact = (await world.run(["snapshot", "--session", name, "--format", "outline", "--plain"])).stdout;
  expect(compact).not.toContain("~ ⏎ ~");
  expect(compact).toContain("~ ×");
  // @vim.file's text is the status line's: only its value is printed.
  expect(compact).toContain('@vim.statusline status "small.txt"\n  @vim.file text = "small.txt"\n');
  const text = (await world.run(["snapshot", "--session", name, "--plain"])).stdout;
  expect(compact.length).toBeLessThan(text.length * 3); // tiny screen: fixed overhead, but no 20 `~` rows
  const all = (await world.run(["snapshot", "--session", name, "--format", "outline", "--plain", "--select", "*"])).stdout;
  const refs = all.trim().split("\n").map((line) => line.trim().split(" ")[0]);
  expect(new Set(refs).size).toBe(refs.length);
  await type(name, ":q!\r", "--wait-exit");
});

test("generic outline: a curses menu's highlighted item is a highlight, not 'the' selection, until our Down moves it — then it is selected, citing the key; title and status bars never are", async () => {
  const { name } = await world.spawn(["python3", join(import.meta.dir, "../testdata/fruit-menu.py")], ["--cols", "60", "--rows", "12"]);
  await world.json(["wait", "--session", name, "--text", "Fruit Picker"]);
  const highlights = async () => {
    const snap = await world.json(["snapshot", "--session", name, "--format", "outline"]);
    const all: any[] = [];
    const visit = (nodes: any[]) => { for (const n of nodes) { if (n.role === "highlight") all.push(n); if (n.children) visit(n.children); } };
    visit(snap.outline.nodes);
    return { all, revision: snap.revision as number };
  };
  let { all: h } = await highlights();
  // Drawn highlighted, but nothing this session did proves it is the current item.
  expect(h.filter((n) => n.selected)).toEqual([]);
  const apple = h.find((n) => n.name === "Apple")!;
  expect(apple.bbox).toMatchObject({ row: 4, col: 2, cols: 28 }); // the whole background run
  expect(apple.attrs.length).toBeGreaterThan(0);
  expect(h.map((n) => n.name)).toContain("[Main]");
  await press(name, "Down");
  await world.json(["wait", "--session", name, "--text", "Banana | q quits"]);
  const after = await highlights();
  h = after.all;
  const selected = h.filter((n) => n.selected);
  expect(selected.map((n) => n.name)).toEqual(["Banana"]);
  expect(selected[0].evidence).toEqual([{ source: "behaviour", key: "Down", fromRow: 4, toRow: 5, revision: expect.any(Number) }]);
  expect(selected[0].evidence[0].revision).toBeLessThanOrEqual(after.revision);
  expect(h.find((n) => n.name === "Fruit Picker")?.selected).toBeUndefined();
  expect(h.find((n) => /q quits/.test(n.name))?.selected).toBeUndefined();
  await press(name, "q", "--wait-exit");
});

test("dialog --yesno: nothing is selected until our Tab moves the button highlight; the node is the button's cells, and a click on it answers that button", async () => {
  const { name } = await world.spawn(["sh", "-c", 'dialog --yesno "Delete everything?" 7 40; echo "answer=$?"; read x'], ["--cols", "60", "--rows", "12"]);
  await world.json(["wait", "--session", name, "--regex", "<\\s*No\\s*>", "--settled", "100", "--all"]);
  let o = await outline(name);
  expect(Object.values(o.byRef).filter((n) => n.selected || n.focused)).toEqual([]);
  await press(name, "Tab");
  await world.json(["wait", "--session", name, "--ref", "[selected]"]);
  o = await outline(name);
  const [button, ...others] = Object.values(o.byRef).filter((n) => n.selected);
  expect(others).toEqual([]);
  expect(button!.name).toMatch(/^<\s*No\s*>$/);
  expect(button!.bbox.cols).toBe(button!.name.length); // the button, not the dialog's painted row around it
  await world.json(["click", "--session", name, button!.ref, "--rev", String(o.revision)]);
  await world.json(["wait", "--session", name, "--text", "answer=1"]);
  await press(name, "Enter", "--wait-exit");
});

test("behavioural evidence survives into CI: the replay of the cast sees our Down in its input events and states the same selection; a snapshot saved with --outline matches its replay", async () => {
  const { name } = await world.spawn(["python3", join(import.meta.dir, "../testdata/fruit-menu.py")], ["--cols", "60", "--rows", "12"]);
  await world.json(["wait", "--session", name, "--text", "Fruit Picker"]);
  await press(name, "Down");
  await world.json(["wait", "--session", name, "--text", "Banana | q quits", "--ref", "[selected]", "--all"]);
  await world.json(["mark", "--session", name, "after-down"]);
  const golden = join(world.dir, "fruit.snap");
  await world.json(["snapshot", "--session", name, "--save", golden, "--outline"]);
  const live = (await world.run(["--plain", "snapshot", "--session", name, "--format", "outline"])).stdout;
  expect(live).toMatch(/"Banana" \[selected\]/);
  const cast = (await world.json(["get", "--session", name, "cast"])).value as string;
  await press(name, "q", "--wait-exit");
  const replayed = (await world.run(["--plain", "replay", cast, "--at-marker", "after-down", "--format", "outline"])).stdout;
  expect(replayed).toBe(live);
  const check = await world.run(["replay", cast, "--at-marker", "after-down", "--expect-snapshot", golden]);
  expect(check.stdout + check.stderr).toContain("ok:");
  expect(check.code).toBe(0);
});

test("keyed items: a row ref follows its key while the values and the order change, and is stale once the key is gone", async () => {
  const { name } = await world.spawn(["python3", join(import.meta.dir, "../testdata/keyed-table.py")], ["--cols", "40", "--rows", "10"]);
  await world.json(["wait", "--session", name, "--text", "no clicks yet"]);
  const snap = await world.json(["snapshot", "--session", name, "--format", "outline"]);
  expect(snap.outline.adapter).toBe("keyed");
  const rows = snap.outline.nodes[0].children.find((n: Node) => n.ref === "@keyed.table").children;
  const beta = rows.find((n: Node & { key?: string }) => n.key === "200");
  expect(beta.name).toMatch(/^200 beta\s+2\.0$/);
  await press(name, "r", "--wait-text", "12.0");
  const clicked = await world.json(["click", "--session", name, beta.ref, "--wait-text", "CLICK"]);
  expect(clicked.target.row).toBe(1); // beta moved up a row
  await world.json(["wait", "--session", name, "--text", "CLICK 200"]);
  const gamma = rows.find((n: Node & { key?: string }) => n.key === "300");
  await press(name, "d", "--wait-text", "gamma", "--gone");
  const stale = await world.run(["click", "--session", name, gamma.ref]);
  expect(stale.code).toBe(65);
  expect(stale.stderr).toContain('key "300"');
  await press(name, "q", "--wait-exit");
});

test("htop beyond its default screen: sort columns and directions, sort menu, search, filter, tree, setup, help; the footer keys split right; nothing unclaimed is dropped", { timeout: 60_000 }, async () => {
  const { name, pid } = await world.spawn(["htop", "-d", "100"], ["--cols", "120", "--rows", "30"]);
  await world.json(["wait", "--session", name, "--ref", "@htop.processes"]);
  let o = await outline(name);
  expect(o.byRef["@htop.header"]!.name).toMatch(/^PID\s+USER/);
  expect(o.byRef["@htop.footer"]!.children!.map((n) => n.name)).toEqual(["F1Help", "F2Setup", "F3Search", "F4Filter", "F5Tree", "F6SortBy", "F7Nice -", "F8Nice +", "F9Kill", "F10Quit"]);
  const rows = o.byRef["@htop.processes"]!.children! as (Node & { key?: string })[];
  expect(rows.every((row) => row.key !== undefined && row.name.startsWith(row.key!))).toBe(true);
  expect(rows.filter((row) => row.selected)).toHaveLength(1);
  expect(o.byRef["@htop.selected"]!.value).toBe(rows.find((row) => row.selected)!.key!);
  // The tab row is not claimed by the manifest: it stays, as generic nodes.
  expect(Object.values(o.byRef).some((n) => n.role === "highlight" && n.name === "[Main]")).toBe(true);
  // Another sort column and the other direction: the header is still the header.
  await press(name, "M");
  await press(name, "I", "--wait-regex", "/PID\\W{1,3}USER.*MEM%△|MEM%△/");
  o = await outline(name);
  expect(o.byRef["@htop.header"]).toBeDefined();
  expect(o.byRef["@htop.processes"]!.children!.length).toBeGreaterThan(3);
  // The sort menu: a list with the current column selected.
  await press(name, "F6", "--wait-ref", "@htop.sort");
  o = await outline(name);
  expect(o.byRef["@htop.sort"]!.children!.filter((n) => n.selected).map((n) => n.name)).toEqual(["PERCENT_MEM"]);
  expect(o.byRef["@htop.processes"]).toBeDefined();
  expect(o.byRef["@htop.footer"]!.children!.map((n) => n.name)).toEqual(["EnterSort", "EscCancel"]);
  await press(name, "Escape", "--wait-ref", "@htop.sort", "--gone");
  // Search: the match row is the selected row; the footer splits S-F3Prev right.
  await press(name, "F3", "--wait-ref", "@htop.search");
  await type(name, "htop", "--wait-ref", "@htop.search", "--ref-value", "htop");
  await world.json(["wait", "--session", name, "--ref", "@htop.processes > [selected]"]); // the match row (its text may be cut at the edge)
  o = await outline(name);
  const match = (o.byRef["@htop.processes"]!.children! as (Node & { key?: string })[]).find((row) => row.selected)!;
  expect(o.byRef["@htop.selected"]!.value).toBe(match.key!);
  expect(o.byRef["@htop.footer"]!.children!.map((n) => n.name)).toEqual(["F3Next", "S-F3Prev", "EscCancel"]);
  await press(name, "Escape", "--wait-ref", "@htop.search", "--gone");
  // Filter: only matching rows.
  await press(name, "F4", "--wait-ref", "@htop.filter");
  await type(name, "htop", "--wait-ref", "@htop.filter", "--ref-value", "htop");
  await world.json(["wait", "--session", name, "--ref", `@htop.processes > [name~=/^${pid} /]`]);
  await press(name, "Escape", "--wait-ref", "@htop.filter", "--gone");
  // Tree view.
  await press(name, "F5", "--wait-text", "F5List");
  o = await outline(name);
  expect(o.byRef["@htop.header"]).toBeDefined();
  expect(o.byRef["@htop.processes"]!.children!.length).toBeGreaterThan(3);
  await press(name, "F5", "--wait-text", "F5Tree");
  // Setup: its categories (the current one selected) and options.
  await press(name, "F2", "--wait-ref", "@htop.categories");
  o = await outline(name);
  expect(o.byRef["@htop.categories"]!.children!.map((n) => n.name)).toContain("Display options");
  expect(o.byRef["@htop.categories"]!.children!.filter((n) => n.selected)).toHaveLength(1);
  // A container whose rows carry its text is named by its label; the text is in its rows.
  expect(o.byRef["@htop.options"]!.name).toBe("options");
  expect(o.byRef["@htop.options"]!.children!.some((n) => n.name.includes("Tree view"))).toBe(true);
  // The options are the page's rows only: no meter row, and the page's header is no option.
  const options = o.byRef["@htop.options"]!.children!;
  expect(options.some((n) => /\[\|+|Load average|Mem\[/.test(n.name))).toBe(false);
  expect(options.some((n) => n.name === "Display options")).toBe(false);
  expect(options.filter((n) => n.selected)).toHaveLength(1); // the page's current row (white: not focused)
  expect(o.byRef["@htop.categories"]!.focused).toBe(true);
  expect(o.byRef["@htop.options"]!.focused).toBeUndefined();
  await press(name, "Right");
  await world.json(["wait", "--session", name, "--ref", "@htop.options[focused]"]);
  o = await outline(name);
  expect(o.byRef["@htop.categories"]!.focused).toBeUndefined();
  expect(o.byRef["@htop.processes"]).toBeUndefined();
  await press(name, "Escape", "--wait-ref", "@htop.processes");
  // Help: nothing of the table is claimed; the page is kept as generic text.
  await press(name, "F1", "--wait-text", "Process state");
  o = await outline(name);
  expect(o.byRef["@htop.processes"]).toBeUndefined();
  expect(o.byRef["@htop.selected"]).toBeUndefined();
  expect(Object.values(o.byRef).some((n) => n.role === "paragraph" && n.name.includes("Process state"))).toBe(true);
  await press(name, "Escape", "--wait-ref", "@htop.processes");
  await press(name, "q", "--wait-exit");
});

test("less: a search that finds nothing is `not-found`, the help screen is `help`, (END) is `end`", { timeout: 30_000 }, async () => {
  const file = join(world.dir, "find.txt");
  writeFileSync(file, Array.from({ length: 30 }, (_, i) => `entry ${i}`).join("\n") + "\n");
  const { name } = await world.spawn(["less", file], ["--rows", "8"]);
  await world.json(["wait", "--session", name, "--ref", "@less.status[focused]"]);
  await type(name, "/zzz-absent\r");
  await waitValue(name, "@less.status", "not-found");
  await press(name, "Enter");
  await waitValue(name, "@less.status", "/^(file|prompt)$/");
  await press(name, "h");
  await waitValue(name, "@less.status", "help");
  await press(name, "q");
  await waitValue(name, "@less.status", "/^(file|prompt)$/");
  await press(name, "G");
  await waitValue(name, "@less.status", "end");
  await press(name, "q", "--wait-exit");
});

test("git log --oneline in the pager: commits with their subjects, keyed by hash", async () => {
  const repo = join(world.dir, "repo");
  mkdirSync(repo);
  const git = (...args: string[]) => Bun.spawnSync(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args]);
  git("init", "-q");
  for (const subject of ["first change", "second change"]) {
    writeFileSync(join(repo, "f.txt"), subject);
    git("add", "f.txt");
    git("commit", "-qm", subject);
  }
  const { name } = await world.spawn(["git", "-C", repo, "-c", "core.pager=less -+F", "log", "--oneline", "--no-decorate"], ["--rows", "6"]);
  await world.json(["wait", "--session", name, "--ref", "@git.commits"]);
  const o = await outline(name);
  const commits = o.byRef["@git.commits"]!.children! as (Node & { key?: string })[];
  expect(commits.map((c) => c.name.replace(/^[0-9a-f]+ /, ""))).toEqual(["second change", "first change"]);
  expect(commits.every((c) => c.key && c.name.startsWith(c.key))).toBe(true);
  await press(name, "q", "--wait-exit");
});

test("tmux: split panes are @tmux.pane.N with their own contents, the status bar lists windows and is not 'selected'", { timeout: 30_000 }, async () => {
  const socket = `tw-dom-${process.pid}`;
  const tmux = (...args: string[]) => Bun.spawnSync(["tmux", "-L", socket, ...args]);
  try {
    const { name } = await world.spawn(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-s", "dom", "sh"], ["--cols", "80", "--rows", "12"]);
    await world.json(["wait", "--session", name, "--ref", "@tmux.status"]);
    let o = await outline(name);
    expect(o.adapter).toBe("tmux");
    expect(o.byRef["@tmux.pane.0"]).toBeUndefined(); // one pane: nothing divides the screen
    expect(o.byRef["@tmux.status"]!.value).toBe("dom");
    expect(o.byRef["@tmux.status"]!.children!.map((n) => n.name)).toEqual([expect.stringMatching(/^0:\S+\*$/)]);
    tmux("split-window", "-h", "-t", "dom", "sh -c 'echo right-pane; exec cat'");
    await world.json(["wait", "--session", name, "--ref", "@tmux.pane.1 [name=right-pane]"]);
    tmux("split-window", "-v", "-t", "dom", "sh -c 'echo lower-right; exec cat'");
    await world.json(["wait", "--session", name, "--ref", "@tmux.pane.2 [name=lower-right]"]);
    o = await outline(name);
    expect(o.byRef["@tmux.pane.1"]!.children!.map((n) => n.name)).toEqual(["right-pane"]);
    // The new pane has the cursor: a visible fact, stated as the cursor node inside it — not as
    // "focused", which nothing on the screen states.
    const cursorIn = (pane: Node) => JSON.stringify(pane).includes('"role":"cursor"');
    expect(cursorIn(o.byRef["@tmux.pane.2"]!)).toBe(true);
    expect(cursorIn(o.byRef["@tmux.pane.1"]!)).toBe(false);
    expect(Object.values(o.byRef).some((n) => n.focused && n.ref.startsWith("@tmux.pane"))).toBe(false);
    expect(Object.values(o.byRef).some((n) => n.selected)).toBe(false);
  } finally {
    tmux("kill-server");
  }
});

test("htop: snapshot, let htop redraw the row, then click its ref: it follows the PID instead of going stale", { timeout: 60_000 }, async () => {
  // A busy process whose CPU% and TIME+ cells change at every redraw.
  const busy = Bun.spawn(["sh", "-c", "while :; do :; done"], { stdout: "ignore", stderr: "ignore" });
  try {
    const { name } = await world.spawn(["htop", "-d", "5", "-p", `${busy.pid},1`], ["--cols", "100", "--rows", "14"]);
    await world.json(["wait", "--session", name, "--ref", `@htop.processes > [name^="${busy.pid} "]`]);
    const snap = await world.json(["snapshot", "--session", name, "--format", "outline"]);
    const rows = snap.outline.nodes[0].children.find((n: Node) => n.ref === "@htop.processes").children as (Node & { key?: string })[];
    const row = rows.find((n) => n.key === String(busy.pid))!;
    // Wait until htop has redrawn that row with other numbers: the old strict check would refuse.
    await world.json(["wait", "--session", name, "--ref", `@htop.processes > [name=${JSON.stringify(row.name)}]`, "--gone", "--timeout", "30000"]);
    const clicked = await world.json(["click", "--session", name, row.ref]);
    expect(clicked.target.ref).toBe(row.ref);
    await world.json(["wait", "--session", name, "--ref", "@htop.selected", "--ref-value", String(busy.pid)]);
    await press(name, "q", "--wait-exit");
  } finally {
    busy.kill();
  }
});
