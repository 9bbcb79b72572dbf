// A manifest applied to a screen: each region becomes a node with a durable ref
// (@root.region), its text as name (its label when its items carry all of that text), its
// value from [[values]], items as children, and focus.
// A region whose rows, anchors or attributes are not on screen is absent.
import type { Grid, GridRow, Style } from "../terminal/grid.ts";
import type { DraftNode } from "../outline/refs.ts";
import { genericOutline, type SelectionClaim } from "../outline/generic.ts";
import type { BBox, Evidence } from "../outline/types.ts";
import { findWindows, sliceGrid, type WindowLayout } from "./manifest-windows.ts";
import type { AttrPredicate, CompiledManifest, CompiledRegion, RowSpec } from "./load-manifest.ts";
import { withoutPixels } from "../terminal/pixels.ts";
import { NO_FACTS, type ProcessFacts } from "./process-facts.ts";
import { childrenCarryText } from "../outline/container-name.ts";
import { unclaimedOutline } from "./unclaimed.ts";

function styleMatches(style: Style, want: AttrPredicate): boolean {
  if (want.inverse !== undefined && (style.inverse === true) !== want.inverse) return false;
  if (want.bold !== undefined && (style.bold === true) !== want.bold) return false;
  if (want.dim !== undefined && (style.dim === true) !== want.dim) return false;
  if (want.strikethrough !== undefined && (style.strikethrough === true) !== want.strikethrough) return false;
  if (want.fg !== undefined && style.fg !== want.fg) return false;
  if (want.bg !== undefined && style.bg !== want.bg) return false;
  return true;
}

/** Columns of a row whose style matches, as a fraction of the span's width. */
function coverage(row: GridRow, from: number, to: number, want: AttrPredicate): number {
  let hits = 0;
  for (let c = from; c < to; c++) if (styleMatches(row.styles[c]!, want)) hits++;
  return to > from ? hits / (to - from) : 0;
}

/** A row's share in `want`. A row padded with a background to the width it was drawn at (a
 * prompt's bar) keeps that width when the terminal grows wider (50 columns of background on a
 * 120-column screen): it is measured up to its padding's end, the columns added are no part
 * of it. Other rows are measured across. */
function rowCoverage(row: GridRow, from: number, to: number, want: AttrPredicate): number {
  let end = to;
  const plain = (c: number) => row.chars[c] === " " && row.styles[c]!.bg === undefined && !row.styles[c]!.inverse;
  while (end > from && plain(end - 1)) end--;
  const padded = end < to && end > from && row.chars[end - 1] === " " && row.styles[end - 1]!.bg !== undefined;
  return coverage(row, from, padded ? end : to, want);
}

function isHighlighted(row: GridRow, from: number, to: number): boolean {
  let hits = 0;
  for (let c = from; c < to; c++) if (row.styles[c]!.inverse || row.styles[c]!.bg !== undefined) hits++;
  return hits * 2 >= to - from;
}

function lastNonEmpty(grid: Grid): number {
  for (let r = grid.rows - 1; r >= 0; r--) if (grid.lines[r]!.text.trim() !== "") return r;
  return -1;
}

function resolveRows(spec: RowSpec, grid: Grid): [number, number] | null {
  const at = (n: number) => (n < 0 ? grid.rows + n : n);
  switch (spec.kind) {
    case "range": {
      const from = Math.max(0, at(spec.from));
      const to = Math.min(grid.rows - 1, at(spec.to));
      return from <= to ? [from, to] : null;
    }
    case "last-non-empty": {
      const row = lastNonEmpty(grid);
      return row < 0 ? null : [row, row];
    }
    case "cursor":
      return [grid.cursor.row, grid.cursor.row];
    case "above-cursor":
      return grid.cursor.row > 0 ? [0, grid.cursor.row - 1] : null;
  }
}

function rowText(grid: Grid, row: number, from: number, to: number): string {
  // Full-width rows are already joined in the grid (trailing spaces trimmed).
  if (from === 0 && to >= grid.cols) return grid.lines[row]!.text;
  return grid.lines[row]!.chars.slice(from, to).join("").replace(/\s+$/, "");
}

/** The grid with the box's placeholder cells (an empty input's dim hint) blanked: not text. */
function withoutPlaceholder(grid: Grid, box: BBox, want: AttrPredicate): Grid {
  const lines = grid.lines.slice();
  for (let r = box.row; r < box.row + box.rows; r++) {
    const line = grid.lines[r]!;
    let changed = false;
    const inBox = (c: number) => c >= box.col && c < box.col + box.cols;
    const hint = (c: number) => inBox(c) && styleMatches(line.styles[c]!, want);
    // A drawn cursor (one inverse cell) on the placeholder's first letter belongs to it.
    const cursorOnHint = (c: number) => inBox(c) && line.styles[c]!.inverse === true && !hint(c) && hint(c + 1);
    const chars = line.chars.map((ch, c) => {
      if (!hint(c) && !cursorOnHint(c)) return ch;
      changed = true;
      return " ";
    });
    if (changed) lines[r] = { chars, styles: line.styles, text: chars.join("").replace(/\s+$/, "") };
  }
  return { ...grid, lines };
}

/** The region's box on this screen, or null when it is not there. */
function locate(region: CompiledRegion, grid: Grid): BBox | null {
  const rows = resolveRows(region.rows, grid);
  if (!rows) return null;
  let [first, last] = rows;
  const colFrom = region.cols ? (region.cols.from < 0 ? grid.cols + region.cols.from : region.cols.from) : 0;
  const colTo = region.cols ? (region.cols.to < 0 ? grid.cols + region.cols.to : region.cols.to) + 1 : grid.cols;
  if (colFrom >= colTo) return null;
  const text = (r: number) => rowText(grid, r, colFrom, colTo);
  const find = (re: RegExp, start: number, fromEnd = false) => {
    if (fromEnd) { for (let r = last; r >= start; r--) if (re.test(text(r))) return r; return -1; }
    for (let r = start; r <= last; r++) if (re.test(text(r))) return r;
    return -1;
  };
  // What `unless` names (a spinner, an open dialog) is drawn live: on a grid with scrollback on
  // top (a turn's tall grid) a match up there is a frame left over, not a state (turns-scrollback.ts).
  if (region.unless) for (let r = Math.max(first, grid.above ?? 0); r <= last; r++) if (region.unless.test(text(r))) return null;
  if (region.unlessAttrs) for (let r = first; r <= last; r++) if (rowCoverage(grid.lines[r]!, colFrom, colTo, region.unlessAttrs) * 2 >= 1) return null;
  if (region.afterAttrs) {
    let found = -1;
    for (let r = last; r >= first; r--) if (rowCoverage(grid.lines[r]!, colFrom, colTo, region.afterAttrs) * 2 >= 1) { found = r; break; }
    if (found < 0 || found === last) return null;
    first = found + 1;
  }
  if (region.last) {
    // Anchored from the bottom: the end's last match, then the start's last match above it.
    if (region.to) { const r = find(region.to, first, true); if (r < 0) return null; last = r - 1; }
    if (region.until) { const r = find(region.until, first, true); if (r < 0) return null; last = r; }
    if (region.from) { const r = find(region.from, first, true); if (r < 0) return null; first = r; }
    if (region.after) { const r = find(region.after, first, true); if (r < 0 || r === last) return null; first = r + 1; }
  } else {
    if (region.from) { const r = find(region.from, first); if (r < 0) return null; first = r; }
    if (region.after) { const r = find(region.after, first); if (r < 0 || r === last) return null; first = r + 1; }
    if (region.to) { const r = find(region.to, first); if (r < 0) return null; last = r - 1; }
    if (region.until) { const r = find(region.until, first); if (r < 0) return null; last = r; }
  }
  if (region.toAttrs) {
    const want = region.toAttrs;
    for (let r = first; r <= last; r++) if (rowCoverage(grid.lines[r]!, colFrom, colTo, want) * 2 >= 1) { last = r - 1; break; }
  }
  if (region.predicate) {
    const want = region.predicate;
    const matching: number[] = [];
    for (let r = first; r <= last; r++) if (coverage(grid.lines[r]!, colFrom, colTo, want) > 0) matching.push(r);
    if (matching.length === 0) return null;
    first = matching[0]!;
    last = matching.at(-1)!;
  }
  if (last < first) return null;
  if (region.requires) {
    let found = false;
    for (let r = first; r <= last && !found; r++) found = region.requires.test(text(r));
    if (!found) return null;
  }
  if (region.unlessWithin) for (let r = first; r <= last; r++) if (region.unlessWithin.test(text(r))) return null;
  const box = { row: first, col: colFrom, rows: last - first + 1, cols: colTo - colFrom };
  if (region.needsCursor && !cursorIn(grid, box)) return null;
  return box;
}

/** Runs of text in one style, split where the style changes or at two blanks or more (a
 * browser page's words, links and labels). A run's role comes from `item_roles` by its style. */
function runs(region: CompiledRegion, grid: Grid, box: BBox): DraftNode[] {
  const nodes: DraftNode[] = [];
  const roleOf = (style: Style) => region.itemRoles.find((entry) => styleMatches(style, entry.when))?.role ?? region.itemRole;
  for (let r = box.row; r < box.row + box.rows; r++) {
    const line = grid.lines[r]!;
    let start = -1;
    let last = -1;
    const flush = () => {
      if (start < 0) return;
      const name = line.chars.slice(start, last + 1).join("").trim();
      if (name) nodes.push({ role: roleOf(line.styles[start]!), name, bbox: { row: r, col: start, rows: 1, cols: last + 1 - start }, children: [] });
      start = -1;
    };
    for (let c = box.col; c < box.col + box.cols; c++) {
      if (line.chars[c] === " ") continue; // "" is a wide character's right half: text
      if (start >= 0 && (line.styles[c] !== line.styles[start] || c - last > 2)) flush();
      if (start < 0) start = c;
      last = c;
    }
    flush();
  }
  return nodes;
}

function withKey(region: CompiledRegion, node: DraftNode): DraftNode {
  if (!region.key) return node;
  const match = region.key.exec(node.name);
  const key = match ? (match.groups?.key ?? match[1] ?? match[0]) : undefined;
  if (key) node.key = key;
  return node;
}

function items(region: CompiledRegion, grid: Grid, box: BBox): DraftNode[] {
  if (region.items === "runs") return runs(region, grid, box);
  const nodes: DraftNode[] = [];
  const to = box.col + box.cols;
  for (let r = box.row; r < box.row + box.rows; r++) {
    const text = rowText(grid, r, box.col, to);
    if (region.items === "row") {
      if (text.trim() === "") continue;
      const line = grid.lines[r]!;
      const selected = region.selected ? coverage(line, box.col, to, region.selected) * 2 >= 1 : isHighlighted(line, box.col, to);
      nodes.push(withKey(region, { role: region.itemRole, name: text.trim(), bbox: { row: r, col: box.col, rows: 1, cols: box.cols }, ...(selected ? { selected } : {}), children: [] }));
    } else if (region.items) {
      const global = new RegExp(region.items.source, region.items.flags.includes("g") ? region.items.flags : `${region.items.flags}g`);
      for (const match of text.matchAll(global)) {
        if (!match[0]) continue;
        const col = box.col + [...text.slice(0, match.index)].length;
        const cols = [...match[0]].length;
        // A regex item is selected when `selected` is given and most of its cells have it (a
        // highlighted button in a row of buttons).
        const selected = region.selected !== null && coverage(grid.lines[r]!, col, col + cols, region.selected) * 2 >= 1;
        nodes.push(withKey(region, { role: region.itemRole, name: match[0].trim(), bbox: { row: r, col, rows: 1, cols }, ...(selected ? { selected } : {}), children: [] }));
      }
    }
  }
  return nodes;
}

function cursorIn(grid: Grid, box: BBox): boolean {
  const { row, col, visible } = grid.cursor;
  return visible && row >= box.row && row < box.row + box.rows && col >= box.col && col < box.col + box.cols;
}

/** The style of the first non-blank cell in the box. */
function leadingStyle(grid: Grid, box: BBox): Style | null {
  for (let r = box.row; r < box.row + box.rows; r++) {
    const line = grid.lines[r]!;
    for (let c = box.col; c < box.col + box.cols; c++) if (line.chars[c] && line.chars[c] !== " ") return line.styles[c]!;
  }
  return null;
}

/** How a region read from an alternative whose start scrolled above the screen says so. */
export const SCROLLED = "(scrolled: its start is above the screen, the text is partial)";

type ValueFound = { value: string; rule: string };

/** The value of a region: the first [[values]] entry whose regex matches wins; else a default.
 * `texts` are the located regions' texts (for `when_region`). */
function valueOf(manifest: CompiledManifest, region: string, text: string, cursorInside: boolean, lead: Style | null, facts: ProcessFacts, texts: Map<string, string>): ValueFound | undefined {
  let fallback: ValueFound | undefined;
  for (const [i, entry] of manifest.values.entries()) {
    if (entry.region !== region) continue;
    if (entry.whenRegion) {
      const other = texts.get(entry.whenRegion.region);
      if (other === undefined || !entry.whenRegion.regex.test(other)) continue;
    }
    if (fallback === undefined && entry.defaultOnceSeen && facts.seenValues) {
      const seen = facts.seenValues(`@${manifest.root}.${region}`);
      const shown = entry.defaultOnceSeen.seen.find((value) => seen.has(value));
      if (shown !== undefined) fallback = { value: entry.defaultOnceSeen.value, rule: `values.${i}.default_once_seen (${JSON.stringify(shown)} was shown earlier)` };
    }
    if (fallback === undefined && entry.default !== undefined) fallback = { value: entry.default, rule: `values.${i}.default` };
    if (entry.cursorIn && !cursorInside) continue;
    if (entry.whenAttrs && !(lead && styleMatches(lead, entry.whenAttrs))) continue;
    const match = entry.regex.exec(text);
    if (!match) continue;
    const raw = match.groups?.value ?? match[1] ?? match[0];
    return { value: entry.map?.[raw] ?? raw, rule: `values.${i}` };
  }
  return fallback;
}

function focused(manifest: CompiledManifest, region: string, text: string, cursorInside: boolean, grid: Grid, box: BBox): boolean {
  const rule = manifest.focus.find((f) => f.region === region);
  if (!rule || rule.when === "cursor") return cursorInside;
  if (rule.when === "always") return true;
  if (rule.when === "never") return false;
  if (rule.when === "attrs") {
    for (let r = box.row; r < box.row + box.rows; r++) if (coverage(grid.lines[r]!, box.col, box.col + box.cols, rule.attrs!) > 0) return true;
    return false;
  }
  return rule.when.test(text);
}

/** An item has the keys when the cursor is in it, or when most of its cells are drawn focused. */
function itemHasFocus(rule: "cursor" | AttrPredicate, grid: Grid, box: BBox): boolean {
  if (rule === "cursor") return cursorIn(grid, box);
  return coverage(grid.lines[box.row]!, box.col, box.col + box.cols, rule) * 2 >= 1;
}

type Observed = { revision: number; claim: SelectionClaim | null };

/** Where a region is read: the whole screen, or inside a window of the manifest's [windows]. */
function regionFrame(region: CompiledRegion, layout: WindowLayout | null, grid: Grid): BBox | null {
  const screen = { row: 0, col: 0, rows: grid.rows, cols: grid.cols };
  if (!region.window || !layout) return screen;
  if (region.window === "single") return layout.kind === "single" ? screen : null;
  // One window: its text is the screen but the last row (where the command line is).
  if (layout.kind === "single") return region.window === "current" && grid.rows > 1 ? { ...screen, rows: grid.rows - 1 } : null;
  if (!layout.current) return null;
  return region.window === "current" ? layout.current.text : layout.current.status;
}

function shifted(node: DraftNode, by: { row: number; col: number }): DraftNode {
  if (by.row === 0 && by.col === 0) return node;
  node.bbox = { ...node.bbox, row: node.bbox.row + by.row, col: node.bbox.col + by.col };
  node.children = node.children.map((child) => shifted(child, by));
  return node;
}

/** The manifest's outline: one root node (@root) whose children are its regions. Every region,
 * value, focus and selected item cites the manifest rule and the cells it rests on. */
export function manifestOutline(manifest: CompiledManifest, drawn: Grid, facts: ProcessFacts = NO_FACTS, observed: Observed = { revision: 0, claim: null }): DraftNode[] {
  const grid = withoutPixels(drawn, manifest.pixels);
  const layout = manifest.windows ? findWindows(grid, manifest.windows) : null;
  // Evidence for cells that are the citing node's own box leaves them out (types.ts): one entry
  // per rule, shared by every node it produced (a table's 50 rows cite one key rule).
  const own = new Map<string, Evidence>();
  const evidence = (rule: string, cells?: BBox): Evidence => {
    if (cells) return { source: "manifest", adapter: manifest.name, rule, cells, revision: observed.revision };
    let entry = own.get(rule);
    if (!entry) own.set(rule, (entry = { source: "manifest", adapter: manifest.name, rule, revision: observed.revision }));
    return entry;
  };
  const seen = new Set<string>();
  const located: { region: CompiledRegion; node: DraftNode; text: string; inside: boolean; lead: Style | null; focus: boolean }[] = [];
  let screenText: string | null = null;
  // Alternatives repeat one screen test (htop's six `when_screen` for its side menu): each
  // pattern is run over the whole screen once. Global or sticky ones keep state: run each time.
  const screenTests = new Map<string, boolean>();
  const onScreen = (re: RegExp): boolean => {
    screenText ??= grid.lines.map((line) => line.text).join("\n");
    if (re.global || re.sticky) return re.test(screenText);
    const key = `${re.flags}/${re.source}`;
    let found = screenTests.get(key);
    if (found === undefined) screenTests.set(key, (found = re.test(screenText)));
    return found;
  };
  for (const [index, region] of manifest.regions.entries()) {
    if (seen.has(region.name)) continue; // alternatives: the first one on screen wins
    if (region.when === "shell-foreground" && facts.shellForeground !== true) continue;
    if (region.when === "turn" && facts.turn !== true) continue;
    if (region.altScreen !== null && region.altScreen !== grid.altScreen) continue;
    if (region.unlessScreen && onScreen(region.unlessScreen)) continue;
    if (region.whenScreen && !onScreen(region.whenScreen)) continue;
    const frame = regionFrame(region, layout, grid);
    if (!frame) continue;
    const inFrame = frame.rows === grid.rows && frame.cols === grid.cols ? grid : sliceGrid(grid, frame);
    const box = locate(region, inFrame);
    if (!box) continue;
    seen.add(region.name);
    const lines: string[] = [];
    const read = region.placeholder ? withoutPlaceholder(inFrame, box, region.placeholder) : inFrame;
    for (let r = box.row; r < box.row + box.rows; r++) lines.push(rowText(read, r, box.col, box.col + box.cols));
    const text = lines.join("\n").replace(/\n+$/, "");
    const inside = cursorIn(inFrame, box);
    const node: DraftNode = shifted({
      ref: `@${manifest.root}.${region.name}`,
      role: region.role,
      name: text.trim(),
      bbox: box,
      children: region.items ? items(region, inFrame, box) : [],
    }, frame);
    if (childrenCarryText(text, node.children)) node.name = region.name; // its rows say the text (container-name.ts)
    node.evidence = [evidence(`regions.${index}${region.window ? ` (window ${region.window})` : ""}${region.scrolled ? ` ${SCROLLED}` : ""}`)];
    for (const item of node.children) {
      if (region.focusItem && itemHasFocus(region.focusItem, grid, item.bbox)) item.focused = true;
      const rules = [...(item.selected ? [`regions.${index}.selected`] : []), ...(item.focused ? [`regions.${index}.focus_item`] : []), ...(item.key !== undefined ? [`regions.${index}.key`] : [])];
      if (rules.length) item.evidence = rules.map((rule) => evidence(rule));
    }
    located.push({ region, node, text, inside, lead: leadingStyle(inFrame, box), focus: focused(manifest, region.name, text, inside, inFrame, box) });
  }
  // Values second: a value may depend on another region's text (when_region).
  const texts = new Map(located.map(({ region, text }) => [region.name, text]));
  const regions: DraftNode[] = [];
  for (const { region, node, text, inside, lead, focus } of located) {
    const found = valueOf(manifest, region.name, text, inside, lead, facts, texts);
    if (found !== undefined) {
      node.value = found.value;
      node.evidence!.push(evidence(found.rule));
    }
    if (focus) {
      node.focused = true;
      const rule = manifest.focus.findIndex((f) => f.region === region.name);
      node.evidence!.push(evidence(rule < 0 ? "focus (the cursor is in the region)" : `focus.${rule}`));
    }
    // A region that exists because of a process fact cites that fact's evidence first: its basis.
    if (region.when === "shell-foreground" && facts.shellForegroundEvidence) node.evidence!.unshift(...facts.shellForegroundEvidence);
    regions.push(node);
  }
  // The other windows: each its own node (the current one's text and status are regions).
  const claimed = regions.map((node) => node.bbox);
  if (layout?.kind === "split" && manifest.windows?.others) {
    layout.others.forEach((window, i) => {
      const box = { ...window.text, rows: window.status.row - window.text.row + 1 };
      const text = sliceGrid(grid, window.text);
      regions.push({
        ref: `@${manifest.root}.${manifest.windows!.others}.${i}`,
        role: "window",
        name: rowText(grid, window.status.row, window.status.col, window.status.col + window.status.cols).trim(),
        bbox: box,
        evidence: [evidence("windows (a status line not drawn as the current one's)", window.status)],
        children: genericOutline(text).map((node) => shifted(node as DraftNode, window.text)),
      });
      claimed.push(box, window.status);
    });
  }
  regions.sort((a, b) => a.bbox.row - b.bbox.row || a.bbox.col - b.bbox.col);
  const rest = manifest.generic ? genericOutline(grid, observed) : unclaimedOutline(grid, claimed, observed);
  if (manifest.panes) rest.filter((node) => node.role === "pane").forEach((pane, i) => { (pane as DraftNode).ref = `@${manifest.root}.${manifest.panes}.${i}`; });
  const children = rest.length === 0 ? regions : [...regions, ...rest].sort((a, b) => a.bbox.row - b.bbox.row || a.bbox.col - b.bbox.col);
  const whole = { row: 0, col: 0, rows: grid.rows, cols: grid.cols };
  return [{ ref: `@${manifest.root}`, role: "application", name: manifest.name, bbox: whole,
    ...(manifest.focusRoot ? { focused: true } : {}),
    evidence: [evidence("detect"), ...(manifest.focusRoot ? [evidence("focus_root")] : [])], children }];
}
