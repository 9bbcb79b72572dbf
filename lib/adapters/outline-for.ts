// The outline of a grid: the manifest that fits shapes it, else the generic rules apply.
// Shared by live sessions and replays.
import type { Grid } from "../terminal/grid.ts";
import { genericOutline, type SelectionClaim } from "../outline/generic.ts";
import { assignRefs } from "../outline/refs.ts";
import type { OutlineNode } from "../outline/types.ts";
import { detectManifest } from "./detect.ts";
import type { CompiledManifest } from "./load-manifest.ts";
import { manifestOutline } from "./manifest-outline.ts";
import { NO_FACTS, type ProcessFacts } from "./process-facts.ts";

/** What the session itself observed: the screen revision, and a selection proven by behaviour. */
export type Observed = { revision: number; claim: SelectionClaim | null };

export function outlineFor(grid: Grid, manifests: CompiledManifest[], argv: string[], foreground: string[] | null, facts: ProcessFacts = NO_FACTS, observed: Observed = { revision: 0, claim: null }): { adapter: string | null; pixels: string; nodes: OutlineNode[] } {
  const manifest = detectManifest(manifests, {
    argv,
    foreground,
    screenText: grid.lines.map((line) => line.text).join("\n"),
    title: grid.title,
    altScreen: grid.altScreen,
  });
  const drafts = manifest ? manifestOutline(manifest, grid, facts, observed) : genericOutline(grid, observed);
  return { adapter: manifest?.name ?? null, pixels: manifest?.pixels ?? "", nodes: assignRefs(drafts) };
}
