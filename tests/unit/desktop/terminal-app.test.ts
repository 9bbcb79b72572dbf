import { expect, test } from "bun:test";
import { execCommand, keySteps } from "../../../lib/adapters/manifest-operations.ts";
import { loadManifest } from "../../../lib/adapters/load-manifest.ts";
import { BUILTIN_MANIFESTS } from "../../../lib/adapters/builtins.ts";
import { operationsOf } from "../../../lib/adapters/manifest-operations.ts";
import { parse } from "smol-toml";
import { terminalViews, terminalOperationSpecs } from "../../../lib/desktop/terminal-app.ts";
import { renderViewBody } from "../../../lib/desktop/render-markdown.ts";

const base = 'name = "x"\n[detect]\nargv0 = ["x"]\n';

function problem(operations: string): string {
  try {
    loadManifest(base + operations, "x.toml");
  } catch (error) {
    return (error as Error).message;
  }
  return "loaded";
}

const op = (encode: Record<string, any> = {}) => ({ id: "op", encode });

test("key templates: text, {arg}, {arg.field} and {nonce} typed (through the arg's encoder), <Key> pressed", () => {
  expect(keySteps("<Esc>:w {path}<CR>", op(), { path: "/tmp/a b<CR>" }, "tw1")).toEqual([
    { kind: "press", key: "Escape" },
    { kind: "type", text: ":w /tmp/a b<CR>" },
    { kind: "press", key: "Enter" },
  ]);
  expect(keySteps("<C-\\><C-n>:w {path}|echo \"{nonce}\"<CR>", op({ path: "vim-path" }), { path: "a b|!x" }, "tw1")).toEqual([
    { kind: "press", key: "C-\\" },
    { kind: "press", key: "C-n" },
    { kind: "type", text: ':w a\\ b\\|\\!x|echo "tw1"' },
    { kind: "press", key: "Enter" },
  ]);
  expect(keySteps("{p.key}<F9><Enter>", op({ p: "digits" }), { p: { key: "123" } }, "tw1")).toEqual([{ kind: "type", text: "123" }, { kind: "press", key: "F9" }, { kind: "press", key: "Enter" }]);
  expect(keySteps("a<lt>b<C-c>", op(), {}, "tw1")).toEqual([{ kind: "type", text: "a<b" }, { kind: "press", key: "C-c" }]);
  expect(execCommand("ls {dir}", { dir: "/tmp" })).toBe("ls /tmp");
});

test("an argument that cannot be typed inertly is refused before any key: invalid-argument (E_INVALID_ARG)", () => {
  const refused = (template: string, encode: Record<string, any>, args: Record<string, unknown>) => {
    try {
      keySteps(template, op(encode), args, "tw1");
    } catch (error) {
      return `${(error as any).errorName}: ${(error as Error).message}`;
    }
    return "typed";
  };
  expect(refused("{t}<CR>", {}, { t: "ls\rtouch M" })).toContain("invalid-argument: op --t \"ls\\rtouch M\" cannot be typed safely: it contains a carriage return (CR)");
  expect(refused("{t}", { t: "vim-path" }, { t: "x\x1b:!touch M\r" })).toContain("Escape");
  expect(refused("{t}", { t: "less-pattern" }, { t: "a\u009bb" })).toContain("U+009B");
  expect(refused("{t}", { t: "vim-line" }, { t: "two\nlines" })).toContain("one line of text");
  expect(refused("{p.key}", { p: "digits" }, { p: { key: "12;rm" } })).toContain("digits only");
  expect(refused("{p.key}", { p: "digits" }, { p: { first: "12" } })).toContain("p has no key");
  expect(refused("{t}", { t: "vim-string" }, { t: "esc\x1b cr\r ok" })).toBe("typed");
});

test("every built-in manifest's operations load", () => {
  const byName = Object.fromEntries(BUILTIN_MANIFESTS.map(({ file, source }) => [file, operationsOf(parse(source)).map((o) => o.id)]));
  expect(byName["adapters/vim.toml"]).toEqual(expect.arrayContaining(["save", "save_as", "quit", "open_file", "search"]));
  expect(byName["adapters/less.toml"]).toEqual(expect.arrayContaining(["search", "quit"]));
  expect(byName["adapters/htop.toml"]).toEqual(expect.arrayContaining(["sort_by_cpu", "kill_process", "filter"]));
  expect(byName["adapters/shell.toml"]).toContain("run");
  expect(byName["adapters/python.toml"]).toContain("evaluate");
});

test("broken [[operations]] are refused with the line and the reason", () => {
  expect(problem('[[operations]]\nid = "Save"\nkeys = ":w"\n')).toContain("an operation id is lower-case letters");
  expect(problem('[[operations]]\nid = "save"\n')).toContain("an operation has one of keys, steps or exec");
  const ok = 'ok = [{ rule = "w", regex = "written" }]\n';
  expect(problem('[[operations]]\nid = "save"\nkeys = ":w {path}"\n' + ok)).toContain("{path} is not one of the operation's args (none)");
  expect(problem('[[operations]]\nid = "save"\nkeys = "<Bogus>"\n' + ok)).toContain("keys: <Bogus>: invalid key");
  expect(problem('[[operations]]\nid = "run"\nargs = { c = "string" }\nexec = "<CR>{c}"\n')).toContain("exec templates take {arg} substitutions");
  expect(problem('[[operations]]\nid = "save"\nkeys = ":w<CR>"\n')).toContain("x.toml:4: operations.0: an operation that types keys says what success looks like");
  expect(problem('[[operations]]\nid = "save"\nkeys = ":w<CR>"\nok = [{ rule = "w", txt = "x" }]\n')).toContain('x.toml:7: operations.0.ok.0.txt: unknown key "txt"');
  expect(problem('[[operations]]\nid = "save"\nkeys = ":w<CR>"\nok = [{ rule = "w" }]\n')).toContain("ok w: a condition needs regex, ref, exit or alt_screen");
  expect(problem('[[operations]]\nid = "save"\nkeys = ":w<CR>"\nok = [{ rule = "w", regex = "/(/" }]\n')).toContain("invalid regex");
  expect(problem('[[operations]]\nid = "save"\nkeys = ":w<CR>"\nok = [{ rule = "w", ref = "@x.nowhere" }]\n')).toContain('x.toml:7: operations.0.ok.0: ref @x.nowhere: no region named "nowhere"');
  expect(problem('[[operations]]\nid = "save"\nargs = { p = "string" }\nencode = { p = "shell" }\nkeys = "{p}"\n' + ok)).toContain("an encoder is one of text, code, vim-path");
  expect(problem('[[operations]]\nid = "save"\nencode = { p = "text" }\nkeys = "x"\n' + ok)).toContain("encode.p: p is not one of the operation's args");
  expect(problem('[[operations]]\nid = "k"\n[[operations.steps]]\nkeys = "x"\n[[operations.steps]]\nkeys = "y"\nok = [{ rule = "w", regex = "(" }]\n')).toContain('x.toml:6: operations.0.steps.0.ok: missing required key "ok"');
  expect(problem('[[operations]]\nid = "k"\nkeys = "k"\nok = [{ rule = "w", exit = true }]\nfail = [{ rule = "e", regex = \'/^(?!x)/\', flash = true }]\n')).toContain("cannot be matched in linear time");
  expect(problem('[[operations]]\nid = "k"\nkeys = "k"\nok = [{ rule = "w", exit = true }]\nfail = [{ rule = "e", regex = "x", row = -1, flash = true }]\n')).toContain("flash goes with a whole-screen regex alone");
  expect(problem('[[operations]]\nid = "save"\nkeys = ":w<CR>"\nok = [{ rule = "written", regex = "written" }]\n')).toBe("loaded");
});

test("an outline becomes views: regions with items are lists, named values entities", () => {
  const nodes = [{
    ref: "@htop", role: "application", name: "htop", bbox: { row: 0, col: 0, rows: 3, cols: 80 },
    children: [
      { ref: "@htop.header", role: "header", name: "PID USER Command", bbox: { row: 0, col: 0, rows: 1, cols: 80 } },
      { ref: "@htop.processes", role: "table", name: "", bbox: { row: 1, col: 0, rows: 2, cols: 80 }, children: [
        { ref: "@e1", role: "row", name: "101 root   sleep 600", bbox: { row: 1, col: 0, rows: 1, cols: 80 }, selected: true },
        { ref: "@e2", role: "row", name: "102 root   bash", bbox: { row: 2, col: 0, rows: 1, cols: 80 } },
      ] },
    ],
  }];
  const ordinals = new Map<string, number>();
  const ops = terminalOperationSpecs([{ id: "kill_process", description: "send SIGTERM", args: { process: "row" }, encode: {}, max_chars: {}, keys: "{process.key}<F9>", ok: [{ rule: "gone", exit: true }] }]);
  const views = terminalViews(nodes as any, "htop", "", ["Session top: htop"], ops, ordinals);
  expect(views.map((v) => [v.ordinal, v.name])).toEqual([[0, "Terminal"], [1, "Header"], [2, "Processes"]]);
  expect(renderViewBody(views[2]!)).toBe("        # [Processes](list:processes)\n        1. [101 root sleep 600](item:processes[0])\n        2. [102 root bash](item:processes[1])");
  const list = views[2]!.blocks[0] as any;
  expect(list.items[0]).toEqual({ label: "101 root sleep 600", key: null, value: { text: "101 root   sleep 600", first: "101", index: 0, ref: "@e1", selected: true } });
  expect(renderViewBody(views[0]!)).toContain("- [KillProcess (send SIGTERM)](operation:kill_process)\n            - Arguments:\n                - process: row");
  // Ordinals stay with region names across refreshes, whatever order they come in.
  const again = terminalViews([{ ...nodes[0]!, children: [nodes[0]!.children[1]!] }] as any, "htop", "", [], [], ordinals);
  expect(again.map((v) => v.ordinal)).toEqual([0, 2]);
});

test("no manifest: one Screen view with the text, repeated lines said once", () => {
  const views = terminalViews([], null, "hello\n~\n~\n~\n~\n\nbye\n", [], [], new Map());
  expect(renderViewBody(views[1]!)).toBe("        hello\n        ~ (4 identical lines)\n        bye");
});
