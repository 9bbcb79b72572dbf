// What a session observed over time that one screen cannot show, kept the same way by a live
// session (lib/worker/session-outline.ts) and by a replay of its cast (entries/replay.ts, the
// truth corpus), so both state the same facts: selections proven by the keys the session sent
// (selection-by-behaviour.ts), the values durable refs have shown ("-- INSERT --" once: showmode
// is on), and input that makes such a value unproven again (`:set noshowmode`).
import type { Grid } from "../terminal/grid.ts";
import { SelectionByBehaviour } from "../outline/selection-by-behaviour.ts";
import { walk, type OutlineNode } from "../outline/types.ts";
import type { CompiledManifest } from "./load-manifest.ts";
import type { Observed } from "./outline-for.ts";

const POSITIONAL = /^@e\d+$/;
const SEEN_KEPT = 32;
const SEEN_REFS_KEPT = 1000;
const NOTHING_SEEN: ReadonlySet<string> = new Set();

export class SessionObservations {
  readonly #behaviour = new SelectionByBehaviour();
  /** Values each durable ref has shown in this session (bounded: a few names per ref). */
  readonly #seen = new Map<string, Set<string>>();
  #forgotten = 0;

  readonly seenValues = (ref: string): ReadonlySet<string> => this.#seen.get(ref) ?? NOTHING_SEEN;

  /** Changes whenever what was observed changes (an outline cache keys on it). */
  get generation(): number {
    return this.#behaviour.generation * 1_000_003 + this.#forgotten;
  }

  /** While true, a key waits for its effect: every screen change should be reported. */
  get waiting(): boolean {
    return this.#behaviour.waiting;
  }

  /** Input the session sends, with the screen as it was just before (read when needed);
   * `manifest`: the one that shaped the last outline (its forget_on_input rules apply). */
  sent(input: string, grid: () => Grid, atMs: number, manifest: CompiledManifest | null): void {
    this.#behaviour.sent(input, grid, atMs);
    for (const entry of manifest?.values ?? []) {
      if (!entry.defaultOnceSeen?.forgetOnInput?.test(input)) continue;
      if (this.#seen.delete(`@${manifest!.root}.${entry.region}`)) this.#forgotten++;
    }
  }

  changed(grid: Grid, revision: number, atMs: number): void {
    if (this.#behaviour.waiting) this.#behaviour.changed(grid, revision, atMs);
  }

  observed(revision: number): Observed {
    return { revision, claim: this.#behaviour.claim };
  }

  /** Records the values durable refs show in an outline (manifest refs, not `@e4`). */
  remember(nodes: OutlineNode[]): void {
    for (const node of walk(nodes)) {
      if (node.value === undefined || node.value === null || POSITIONAL.test(node.ref)) continue;
      let values = this.#seen.get(node.ref);
      if (!values) {
        if (this.#seen.size >= SEEN_REFS_KEPT) continue;
        this.#seen.set(node.ref, (values = new Set()));
      }
      if (values.size < SEEN_KEPT) values.add(String(node.value));
    }
  }
}
