// The refs on a screen, nearest to what the caller asked for first: the list an empty
// selection or a missing ref shows, so a typo (@less.stauts) points at the right node.
import { walk, type OutlineNode } from "./types.ts";

const SHOWN = 15;

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to 15 refs with their role, nearest to `asked` first (reading order breaks ties). */
export function nearestRefs(nodes: OutlineNode[], asked: string): string[] {
  const want = asked.toLowerCase();
  const all = [...walk(nodes)].map((node, order) => ({ node, order, score: distance(want, node.ref.toLowerCase()) }));
  all.sort((a, b) => a.score - b.score || a.order - b.order);
  return all.slice(0, SHOWN).map(({ node }) => `${node.ref} ${node.role}`);
}

/** "; on screen: @a role, @b role, …" or a note that the screen has no nodes. */
export function refsOnScreen(nodes: OutlineNode[], asked: string): string {
  const refs = nearestRefs(nodes, asked);
  if (refs.length === 0) return "the outline of this screen has no nodes";
  let total = 0;
  for (const _ of walk(nodes)) total++;
  return `refs on screen${total > refs.length ? ` (nearest ${refs.length} of ${total})` : ""}: ${refs.join(", ")}`;
}
