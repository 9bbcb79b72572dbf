// Which table a call means: a document-only name is always its alias; a name the core shares
// is the document's only as PREFIX.NAME or with a field of the document's shape.
import { expect, test } from "bun:test";
import { COMPAT_TABLES, compatAlias } from "../../../../lib/protocol/compat/index.ts";
import { AWI_TTY } from "../../../../lib/protocol/compat/awi-tty.ts";
import { INTERACTIVE_PTY } from "../../../../lib/protocol/compat/interactive-pty.ts";
import { isMethodName, METHODS } from "../../../../lib/protocol/methods.ts";

test("core method names are camelCase (dots separate domains); the documents' names live in compat tables", () => {
  for (const name of Object.keys(METHODS)) expect(name).toMatch(/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)*$/);
  for (const table of COMPAT_TABLES) {
    for (const alias of Object.values(table.aliases)) expect(isMethodName(alias.aliasOf)).toBe(true);
  }
});

test("a document-only name is its alias whatever the params", () => {
  expect(compatAlias("go_back", {})).toBe(AWI_TTY.go_back);
  expect(compatAlias("set_viewport", { cols: 80, rows: 24 })).toBe(AWI_TTY.set_viewport);
  expect(compatAlias("exec_block", { command: "ls" })).toBe(INTERACTIVE_PTY.exec_block!);
  expect(compatAlias("nonsense", {})).toBeNull();
});

test("a shared name is the core's unless called with the document's prefix or fields", () => {
  expect(compatAlias("navigate", { url: "https://example.com" })).toBeNull();
  expect(compatAlias("navigate", { url: "https://example.com", timeoutMs: 5 })).toBeNull();
  expect(compatAlias("navigate", { url: "https://example.com", timeout_ms: 5 })).toBe(AWI_TTY.navigate);
  expect(compatAlias("snapshot", { format: "text" })).toBeNull();
  expect(compatAlias("snapshot", { include_meta: true })).toBe(AWI_TTY.snapshot);
  expect(compatAlias("send", { data: "x" })).toBeNull();
  expect(compatAlias("send", { conversation_id: "c", data: "x" })).toBe(INTERACTIVE_PTY.send!);
  expect(compatAlias("pty.status", {})).toBe(INTERACTIVE_PTY.status!);
  expect(compatAlias("awi.scroll", { delta: 1 })).toBe(AWI_TTY.scroll);
  // A field neither shape knows is left for the core's validation to name.
  expect(compatAlias("navigate", { url: "x", bogus: 1 })).toBeNull();
});
