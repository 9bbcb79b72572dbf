// The page's accessibility tree (Accessibility.getFullAXTree) as outline nodes: links, buttons,
// inputs, headings and the like, each with its role, name and states as the engine states them,
// its box on the screen (the element's layout box from page-layout.ts), and the engine as its
// evidence. Only nodes on screen are listed. Refs follow the element, not the row:
// @ax<document>.<backend node id>, where <document> counts the documents this session's page
// has had, so a ref never names a node of a later page (node ids restart in a new renderer).
import type { BBox, Evidence, OutlineNode } from "../outline/types.ts";

export type AxValue = { type?: string; value?: unknown };
export type AxNode = {
  nodeId: string;
  ignored?: boolean;
  role?: AxValue;
  name?: AxValue;
  value?: AxValue;
  properties?: { name: string; value: AxValue }[];
  backendDOMNodeId?: number;
};

/** The engine's roles listed, and the outline's name for each (inputs are `input`, as elsewhere). */
const ROLES: Record<string, string> = {
  link: "link", button: "button", heading: "heading", checkbox: "checkbox", radio: "radio", switch: "switch",
  textbox: "input", searchbox: "input", combobox: "input", textField: "input", TextField: "input", spinbutton: "input",
  slider: "slider", listbox: "listbox", option: "option", menuitem: "menuitem", menuitemcheckbox: "menuitem",
  menuitemradio: "menuitem", tab: "tab", image: "image", img: "image", dialog: "dialog", alertdialog: "dialog",
};

const REF = /^@ax(\d+)\.(\d+)$/;
/** Roles drawn as a small box without text. */
const CONTROLS = new Set(["checkbox", "radio", "switch", "slider", "image"]);

export function axRef(document: number, backendNodeId: number): string {
  return `@ax${document}.${backendNodeId}`;
}

/** A ref's document and node id, or null when it is not an engine ref. */
export function parseAxRef(ref: string): { document: number; backendNodeId: number } | null {
  const match = REF.exec(ref);
  return match ? { document: Number(match[1]), backendNodeId: Number(match[2]) } : null;
}

const property = (node: AxNode, name: string): unknown => node.properties?.find((p) => p.name === name)?.value.value;
const text = (value: AxValue | undefined): string => (typeof value?.value === "string" || typeof value?.value === "number" ? String(value.value) : "");

/** The outline nodes of the tree's listed roles that are on screen, in reading order. */
export function axOutline(tree: AxNode[], layout: { boxes: Map<number, BBox | null>; controls: Map<number, BBox | null> }, document: number, revision: number): OutlineNode[] {
  const nodes: OutlineNode[] = [];
  for (const node of tree) {
    if (node.ignored || node.backendDOMNodeId === undefined) continue;
    const engineRole = text(node.role);
    const role = ROLES[engineRole];
    if (role === undefined) continue;
    // Text is drawn from its box's top-left cell; a control without text where its middle is.
    const bbox = (CONTROLS.has(role) ? layout.controls : layout.boxes).get(node.backendDOMNodeId);
    if (!bbox) continue;
    const states: string[] = [];
    const outline: OutlineNode = { ref: axRef(document, node.backendDOMNodeId), role, name: text(node.name).trim(), bbox };
    const checked = property(node, "checked");
    const disabled = property(node, "disabled") === true;
    // The outline has value, focused and selected; a check box's state is its value, and a
    // control that cannot be used says so where a button's state is (Carbonyl's own buttons).
    if (checked !== undefined) {
      outline.value = checked === "mixed" ? "mixed" : checked === true || checked === "true" ? "checked" : "unchecked";
      states.push(`checked=${String(checked)}`);
    } else if (role === "input" && node.value !== undefined) {
      outline.value = text(node.value);
    } else if (disabled) {
      outline.value = "disabled";
    }
    if (disabled) states.push("disabled");
    if (property(node, "focused") === true) { outline.focused = true; states.push("focused"); }
    if (property(node, "selected") === true) { outline.selected = true; states.push("selected"); }
    const level = property(node, "level");
    if (role === "heading" && typeof level === "number") states.push(`level=${level}`);
    const evidence: Evidence = { source: "engine", method: "Accessibility.getFullAXTree", detail: [`role=${engineRole}`, ...states].join(" "), revision };
    outline.evidence = [evidence];
    nodes.push(outline);
  }
  return nodes.sort((a, b) => a.bbox.row - b.bbox.row || a.bbox.col - b.bbox.col);
}
