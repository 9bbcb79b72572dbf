// A container whose children carry all of its text (a table and its rows, a toolbar and its
// keys) is named by its label — the manifest region's name, the last part of its ref — not by
// that text again: the text is in the children once, and an outline that carried every row
// twice cost twice to make, send and read (issue 25: an outline within 1.2× of a snapshot).
import type { OutlineNode } from "./types.ts";

const squash = (text: string) => text.replace(/\s+/g, "");

/** Whether the children's names, in order, are all of `text` (whitespace aside). */
export function childrenCarryText(text: string, children: readonly { name: string }[]): boolean {
  return children.length > 1 && squash(text) === squash(children.map((child) => child.name).join(""));
}

/** A container named by its label: its name is its ref's last part and its children its text. */
export function namedByLabel(node: OutlineNode): boolean {
  return (node.children?.length ?? 0) > 1 && node.name !== "" && node.ref.endsWith(`.${node.name}`);
}

/** What a node shows: its name, or for a container named by its label its children's text. */
export function shownText(node: OutlineNode): string {
  return namedByLabel(node) ? node.children!.map((child) => child.name).join("\n") : node.name;
}
