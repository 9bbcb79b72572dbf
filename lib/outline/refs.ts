// Positional refs (@e1, @e2, …) in reading order: parents before children, top to bottom,
// left to right. Manifest nodes keep their durable refs (@vim.mode).
import type { Draft } from "./generic.ts";
import type { OutlineNode } from "./types.ts";

export type DraftNode = Omit<Draft, "children"> & { ref?: string; children: DraftNode[] };

export function assignRefs(drafts: DraftNode[]): OutlineNode[] {
  let next = 1;
  const finish = (draft: DraftNode): OutlineNode => {
    const { children, ref, ...rest } = draft;
    const node: OutlineNode = { ref: ref ?? `@e${next++}`, ...rest };
    const done = children.map(finish);
    if (done.length > 0) node.children = done;
    return node;
  };
  return drafts.map(finish);
}
