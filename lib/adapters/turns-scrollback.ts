// A chat program's answer taller than the screen: on the normal screen the lines it pushed up
// are in the terminal's scrollback, so the outline of a turn reads the screen with the lines
// scrolled since the prompt was sent on top (a "tall grid"), and this file brings the nodes
// back to screen rows. A turn region (the response, its end mark) keeps its whole text and
// value; its box is clipped to the screen and its evidence keeps the cells it really rests
// on (negative rows: in the scrollback). Other nodes above the screen are not on it: dropped.
// So is a busy mark wholly above the screen: a spinner is drawn live, at the bottom; one in the
// scrollback is a frame the CLI failed to erase (Gemini CLI after a resize while it streams
// miscounts its rows and leaves its old frame, spinner and all, above the new one).
import type { OutlineNode } from "../outline/types.ts";
import { TURN_REGIONS } from "./turns.ts";

/** How many lines of scrollback a turn's outline reads at most (an answer of this many lines). */
export const TURN_SCROLLBACK_MAX = 2000;

function shiftNode(node: OutlineNode, above: number, keep: boolean): OutlineNode | null {
  const top = node.bbox.row - above;
  const bottom = top + node.bbox.rows;
  if (bottom <= 0 && !keep) return null;
  const row = Math.max(0, top);
  const children = node.children?.map((child) => shiftNode(child, above, false)).filter((child): child is OutlineNode => child !== null);
  const bbox = { ...node.bbox, row, rows: Math.max(0, bottom - row) };
  // Manifest evidence without cells cited the node's own box: where the box is cut at the top
  // of the screen, the cells it cited (rows in the scrollback) are said.
  const cut = row !== top || bbox.rows !== node.bbox.rows;
  const evidence = node.evidence?.map((e) => (e.source === "manifest" && (e.cells || cut) ? { ...e, cells: { ...(e.cells ?? node.bbox), row: (e.cells ?? node.bbox).row - above } } : e));
  return {
    ...node,
    bbox,
    ...(children ? { children } : {}),
    ...(evidence ? { evidence } : {}),
  };
}

/** The nodes of a tall grid (`above` lines of scrollback on top of `rows` screen rows) in
 * screen rows; the turn regions of the chat program at `root` are kept whole. */
export function onScreen(nodes: OutlineNode[], above: number, rows: number, root: string | null): OutlineNode[] {
  if (above === 0) return nodes;
  const turnRefs = new Set(root ? TURN_REGIONS.filter((name) => name !== "busy").map((name) => `@${root}.${name}`) : []);
  return nodes.map((node) => {
    if (node.ref !== `@${root}`) return shiftNode(node, above, false);
    const children = (node.children ?? []).map((child) => shiftNode(child, above, turnRefs.has(child.ref))).filter((child): child is OutlineNode => child !== null);
    return { ...node, bbox: { ...node.bbox, row: 0, rows }, children, evidence: node.evidence?.map((e) => (e.source === "manifest" && e.cells ? { ...e, cells: { ...e.cells, row: 0, rows } } : e)) }; // no cells: the new box
  }).filter((node): node is OutlineNode => node !== null);
}
