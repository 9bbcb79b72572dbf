// Highlighted runs grouped the way a reader sees a list's current item: the runs of one look on
// one row (a menu's tag and its label drawn apart are one item). Behavioural evidence compares
// these groups before and after a key; a claim made from them holds while they stay put.
import type { BBox, Evidence } from "./types.ts";

/** A highlighted run: cells of one look, other than its container's plain look. */
export type HighlightRun = { row: number; col: number; cols: number; look: string; text: string };

/** The highlighted runs of one container (the screen, a pane or a panel's interior). */
export type ContainerRuns = { box: BBox; runs: HighlightRun[] };

/** One row's runs of one look; `id` also names their columns, so a move along the row shows. */
export type Group = { row: number; look: string; col: number; id: string };

/** A selection this session proved by behaviour: in `container`, the group `groupId` is the
 * one the key moved. It holds while that group is drawn as it was and the container's other
 * highlights sit on the same rows in the same looks (`layout`). */
export type SelectionClaim = { container: BBox; groupId: string; layout: string; evidence: Evidence };

export function groupsOf(runs: HighlightRun[]): Map<string, Group> {
  const byRowLook = new Map<string, HighlightRun[]>();
  for (const run of runs) {
    const key = `${run.row}|${run.look}`;
    const list = byRowLook.get(key);
    if (list) list.push(run);
    else byRowLook.set(key, [run]);
  }
  const out = new Map<string, Group>();
  for (const list of byRowLook.values()) {
    const id = `${list[0]!.row}|${list[0]!.look}|${list.map((run) => `${run.col}+${run.cols}`).join(",")}`;
    out.set(id, { row: list[0]!.row, look: list[0]!.look, col: list[0]!.col, id });
  }
  return out;
}

/** Where the highlights are, but not how long: a status bar's clock may change its length. */
export function layoutOf(groups: Map<string, Group>): string {
  return [...groups.values()].map((g) => `${g.row}|${g.look}`).sort().join(",");
}

/** Everything about a container's highlights, to tell whether anything changed. */
export function runsSignature(runs: HighlightRun[]): string {
  return runs.map((run) => `${run.row}:${run.col}+${run.cols}:${run.look}`).join(",");
}

export const sameBox = (a: BBox, b: BBox): boolean => a.row === b.row && a.col === b.col && a.rows === b.rows && a.cols === b.cols;

/** The group a claim marks in this container now, or null when the claim no longer holds. */
export function claimedGroup(claim: SelectionClaim | null, box: BBox, runs: HighlightRun[]): Group | null {
  if (!claim || !sameBox(claim.container, box)) return null;
  const groups = groupsOf(runs);
  const group = groups.get(claim.groupId);
  return group && layoutOf(groups) === claim.layout ? group : null;
}
