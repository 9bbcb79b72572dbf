// The accessibility tree as outline nodes: roles listed, states, boxes, engine evidence, refs bound
// to their document.
import { expect, test } from "bun:test";
import { axOutline, axRef, parseAxRef, type AxNode } from "../../../lib/browser/ax-outline.ts";

const tree: AxNode[] = [
  { nodeId: "1", role: { value: "RootWebArea" }, name: { value: "Form" }, backendDOMNodeId: 1 },
  { nodeId: "2", role: { value: "heading" }, name: { value: "Order" }, properties: [{ name: "level", value: { value: 1 } }], backendDOMNodeId: 2 },
  { nodeId: "3", role: { value: "textbox" }, name: { value: "Query" }, value: { value: "abc" }, properties: [{ name: "focused", value: { value: true } }], backendDOMNodeId: 3 },
  { nodeId: "4", role: { value: "checkbox" }, name: { value: "Gift" }, properties: [{ name: "checked", value: { value: "true" } }], backendDOMNodeId: 4 },
  { nodeId: "5", role: { value: "button" }, name: { value: "Send" }, properties: [{ name: "disabled", value: { value: true } }], backendDOMNodeId: 5 },
  { nodeId: "6", role: { value: "link" }, name: { value: "Below the fold" }, backendDOMNodeId: 6 },
  { nodeId: "7", role: { value: "link" }, name: { value: "Ignored" }, ignored: true, backendDOMNodeId: 7 },
  { nodeId: "8", role: { value: "StaticText" }, name: { value: "text" }, backendDOMNodeId: 8 },
];
const boxes = new Map([[2, { row: 1, col: 0, rows: 1, cols: 40 }], [3, { row: 3, col: 2, rows: 1, cols: 20 }], [4, { row: 4, col: 2, rows: 1, cols: 2 }], [5, { row: 5, col: 2, rows: 1, cols: 6 }], [6, null]]);

test("links, buttons, inputs, headings, check boxes on screen, with states and the engine as evidence", () => {
  const nodes = axOutline(tree, { boxes, controls: boxes }, 3, 17);
  expect(nodes.map(({ ref, role, name, value, focused }) => ({ ref, role, name, value, focused }))).toEqual([
    { ref: "@ax3.2", role: "heading", name: "Order", value: undefined, focused: undefined },
    { ref: "@ax3.3", role: "input", name: "Query", value: "abc", focused: true },
    { ref: "@ax3.4", role: "checkbox", name: "Gift", value: "checked", focused: undefined },
    { ref: "@ax3.5", role: "button", name: "Send", value: "disabled", focused: undefined },
  ]);
  expect(nodes[1]!.evidence).toEqual([{ source: "engine", method: "Accessibility.getFullAXTree", detail: "role=textbox focused", revision: 17 }]);
  expect(nodes[2]!.evidence).toEqual([expect.objectContaining({ detail: "role=checkbox checked=true" })]);
  expect(nodes[3]!.evidence).toEqual([expect.objectContaining({ detail: "role=button disabled" })]);
  expect(nodes[0]!.evidence).toEqual([expect.objectContaining({ detail: "role=heading level=1" })]);
});

test("refs name their document and node; other refs are not engine refs", () => {
  expect(axRef(3, 16)).toBe("@ax3.16");
  expect(parseAxRef("@ax3.16")).toEqual({ document: 3, backendNodeId: 16 });
  expect(parseAxRef("@e4")).toBeNull();
  expect(parseAxRef("@carbonyl.url")).toBeNull();
});
