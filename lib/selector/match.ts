// Matching a parsed selector against an outline, right to left as CSS does.
import type { OutlineNode } from "../outline/types.ts";
import type { AttrTest, Complex, Compound, Selector } from "./parse.ts";

function testAttr(node: OutlineNode, test: AttrTest): boolean {
  if (!("op" in test)) return test.attr === "focused" ? node.focused === true : node.selected === true;
  const actual = node[test.attr];
  if (actual === undefined) return false;
  switch (test.op) {
    case "=": return actual === test.value;
    case "^=": return actual.startsWith(test.value);
    case "$=": return actual.endsWith(test.value);
    case "*=": return actual.includes(test.value);
    case "~=": return test.regex!.test(actual);
  }
}

function matchesCompound(node: OutlineNode, compound: Compound): boolean {
  if (compound.ref !== undefined && node.ref !== compound.ref) return false;
  if (compound.role !== undefined && node.role !== compound.role) return false;
  return compound.tests.every((test) => testAttr(node, test));
}

function matchesComplex(node: OutlineNode, complex: Complex, parents: Map<OutlineNode, OutlineNode | null>): boolean {
  const { compounds, combinators } = complex;
  const from = (index: number, at: OutlineNode): boolean => {
    if (!matchesCompound(at, compounds[index]!)) return false;
    if (index === 0) return true;
    const combinator = combinators[index - 1]!;
    let ancestor = parents.get(at) ?? null;
    if (combinator === ">") return ancestor !== null && from(index - 1, ancestor);
    for (; ancestor !== null; ancestor = parents.get(ancestor) ?? null) if (from(index - 1, ancestor)) return true;
    return false;
  };
  return from(compounds.length - 1, node);
}

/** The matching nodes in document order, each once. */
export function select(nodes: OutlineNode[], selector: Selector): OutlineNode[] {
  const parents = new Map<OutlineNode, OutlineNode | null>();
  const order: OutlineNode[] = [];
  const visit = (list: OutlineNode[], parent: OutlineNode | null) => {
    for (const node of list) {
      parents.set(node, parent);
      order.push(node);
      if (node.children) visit(node.children, node);
    }
  };
  visit(nodes, null);
  return order.filter((node) => selector.alternatives.some((complex) => matchesComplex(node, complex, parents)));
}
