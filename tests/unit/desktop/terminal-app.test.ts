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

test("key templates: text, {arg} and {arg.field} typed, <Key> pressed", () => {
  expect(keySteps("<Esc>:w {path}<CR>", { path: "/tmp/a b<CR>" })).toEqual([
    { kind: "press", key: "Escape" },
    { kind: "type", text: ":w /tmp/a b<CR>" },
    { kind: "press", key: "Enter" },
  ]);
  expect(keySteps("{p.first}<F9><Enter>", { p: { first: "123" } })).toEqual([{ kind: "type", text: "123" }, { kind: "press", key: "F9" }, { kind: "press", key: "Enter" }]);
  expect(keySteps("a<lt>b<C-c>", {})).toEqual([{ kind: "type", text: "a<b" }, { kind: "press", key: "C-c" }]);
  expect(execCommand("ls {dir}", { dir: "/tmp" })).toBe("ls /tmp");
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
  expect(problem('[[operations]]\nid = "save"\n')).toContain("an operation has either keys or exec");
  expect(problem('[[operations]]\nid = "save"\nkeys = ":w {path}"\n')).toContain("{path} is not one of the operation's args (none)");
  expect(problem('[[operations]]\nid = "save"\nkeys = "<Bogus>"\n')).toContain("keys: <Bogus>: invalid key");
  expect(problem('[[operations]]\nid = "run"\nargs = { c = "string" }\nexec = "<CR>{c}"\n')).toContain("exec templates take {arg} substitutions");
  expect(problem('[[operations]]\nid = "save"\nkeys = ":w"\nwait = { txt = "x" }\n')).toContain("x.toml:");
  expect(problem('[[operations]]\nid = "save"\nkeys = ":w<CR>"\nwait = { text = "written" }\n')).toBe("loaded");
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
  const ops = terminalOperationSpecs([{ id: "kill_process", description: "send SIGTERM", args: { process: "row" }, keys: "{process.first}<F9>" }]);
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
