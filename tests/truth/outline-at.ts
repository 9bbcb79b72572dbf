// The one place the corpus calls the outline: what a live session's SessionOutline does
// (lib/worker/session-outline.ts), fed from a replay. When the outline's inputs grow (keys
// sent, recorded process facts), this is the function to extend so replay and live agree.
import { outlineFor } from "../../lib/adapters/outline-for.ts";
import type { CompiledManifest } from "../../lib/adapters/load-manifest.ts";
import { recordedProcessFacts } from "../../lib/adapters/process-facts.ts";
import type { OutlineNode } from "../../lib/outline/types.ts";
import type { RecordedFacts } from "../../lib/record/fact-marker.ts";
import type { SessionObservations } from "../../lib/adapters/session-observations.ts";
import type { Screen } from "../../lib/terminal/screen.ts";
import type { SentInput } from "./replay-states.ts";

/** The outline at a marker, as a live session computes it when a caller looks: the process
 * facts the cast recorded last (null: none), taken as `tuiwright replay` takes them
 * (recordedProcessFacts, the foreground program's argv), and what the session observed
 * (selections its keys proved, values shown earlier) included, and remembered. No corpus cast
 * recorded facts yet — all were recorded before the recorder wrote them, so here the shell's
 * facts are unknown; a re-recorded cast carries them. */
export function outlineAt(screen: Screen, argv: string[], _inputs: SentInput[], history: SessionObservations, manifests: CompiledManifest[], recorded: RecordedFacts | null = null): { adapter: string | null; nodes: OutlineNode[] } {
  const facts = { ...recordedProcessFacts(recorded?.shellPrompt, screen.revision), seenValues: history.seenValues };
  const { adapter, nodes } = outlineFor(screen.grid(), manifests, argv, recorded?.foreground ?? null, facts, history.observed(screen.revision));
  history.remember(nodes);
  return { adapter, nodes };
}

/** An `i` event: the session looked at the screen just before (as SessionOutline.sending does)
 * and sent the input. Without process facts, as `tuiwright replay` looks there (entries/replay.ts). */
export function sentInput(screen: Screen, argv: string[], data: string, atMs: number, history: SessionObservations, manifests: CompiledManifest[]): void {
  const { adapter } = outlineAt(screen, argv, [], history, manifests);
  history.sent(data, () => screen.grid(), atMs, manifests.find((m) => m.name === adapter) ?? null);
}
