// The one place the corpus calls the outline: what a live session's SessionOutline does
// (lib/worker/session-outline.ts), fed from a replay. When the outline's inputs grow (keys
// sent, recorded process facts), this is the function to extend so replay and live agree.
import { outlineFor } from "../../lib/adapters/outline-for.ts";
import type { CompiledManifest } from "../../lib/adapters/load-manifest.ts";
import type { ProcessFacts } from "../../lib/adapters/process-facts.ts";
import { walk, type OutlineNode } from "../../lib/outline/types.ts";
import type { Screen } from "../../lib/terminal/screen.ts";
import type { SentInput } from "./replay-states.ts";

const POSITIONAL = /^@e\d+$/;

/** The values durable refs have shown so far in the session (SessionOutline's #seen). */
export class OutlineHistory {
  readonly #seen = new Map<string, Set<string>>();
  readonly seenValues = (ref: string): ReadonlySet<string> => this.#seen.get(ref) ?? new Set();

  remember(nodes: OutlineNode[]): void {
    for (const node of walk(nodes)) {
      if (node.value === undefined || node.value === null || POSITIONAL.test(node.ref)) continue;
      if (!this.#seen.has(node.ref)) this.#seen.set(node.ref, new Set());
      this.#seen.get(node.ref)!.add(String(node.value));
    }
  }
}

export function outlineAt(screen: Screen, argv: string[], _inputs: SentInput[], history: OutlineHistory, manifests: CompiledManifest[]): { adapter: string | null; nodes: OutlineNode[] } {
  // A replay has no process facts yet (casts do not record them): shellForeground unknown.
  const facts: ProcessFacts = { shellForeground: null, seenValues: history.seenValues };
  const { adapter, nodes } = outlineFor(screen.grid(), manifests, argv, null, facts);
  history.remember(nodes);
  return { adapter, nodes };
}
