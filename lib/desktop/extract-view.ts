// DOM → ViewModel, inside the app's worker: walks one view document in DOM order and keeps
// only what the developer contract of §3 marks (lists, items, entities, operations) plus the
// visible text around them. Scripts, styles, templates and [hidden] elements are skipped.
import { parseArgsSchema } from "./arg-schema.ts";
import { ID_SYNTAX } from "./markdown-text.ts";
import type { Block, Item, OperationSpec, ViewModel } from "./view-model.ts";

const SKIP = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "META", "LINK", "TITLE"]);
const HEADING = /^H([1-6])$/;
const LIST_SYNTAX = /^([A-Za-z_][\w-]*)\[\]:([A-Za-z_][\w-]*)$/;
const ENTITY_SYNTAX = /^([A-Za-z_][\w-]*):([A-Za-z_][\w-]*)$/;

type El = any;

export function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Text of an element without the text of its operation elements (buttons inside items). */
function textOf(element: El): string {
  if (element.tagName === "INPUT" || element.tagName === "TEXTAREA") return collapse(element.getAttribute("value") ?? element.value ?? "");
  let out = "";
  for (const child of element.childNodes) {
    if (child.nodeType === 3) out += ` ${child.data ?? child.textContent}`;
    else if (child.nodeType === 1 && !SKIP.has(child.tagName) && !child.hasAttribute("hidden") && !child.hasAttribute("operation")) out += ` ${textOf(child)}`;
  }
  return collapse(out);
}

function hasSemanticDescendant(element: El): boolean {
  return element.querySelector("[list],[entity],[operation],h1,h2,h3,h4,h5,h6,p,li,div,section,article,ul,ol,table,tr,pre,blockquote") !== null;
}

function parseValue(raw: string | null, key: string | null, label: string): unknown {
  if (raw === null) return key ?? label;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function humanise(id: string): string {
  return id.split(/[_-]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ");
}

function pascal(id: string): string {
  return humanise(id).replace(/ /g, "");
}

/** Lists extracted before, reused while no mutation touched them (a 1 000-item list is not
 * re-read when a counter next to it changes). Kept per view by the app worker. linkedom gives
 * the observed root as the target of childList records and a removed node has no parent any
 * more, so the cache remembers which list each node it read belonged to (`owner`). */
export type ListCache = { lists: WeakMap<El, { block: Block; operations: El[] }>; dirty: Set<El>; owner: WeakMap<El, El> };

export function newListCache(): ListCache {
  return { lists: new WeakMap(), dirty: new Set(), owner: new WeakMap() };
}

function markList(cache: ListCache, element: El): void {
  const list = element?.closest?.("[list]");
  if (list) cache.dirty.add(list);
}

function remember(cache: ListCache, list: El, node: El): void {
  cache.owner.set(node, list);
  for (const child of node.childNodes ?? []) remember(cache, list, child);
}

/** Marks the lists a mutation record touched as needing a fresh read. */
export function noteMutation(cache: ListCache, record: { type: string; target: El; addedNodes: ArrayLike<El>; removedNodes: ArrayLike<El> }): void {
  if (record.type === "attributes") return markList(cache, record.target);
  const nodes = record.type === "characterData" ? [record.target] : [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)];
  for (const node of nodes) {
    const owner = cache.owner.get(node);
    if (owner) cache.dirty.add(owner);
    if (node.parentNode) markList(cache, node.parentNode);
  }
}

export function extractView(document: El, ordinal: number, cache?: ListCache): ViewModel {
  const root: El = document.querySelector("[view]") ?? document.body;
  const name = root?.getAttribute("view") || "Main";
  const blocks: Block[] = [];
  const operations = new Map<string, OperationSpec>();

  const addOperation = (element: El) => {
    const id = element.getAttribute("operation");
    // An id the agent could not write back (or that would break its reference) is not offered.
    if (!id || !ID_SYNTAX.test(id) || operations.has(id)) return;
    const parsed = parseArgsSchema(element.getAttribute("args"));
    const text = textOf(element);
    const label = element.getAttribute("title") || pascal(id) + (text && text !== pascal(id) ? ` (${text})` : "");
    operations.set(id, { id, label: parsed.error ? `${label} [broken args: ${parsed.error}]` : label, args: parsed.args });
  };

  const walk = (element: El) => {
    for (const child of element.childNodes) {
      if (child.nodeType === 3) {
        const text = collapse(child.data ?? "");
        if (text) blocks.push({ kind: "text", text });
        continue;
      }
      if (child.nodeType !== 1 || SKIP.has(child.tagName) || child.hasAttribute("hidden")) continue;
      visit(child);
    }
  };

  const visit = (element: El) => {
    if (element.hasAttribute("operation")) {
      addOperation(element);
      return;
    }
    const list = element.getAttribute("list");
    if (list !== null) {
      const cached = cache && !cache.dirty.has(element) ? cache.lists.get(element) : undefined;
      if (cached) {
        blocks.push(cached.block);
        for (const op of cached.operations) addOperation(op);
        return;
      }
      const match = LIST_SYNTAX.exec(list);
      if (match) {
        const items: Item[] = [];
        for (const child of element.children) {
          if (SKIP.has(child.tagName) || child.hasAttribute("hidden")) continue;
          const label = textOf(child);
          const key = child.getAttribute("key");
          items.push({ label, key, value: parseValue(child.getAttribute("data-value"), key, label) });
          for (const op of child.querySelectorAll("[operation]")) addOperation(op);
        }
        const block: Block = { kind: "list", id: match[2]!, type: match[1]!, title: element.getAttribute("title") || humanise(match[2]!), items };
        blocks.push(block);
        if (cache) {
          cache.lists.set(element, { block, operations: [...element.querySelectorAll("[operation]")] });
          cache.dirty.delete(element);
          for (const child of element.childNodes) remember(cache, element, child);
        }
        return;
      }
    }
    if (element.tagName === "PRE") {
      // Preformatted: line breaks and spaces are the content.
      const text = String(element.textContent ?? "").replace(/^\n/, "").replace(/\s+$/, "");
      if (text) blocks.push({ kind: "pre", text });
      for (const op of element.querySelectorAll("[operation]")) addOperation(op);
      return;
    }
    const entityAttr = element.getAttribute("entity");
    const entity = entityAttr && ENTITY_SYNTAX.test(entityAttr) ? entityAttr.split(":")[1] : undefined;
    const heading = HEADING.exec(element.tagName);
    if (heading || entity || !hasSemanticDescendant(element)) {
      const text = textOf(element);
      if (text || entity) blocks.push(heading ? { kind: "heading", level: Number(heading[1]), text, entity } : { kind: "text", text, entity });
      for (const op of element.querySelectorAll("[operation]")) addOperation(op);
      return;
    }
    walk(element);
  };

  if (root) walk(root);
  return { ordinal, name, blocks, operations: [...operations.values()] };
}
