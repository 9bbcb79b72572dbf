// The compact text outline for LLM context: one line per node, indented by depth:
//   @vim.mode status "-- INSERT --" = insert [focused]
// It must cost less than the text it replaces: no text is printed twice (a node whose text
// another node already printed points at it; a dialog's text leaves out its options' rows),
// repeated rows (vim's `~`) fold into a count, a run of blank rows prints as one break (⏎⏎),
// runs of spaces (table alignment) print as one, and an empty pane (only a box) is left to the JSON.
import type { OutlineNode } from "./types.ts";
import { childrenCarryText, namedByLabel } from "./container-name.ts";

const MAX_NAME = 120;
/** A multi-row text (a document, an output) shows its first row and its last rows up to this
 * many characters; what is left out is counted on the line (`snapshot --select REF` has it all). */
const MAX_MULTILINE = 80;
const MAX_TAIL = 100;
/** A dialog or menu is read whole up to this many characters: its choices are the point of it. */
const MAX_CHOICES = 400;
const CHOICE_ROLES = new Set(["dialog", "menu", "list"]);
/** Rows kept from a folded middle because they read as errors (a traceback's last line, E37:). */
const ERROR_ROW = /\b(error|exception|traceback|fatal|failed|denied|not found|no such|cannot|refused)\b|^E\d+:|^\s*\^/i;
const MAX_ERROR_ROWS = 3;
/** Shorter texts are cheaper to repeat than to point at. */
const MIN_SHARED = 12;

/** Runs of 3+ identical rows as one row with a count; a run of blank rows as one blank row
 * (a paragraph break: how many blank rows is layout, which the node's box keeps). */
function foldFiller(text: string): string {
  const rows = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < rows.length;) {
    let j = i + 1;
    while (j < rows.length && rows[j]!.trim() === rows[i]!.trim()) j++;
    const run = j - i;
    const row = rows[i]!.trim();
    if (row === "") out.push("");
    else if (run >= 3) out.push(`${row} ×${run}`);
    else out.push(...rows.slice(i, j));
    i = j;
  }
  return out.join("\n");
}

/** Rows joined by " ⏎ ", a blank row between two as " ⏎⏎ " (a blank row costs one character). */
function joinRows(rows: readonly string[]): string {
  let joined = "";
  let gap = false;
  for (const row of rows) {
    if (row === "") { gap = joined !== ""; continue; }
    joined = joined === "" ? row : `${joined} ${gap ? "⏎⏎" : "⏎"} ${row}`;
    gap = false;
  }
  return joined;
}

const tidy = (row: string) => row.trim().replace(/ {2,}/g, " ").replace(/([^\s\w])\1{5,}/g, (run, c: string) => `${c}×${run.length}`);
const cut = (row: string, max: number) => (row.length > max ? `${row.slice(0, max - 1)}…` : row);

/** A node's text for its line, and what was left out of it (said after the quote, never silently).
 * A document (a file in an editor or pager) is known by its start; anything else — an output, a
 * paragraph — by its first row and its latest rows. */
function quote(text: string, role = ""): string {
  if (!text.includes("\n")) {
    const flat = tidy(text);
    return flat.length > MAX_NAME ? `${JSON.stringify(cut(flat, MAX_NAME))} (+${flat.length - MAX_NAME + 1} chars)` : JSON.stringify(flat);
  }
  const rows = foldFiller(text).split("\n").map(tidy);
  const whole = joinRows(rows);
  if (whole.length <= MAX_MULTILINE || (CHOICE_ROLES.has(role) && whole.length <= MAX_CHOICES)) return JSON.stringify(whole);
  if (role === "document") {
    let shown = "";
    let count = 0;
    for (; count < rows.length; count++) {
      const more = joinRows(rows.slice(0, count + 1));
      if (shown && more.length > MAX_MULTILINE) break;
      shown = more;
    }
    const cutChars = Math.max(0, shown.length - MAX_MULTILINE);
    return `${JSON.stringify(cut(shown, MAX_MULTILINE))} (${rows.length - count} of ${rows.length} rows${cutChars ? `, ${cutChars} chars` : ""} folded)`;
  }
  // The first row says what it is; the last rows are the latest output (a REPL's answer, a
  // shell's last lines); error rows in between stay too.
  const tail: number[] = [];
  let used = 0;
  for (let i = rows.length - 1; i > 0 && used + rows[i]!.length <= MAX_TAIL; i--) { tail.unshift(i); used += rows[i]!.length + 3; }
  if (tail.length === 0 && rows.length > 1) tail.push(rows.length - 1);
  const firstTail = tail[0] ?? rows.length;
  const errors = rows.map((row, i) => ({ row, i })).filter(({ row, i }) => i > 0 && i < firstTail && ERROR_ROW.test(row)).slice(-MAX_ERROR_ROWS).map(({ i }) => i);
  const shown = [0, ...errors, ...tail];
  const parts: string[] = [];
  let previous = -1;
  let folded = 0;
  for (const i of shown) {
    if (i > previous + 1) { parts.push("…"); folded += i - previous - 1; }
    parts.push(cut(rows[i]!, i === 0 ? MAX_MULTILINE : MAX_TAIL));
    previous = i;
  }
  const chars = shown.reduce((n, i) => n + Math.max(0, rows[i]!.length - (i === 0 ? MAX_MULTILINE : MAX_TAIL)), 0);
  const note = [folded ? `${folded} of ${rows.length} rows` : "", chars ? `${chars} chars` : ""].filter(Boolean).join(", ");
  return `${JSON.stringify(joinRows(parts))}${note ? ` (${note} folded)` : ""}`;
}

const squash = (text: string) => text.replace(/\s+/g, "");

/** A text that begins with rows another node printed (a chat's done mark under its answer):
 * the ref that printed them, and the rows after them. */
function continuesPrinted(text: string, printed: Map<string, string>): { ref: string; rest: string } | null {
  const rows = text.split("\n");
  for (let n = rows.length - 1; n >= 1; n--) {
    const key = squash(rows.slice(0, n).join("\n"));
    const ref = key.length >= MIN_SHARED ? printed.get(key) : undefined;
    if (ref) {
      const rest = rows.slice(n).join("\n").replace(/^\s*\n/, "");
      return rest.trim() === "" ? null : { ref, rest };
    }
  }
  return null;
}

/** The one child that highlights its parent's whole text (a past prompt drawn on a grey
 * background, a gutter mark aside): said on the parent's line, not as a line of its own. */
function wholeHighlight(node: OutlineNode): OutlineNode | null {
  const only = node.children?.length === 1 ? node.children[0]! : null;
  if (!only || only.role !== "highlight" || only.children || only.value !== undefined || only.focused || only.selected) return null;
  const [parent, child] = [squash(node.name), squash(only.name)];
  return child !== "" && parent.endsWith(child) && !/[\p{L}\p{N}]/u.test(parent.slice(0, parent.length - child.length)) && parent.length - child.length <= 3 ? only : null;
}

/** A document's name that holds its value (an answer inside its region's text): the value's
 * place marked. (An input's or a status's short text stays as drawn.) */
function nameAroundValue(node: OutlineNode): string | null {
  const value = node.value?.trim() ?? "";
  if (node.role !== "document" || squash(value).length < MIN_SHARED || node.name === node.value) return null;
  const at = node.name.indexOf(value);
  return at < 0 ? null : `${node.name.slice(0, at)}‹value›${node.name.slice(at + value.length)}`;
}

/** A dialog's or menu's text without the rows its items print (they follow as its children). */
function withoutItemRows(node: OutlineNode): string {
  // An item's row may carry its selection mark or a box's side ("› 1. Yes", "│ ● 1. Allow once").
  const key = (text: string) => squash(text).replace(/^[^\p{L}\p{N}]+/u, "");
  const items = new Set((node.children ?? []).map((child) => key(child.name)).filter((k) => k !== ""));
  if (!CHOICE_ROLES.has(node.role) || items.size === 0) return node.name;
  const isItem = (text: string) => items.has(key(text));
  const rows = node.name.split("\n");
  let changed = false;
  const kept: string[] = [];
  for (const row of rows) {
    if (isItem(row)) { changed = true; continue; }
    // Items side by side on one row ("Allow once   Allow always   Reject   enter confirm"):
    // the row without them, gone if nothing but a gutter is left.
    const cells = row.split(/\s{2,}/);
    const rest = cells.filter((cell) => !isItem(cell));
    if (rest.length === cells.length) { kept.push(row); continue; }
    changed = true;
    const left = rest.join("  ");
    if (/[\p{L}\p{N}]/u.test(left)) kept.push(left);
  }
  return changed ? kept.join("\n").replace(/\n{3,}/g, "\n\n").trim() : node.name;
}

/** A container whose children carry all its text (a table and its rows) is not named twice;
 * a manifest names it by its label (container-name.ts), which its ref already says. */
function repeatsChildren(node: OutlineNode): boolean {
  return namedByLabel(node) || childrenCarryText(node.name, node.children ?? []);
}

/** The one role all of a container's (3 or more) children share, said once on the container
 * (on a dialog or menu named by its own text too: "(3 options)"). */
function sharedRole(node: OutlineNode): string | null {
  const children = node.children ?? [];
  if (children.length < 3) return null;
  const role = children[0]!.role;
  return children.every((child) => child.role === role) ? role : null;
}

/** Short plain leaves (a toolbar's keys) print on their container's line. */
function inlineChildren(node: OutlineNode, role: string | null): boolean {
  return role !== null && (node.children ?? []).every((child) =>
    !child.children && child.value === undefined && !child.focused && !child.selected && child.name.length <= 24);
}

/** A short plain highlight (a shortcut key, a tab): said inline with its neighbours. */
const plainHighlight = (node: OutlineNode) =>
  node.role === "highlight" && !node.children && !node.selected && !node.focused && node.value === undefined && node.name.length <= 24;

/** Three or more plain highlights in a row print on one line: "@e6 "^G" @e7 "^O" …". */
const MIN_INLINE_RUN = 3;

export function compactOutline(nodes: OutlineNode[], depth = 0, printed = new Map<string, string>(), roleSaid: string | null = null): string[] {
  const lines: string[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    let end = i;
    while (end < nodes.length && plainHighlight(nodes[end]!)) end++;
    if (end - i >= MIN_INLINE_RUN && roleSaid !== "highlight") {
      const run = nodes.slice(i, end);
      lines.push(`${"  ".repeat(depth)}highlights: ${run.map((n) => `${n.ref} ${quote(n.name)}`).join(" ")}`);
      i = end - 1;
      continue;
    }
    // An empty pane (the space between two rules) says nothing but its box: the JSON keeps it.
    if (node.role === "pane" && !node.name && !node.children?.length && node.value === undefined && !node.focused && !node.selected) continue;
    let line = `${"  ".repeat(depth)}${node.ref}${node.role === roleSaid ? "" : ` ${node.role}`}`;
    const key = squash(node.name);
    const childRole = sharedRole(node);
    const choicesSaid = !repeatsChildren(node) && CHOICE_ROLES.has(node.role) && childRole !== null;
    if (repeatsChildren(node)) line += ` (${node.children!.length} items${childRole ? `: ${childRole}` : ""})`;
    else if (!node.name || node.name === node.value || (node.role === "application" && node.ref === `@${node.name}`)) {
      // nothing to add: the value or the ref says it
    } else if (key.length >= MIN_SHARED && printed.has(key)) {
      if (node.value === undefined) line += ` (text of ${printed.get(key)})`;
    } else {
      const continued = continuesPrinted(node.name, printed);
      const around = continued ? null : nameAroundValue(node);
      line += continued ? ` (text of ${continued.ref}) ⏎ ${quote(continued.rest, node.role)}` : ` ${quote(around ?? withoutItemRows(node), node.role)}`;
      if (key.length >= MIN_SHARED) printed.set(key, node.ref);
    }
    if (node.role === "cursor") line += ` at ${node.bbox.row},${node.bbox.col}`;
    if (node.value !== undefined) line += ` = ${quote(node.value)}`;
    if (node.focused) line += " [focused]";
    if (node.selected) line += " [selected]";
    if (choicesSaid) line += ` (${node.children!.length} ${childRole}s)`;
    const highlight = wholeHighlight(node);
    if (highlight) {
      lines.push(`${line} [highlight ${highlight.ref}]`);
      continue;
    }
    if (node.children && inlineChildren(node, childRole) && repeatsChildren(node)) {
      lines.push(`${line} ${node.children.map((child) => `${child.ref} ${quote(child.name)}`).join(" ")}`);
      continue;
    }
    lines.push(line);
    if (node.children) lines.push(...compactOutline(node.children, depth + 1, printed, repeatsChildren(node) || choicesSaid ? childRole : null));
  }
  return lines;
}
