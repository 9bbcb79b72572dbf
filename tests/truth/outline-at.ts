// The one place the corpus calls the outline: what a live session's SessionOutline does
// (lib/worker/session-outline.ts), fed from a replay. When the outline's inputs grow (keys
// sent, recorded process facts), this is the function to extend so replay and live agree.
import { outlineFor } from "../../lib/adapters/outline-for.ts";
import type { CompiledManifest } from "../../lib/adapters/load-manifest.ts";
import type { ProcessFacts } from "../../lib/adapters/process-facts.ts";
import type { OutlineNode } from "../../lib/outline/types.ts";
import type { SessionObservations } from "../../lib/adapters/session-observations.ts";
import type { Screen } from "../../lib/terminal/screen.ts";
import type { SentInput } from "./replay-states.ts";

/** The outline at a marker, as a live session computes it when a caller looks: what the session
 * observed (selections its keys proved, values shown earlier) included, and remembered. */
export function outlineAt(screen: Screen, argv: string[], _inputs: SentInput[], history: SessionObservations, manifests: CompiledManifest[]): { adapter: string | null; nodes: OutlineNode[] } {
  // A replay has no process facts yet (casts do not record them): shellForeground unknown.
  const facts: ProcessFacts = { shellForeground: null, seenValues: history.seenValues };
  const { adapter, nodes } = outlineFor(screen.grid(), manifests, argv, null, facts, history.observed(screen.revision));
  history.remember(nodes);
  return { adapter, nodes };
}

/** An `i` event: the session looked at the screen just before (as SessionOutline.sending does)
 * and sent the input. */
export function sentInput(screen: Screen, argv: string[], data: string, atMs: number, history: SessionObservations, manifests: CompiledManifest[]): void {
  const { adapter } = outlineAt(screen, argv, [], history, manifests);
  history.sent(data, screen.grid(), atMs, manifests.find((m) => m.name === adapter) ?? null);
}
