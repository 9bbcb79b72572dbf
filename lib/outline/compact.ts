// The compact text outline for LLM context: one line per node, indented by depth:
//   @vim.mode status "-- INSERT --" = insert [focused]
import type { OutlineNode } from "./types.ts";

const MAX_NAME = 120;

function quote(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ");
  return JSON.stringify(flat.length > MAX_NAME ? `${flat.slice(0, MAX_NAME - 1)}…` : flat);
}

/** A container whose children carry all its text (a table and its rows) is not named twice. */
function repeatsChildren(node: OutlineNode): boolean {
  const children = node.children ?? [];
  const squash = (text: string) => text.replace(/\s+/g, "");
  return children.length > 1 && squash(node.name) === squash(children.map((child) => child.name).join(""));
}

export function compactOutline(nodes: OutlineNode[], depth = 0): string[] {
  const lines: string[] = [];
  for (const node of nodes) {
    let line = `${"  ".repeat(depth)}${node.ref} ${node.role}`;
    if (repeatsChildren(node)) line += ` (${node.children!.length} items)`;
    else if (node.name) line += ` ${quote(node.name)}`;
    if (node.value !== undefined) line += ` = ${quote(node.value)}`;
    if (node.focused) line += " [focused]";
    if (node.selected) line += " [selected]";
    lines.push(line);
    if (node.children) lines.push(...compactOutline(node.children, depth + 1));
  }
  return lines;
}
