// A container whose children carry all of its text (a table and its rows, a toolbar and its
// keys) is named by its label — the manifest region's name, the last part of its ref — not by
// that text again: the text is in the children once, and an outline that carried every row
// twice cost twice to make, send and read (issue 25: an outline within 1.2× of a snapshot).
import type { OutlineNode } from "./types.ts";

/** What `\s` matches in a regex. */
const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13) || code === 160 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
  code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;

/** Whether the children's names, in order, are all of `text` (whitespace aside). Compared in
 * place: a table's text is the screen's, and copying it twice was a tenth of the outline. */
export function childrenCarryText(text: string, children: readonly { name: string }[]): boolean {
  if (children.length < 2) return false;
  let at = 0;
  const next = () => { while (at < text.length && isSpace(text.charCodeAt(at))) at++; };
  for (const { name } of children) {
    for (let i = 0; i < name.length; i++) {
      const code = name.charCodeAt(i);
      if (isSpace(code)) continue;
      next();
      if (text.charCodeAt(at) !== code) return false;
      at++;
    }
  }
  next();
  return at === text.length;
}

/** A container named by its label: its name is its ref's last part and its children its text. */
export function namedByLabel(node: OutlineNode): boolean {
  return (node.children?.length ?? 0) > 1 && node.name !== "" && node.ref.endsWith(`.${node.name}`);
}

/** What a node shows: its name, or for a container named by its label its children's text
 * (children on one row joined by a space, rows by a newline). */
export function shownText(node: OutlineNode): string {
  if (!namedByLabel(node)) return node.name;
  let text = "";
  let row: number | null = null;
  for (const child of node.children!) {
    text += row === null ? child.name : `${child.bbox.row === row ? " " : "\n"}${child.name}`;
    row = child.bbox.row;
  }
  return text;
}
