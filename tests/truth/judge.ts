// Judges one state's outline against its labels: every semantic claim (selected, focused, an
// input, a durable ref's value) is true, false or unjudged (the label says nothing about it);
// every label is found or missed (recall); every labelled clickable gets the node a click by
// ref would use, and where that click lands.
import { contains, walk, type BBox, type OutlineNode } from "../../lib/outline/types.ts";
import type { Grid } from "../../lib/terminal/grid.ts";
import type { Clickable, StateLabel, Thing } from "./labels.ts";

export type ClaimKind = "selected" | "focused" | "input" | "value" | "click";
export type Claim = { kind: ClaimKind; key: string; verdict: "true" | "false" | "unjudged"; why?: string };
export type Recall = Record<"selected" | "focus" | "input" | "values", { labelled: number; found: number }>;
export type ClickCheck = { name: string; outcome: "ok" | "miss" | "fail"; ref?: string; why: string };
export type Judgement = { claims: Claim[]; recall: Recall; clicks: ClickCheck[]; labelProblems: string[] };

const POSITIONAL = /^@e\d+$/;

const boxText = (b: BBox) => `[${b.row},${b.col},${b.rows},${b.cols}]`;
const intersects = (a: BBox, b: BBox) => a.row < b.row + b.rows && b.row < a.row + a.rows && a.col < b.col + b.cols && b.col < a.col + a.cols;
const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** A claim's stable name for the allow-list: kind, durable ref (positional refs are renumbered
 * by any change, so not named), role, box, value. */
function claimKey(kind: ClaimKind, node: OutlineNode): string {
  const ref = POSITIONAL.test(node.ref) ? "" : `${node.ref} `;
  const value = kind === "value" ? ` = ${JSON.stringify(node.value)}` : "";
  return `${kind} ${ref}${node.role} ${boxText(node.bbox)}${value}`;
}

export function textIn(grid: Grid, b: BBox): string {
  const rows: string[] = [];
  for (let r = b.row; r < b.row + b.rows && r < grid.rows; r++) rows.push(grid.lines[r]!.chars.slice(b.col, b.col + b.cols).join(""));
  return rows.join("\n");
}

/** A label whose text is not where it says belongs to an older recording: relabel. */
function checkText(grid: Grid, what: string, thing: Thing, problems: string[]): void {
  if (thing.text === undefined) return;
  const there = squash(textIn(grid, thing.box));
  if (!there.includes(squash(thing.text))) problems.push(`${what} ${JSON.stringify(thing.text)} is not in ${boxText(thing.box)} (it shows ${JSON.stringify(there.slice(0, 80))}): relabel this state`);
}

const hasOwnEvidence = (node: OutlineNode) => (node.evidence ?? []).some((e) => e.source === "behaviour" || e.source === "process");

/** The nodes that state a semantic fact (selected, focused, an input, a value, an item's key)
 * with no evidence for it: each is a claim the outline must not make, right or wrong. */
export function withoutEvidence(nodes: OutlineNode[]): string[] {
  const out: string[] = [];
  for (const n of walk(nodes)) {
    const facts = [n.selected && "selected", n.focused && "focused", n.role === "input" && "input", n.value !== undefined && n.value !== null && "value", n.key !== undefined && "key"].filter(Boolean);
    if (facts.length && !(n.evidence ?? []).length) out.push(`${facts.join("+")} ${n.ref} ${n.role} ${boxText(n.bbox)} with no evidence`);
  }
  return out;
}

export function judge(label: StateLabel, nodes: OutlineNode[], grid: Grid): Judgement {
  const claims: Claim[] = [];
  const labelProblems: string[] = [];
  const all = [...walk(nodes)];
  const add = (kind: ClaimKind, node: OutlineNode, verdict: Claim["verdict"], why?: string) => claims.push({ kind, key: claimKey(kind, node), verdict, ...(why ? { why } : {}) });

  for (const list of [label.selected, label.focus, label.input]) if (list !== "unknown") for (const t of list) checkText(grid, "text", t, labelProblems);
  for (const c of label.clickables) checkText(grid, `clickable ${c.name}:`, c, labelProblems);

  const recall: Recall = { selected: { labelled: 0, found: 0 }, focus: { labelled: 0, found: 0 }, input: { labelled: 0, found: 0 }, values: { labelled: 0, found: 0 } };

  // selected: inside a labelled selection (a part of the selected thing is selected too)
  const selected = all.filter((n) => n.selected);
  if (label.selected !== "unknown") {
    const sel = label.selected;
    for (const n of selected) {
      const ok = sel.some((t) => contains(t.box, n.bbox));
      add("selected", n, ok ? "true" : "false", ok ? undefined : sel.length ? `not inside the selection (${sel.map((t) => `${JSON.stringify(t.name)} ${boxText(t.box)}`).join(", ")})` : "nothing is selected");
    }
    for (const t of sel) {
      recall.selected.labelled++;
      if (selected.some((n) => contains(t.box, n.bbox))) recall.selected.found++;
    }
  } else for (const n of selected) add("selected", n, "unjudged");

  // focused: on the focus path (contains a focused thing, or lies inside one)
  const focused = all.filter((n) => n.focused);
  if (label.focus !== "unknown") {
    const focus = label.focus;
    const onPath = (n: OutlineNode) => focus.some((t) => intersects(t.box, n.bbox) && (contains(t.box, n.bbox) || contains(n.bbox, t.box)));
    for (const n of focused) add("focused", n, onPath(n) ? "true" : "false", onPath(n) ? undefined : focus.length ? `keys go to ${focus.map((t) => `${JSON.stringify(t.name)} ${boxText(t.box)}`).join(" > ")}` : "nothing has the focus");
    const innermost = focus.at(-1);
    if (innermost) {
      recall.focus.labelled++;
      if (focused.some((n) => contains(innermost.box, n.bbox))) recall.focus.found++;
    }
  } else for (const n of focused) add("focused", n, "unjudged");

  // input: a text field where typed text lands
  const inputs = all.filter((n) => n.role === "input");
  if (label.input !== "unknown") {
    const fields = label.input;
    for (const n of inputs) {
      const ok = fields.some((t) => contains(t.box, n.bbox));
      add("input", n, ok ? "true" : "false", ok ? undefined : fields.length ? `typed text lands in ${fields.map((t) => `${JSON.stringify(t.name)} ${boxText(t.box)}`).join(", ")}` : "no text field here: keys are commands");
    }
    for (const t of fields) {
      recall.input.labelled++;
      if (inputs.some((n) => contains(t.box, n.bbox))) recall.input.found++;
    }
  } else for (const n of inputs) add("input", n, "unjudged");

  // values of durable refs
  const valued = all.filter((n) => n.value !== undefined && n.value !== null && !POSITIONAL.test(n.ref));
  for (const n of valued) {
    const want = label.values[n.ref];
    const v = String(n.value);
    if (!want) add("value", n, "unjudged");
    else if ("absent" in want) add("value", n, "false", `${n.ref} has no value here`);
    else if ("unknown" in want) {
      const ok = v === "unknown" || (want.actual === v && hasOwnEvidence(n));
      add("value", n, ok ? "true" : "false", ok ? undefined : `the screen cannot tell ${n.ref}${want.actual === v ? " (right, but without behaviour or process evidence)" : want.actual ? ` (it is ${JSON.stringify(want.actual)})` : ""}`);
    } else add("value", n, want.accept.includes(v) ? "true" : "false", want.accept.includes(v) ? undefined : `${n.ref} is ${want.accept.map((a) => JSON.stringify(a)).join(" or ")}`);
  }
  for (const [ref, want] of Object.entries(label.values)) {
    if ("absent" in want) continue;
    recall.values.labelled++;
    const stated = valued.filter((n) => n.ref === ref).map((n) => String(n.value));
    if ("accept" in want ? stated.some((v) => want.accept.includes(v)) : stated.some((v) => v === "unknown" || v === want.actual)) recall.values.found++;
  }

  const clicks: ClickCheck[] = label.clickables.map((c) => {
    const target = clickTarget(c, label.clickables, all);
    if (target.outcome === "fail") claims.push({ kind: "click", key: `click ${JSON.stringify(c.name)} via ${target.node!.role} ${boxText(target.node!.bbox)}`, verdict: "false", why: target.why });
    return { name: c.name, outcome: target.outcome, ref: target.node?.ref, why: target.why };
  });

  return { claims, recall, clicks, labelProblems };
}

/**
 * The ref a caller would click for a labelled clickable: the smallest node that covers it and no
 * other clickable of the state (none: a miss). A click by ref lands on the node's centre
 * (lib/worker/session-core.ts #aim); the node's bounds must be the drawn thing's, not more, or
 * it is a failure even when the centre happens to fall inside.
 */
export function clickTarget(c: Clickable, clickables: Clickable[], nodes: OutlineNode[]): { outcome: "ok" | "miss" | "fail"; node?: OutlineNode; row?: number; col?: number; why: string } {
  const others = clickables.filter((o) => o !== c);
  const specific = nodes.filter((n) => intersects(n.bbox, c.box) && !others.some((o) => intersects(n.bbox, o.box)));
  if (specific.length === 0) return { outcome: "miss", why: "no node covers it alone" };
  const node = specific.reduce((a, b) => (a.bbox.rows * a.bbox.cols <= b.bbox.rows * b.bbox.cols ? a : b));
  const row = node.bbox.row + Math.floor((node.bbox.rows - 1) / 2);
  const col = node.bbox.col + Math.floor((Math.max(1, node.bbox.cols) - 1) / 2);
  const inside = row >= c.box.row && row < c.box.row + c.box.rows && col >= c.box.col && col < c.box.col + c.box.cols;
  if (!inside) return { outcome: "fail", node, row, col, why: `a click on its ref lands on row ${row}, col ${col}, outside ${c.name} ${boxText(c.box)}` };
  if (!contains(c.box, node.bbox)) return { outcome: "fail", node, row, col, why: `its node reaches past ${c.name} ${boxText(c.box)} (a click lands on its centre, ${row},${col}, only by luck)` };
  return { outcome: "ok", node, row, col, why: `lands on ${row},${col}` };
}
