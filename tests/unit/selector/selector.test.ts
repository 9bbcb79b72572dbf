import { expect, test } from "bun:test";
import type { OutlineNode } from "../../../lib/outline/types.ts";
import { select } from "../../../lib/selector/match.ts";
import { parseSelector } from "../../../lib/selector/parse.ts";
import { TuiwrightError } from "../../../lib/protocol/errors.ts";

const box = { row: 0, col: 0, rows: 1, cols: 1 };
const tree: OutlineNode[] = [{
  ref: "@app", role: "application", name: "demo", bbox: box,
  children: [
    { ref: "@app.list", role: "list", name: "Files", bbox: box, children: [
      { ref: "@e1", role: "item", name: "notes.txt", bbox: box },
      { ref: "@e2", role: "item", name: "Photo.JPG", selected: true, bbox: box },
      { ref: "@e3", role: "item", name: "Save as", bbox: box, children: [{ ref: "@e4", role: "link", name: "more", value: "https://x.test", bbox: box }] },
    ] },
    { ref: "@app.mode", role: "status", name: "-- INSERT --", value: "insert", focused: true, bbox: box },
  ],
}];

const refs = (selector: string) => select(tree, parseSelector(selector)).map((n) => n.ref);

test.each([
  ["@app.mode", ["@app.mode"]],
  ["@e2", ["@e2"]],
  ["item", ["@e1", "@e2", "@e3"]],
  ["*", ["@app", "@app.list", "@e1", "@e2", "@e3", "@e4", "@app.mode"]],
  ["[role=status]", ["@app.mode"]],
  ['[name="Save as"]', ["@e3"]],
  ["[name='Save as']", ["@e3"]],
  ["[name~=/photo/i]", ["@e2"]],
  ["[name~=^no]", ["@e1"]],
  ["[name^=Pho]", ["@e2"]],
  ["[name$=.txt]", ["@e1"]],
  ["[name*=ave]", ["@e3"]],
  ["[value=insert]", ["@app.mode"]],
  ["[value^=https]", ["@e4"]],
  ["[ref=@e1]", ["@e1"]],
  ["[focused]", ["@app.mode"]],
  ["[selected]", ["@e2"]],
  ["item[selected]", ["@e2"]],
  ["list item", ["@e1", "@e2", "@e3"]],
  ["@app link", ["@e4"]],
  ["@app > link", []],
  ["@app.list > item > link", ["@e4"]],
  ["list>item", ["@e1", "@e2", "@e3"]],
  ["status, [selected]", ["@e2", "@app.mode"]],
  ["  item[name^=n] ,  link  ", ["@e1", "@e4"]],
])("%p selects %p", (selector, expected) => {
  expect(refs(selector)).toEqual(expected);
});

test.each([
  ["", "empty selector at column 1", 1],
  ["item[", "expected an attribute name at column 6", 6],
  ["[name]", "[name] needs a value", 2],
  ["[colour=red]", 'unknown attribute "colour"', 2],
  ["[focused=yes]", "[focused] takes no value", 9],
  ["[name=x", "unclosed [ (opened at column 1)", 8],
  ["[name=]", "expected a value", 7],
  ['[name="open]', "unclosed quote", 7],
  ["[name~=/(/]", "invalid regex", 8],
  ["item >", "expected a selector", 7],
  ["@", "expected a ref name after @", 2],
  ["item:first-child", 'unexpected ":"', 5],
  ["a,,b", 'unexpected ","', 3],
])("%p is a bad-selector error (exit 65) with a caret", (selector, message, column) => {
  let error: TuiwrightError | undefined;
  try { parseSelector(selector); } catch (e) { error = e as TuiwrightError; }
  expect(error?.errorName).toBe("bad-selector");
  expect(error?.exitCode).toBe(65);
  expect(error?.message).toContain(message);
  expect(error?.message).toContain(`at column ${column}\n  ${selector}\n  ${" ".repeat(column - 1)}^`);
});
