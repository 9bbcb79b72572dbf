// Selectors over the outline, CSS-like:
//   @vim.mode   @e3   *   panel   [role=button]   [name="Save as"]   [name~=/ok/i]
//   [name^=Pro] [name$=.txt] [name*=err]   [value=insert]   [focused]   [selected]
//   A B (descendant)   A > B (child)   A, B (either)
// A bare word is a role. Errors point at the column with a caret.
import { TuiwrightError } from "../protocol/errors.ts";
import { linearPattern } from "../terminal/linear-pattern.ts";

export type TextAttr = "role" | "name" | "value" | "ref";
export type FlagAttr = "focused" | "selected";
export type AttrTest =
  | { attr: TextAttr; op: "=" | "~=" | "^=" | "$=" | "*="; value: string; regex?: { test(text: string): boolean } }
  | { attr: FlagAttr };
export type Compound = { ref?: string; role?: string; tests: AttrTest[] };
export type Complex = { compounds: Compound[]; combinators: (" " | ">")[] };
export type Selector = { source: string; alternatives: Complex[] };

const TEXT_ATTRS = new Set(["role", "name", "value", "ref"]);
const FLAG_ATTRS = new Set(["focused", "selected"]);

class Parser {
  #pos = 0;
  constructor(readonly source: string) {}

  fail(message: string, at = this.#pos): never {
    throw new TuiwrightError("bad-selector", `bad selector: ${message} at column ${at + 1}\n  ${this.source}\n  ${" ".repeat(at)}^`, {
      details: { selector: this.source, column: at + 1 },
    });
  }

  peek(): string { return this.source[this.#pos] ?? ""; }
  done(): boolean { return this.#pos >= this.source.length; }
  skipSpaces(): boolean {
    const start = this.#pos;
    while (this.peek() === " " || this.peek() === "\t") this.#pos++;
    return this.#pos > start;
  }
  take(pattern: RegExp): string {
    const match = pattern.exec(this.source.slice(this.#pos));
    if (!match || match.index !== 0) return "";
    this.#pos += match[0].length;
    return match[0];
  }

  selector(): Selector {
    this.skipSpaces();
    if (this.done()) this.fail("empty selector");
    const alternatives = [this.complex()];
    while (this.peek() === ",") {
      this.#pos++;
      this.skipSpaces();
      alternatives.push(this.complex());
    }
    if (!this.done()) this.fail(`unexpected ${JSON.stringify(this.peek())}`);
    return { source: this.source, alternatives };
  }

  complex(): Complex {
    const compounds = [this.compound()];
    const combinators: (" " | ">")[] = [];
    for (;;) {
      const spaced = this.skipSpaces();
      if (this.peek() === ">") {
        this.#pos++;
        this.skipSpaces();
        combinators.push(">");
      } else if (spaced && !this.done() && this.peek() !== ",") {
        combinators.push(" ");
      } else {
        return { compounds, combinators };
      }
      compounds.push(this.compound());
    }
  }

  compound(): Compound {
    const start = this.#pos;
    const compound: Compound = { tests: [] };
    if (this.peek() === "@") {
      this.#pos++;
      const name = this.take(/^[A-Za-z0-9_][A-Za-z0-9_.-]*/);
      if (!name) this.fail("expected a ref name after @");
      compound.ref = `@${name}`;
    } else if (this.peek() === "*") {
      this.#pos++;
    } else {
      const role = this.take(/^[A-Za-z][A-Za-z0-9_-]*/);
      if (role) compound.role = role;
    }
    while (this.peek() === "[") compound.tests.push(this.attribute());
    if (this.#pos === start) this.fail(this.done() ? "expected a selector" : `unexpected ${JSON.stringify(this.peek())}`);
    return compound;
  }

  attribute(): AttrTest {
    const open = this.#pos;
    this.#pos++; // [
    this.skipSpaces();
    const nameAt = this.#pos;
    const attr = this.take(/^[A-Za-z]+/);
    if (!attr) this.fail("expected an attribute name");
    this.skipSpaces();
    if (this.peek() === "]") {
      this.#pos++;
      if (FLAG_ATTRS.has(attr)) return { attr: attr as FlagAttr };
      if (TEXT_ATTRS.has(attr)) this.fail(`[${attr}] needs a value, e.g. [${attr}=…]`, nameAt);
      this.fail(`unknown attribute ${JSON.stringify(attr)} (use role, name, value, ref, focused, selected)`, nameAt);
    }
    if (FLAG_ATTRS.has(attr)) this.fail(`[${attr}] takes no value`, this.#pos);
    if (!TEXT_ATTRS.has(attr)) this.fail(`unknown attribute ${JSON.stringify(attr)} (use role, name, value, ref, focused, selected)`, nameAt);
    const opAt = this.#pos;
    const op = this.take(/^(~=|\^=|\$=|\*=|=)/) as "=" | "~=" | "^=" | "$=" | "*=" | "";
    if (!op) this.fail("expected =, ~=, ^=, $= or *=", opAt);
    this.skipSpaces();
    const valueAt = this.#pos;
    const value = this.value();
    this.skipSpaces();
    if (this.peek() !== "]") this.fail(this.done() ? `unclosed [ (opened at column ${open + 1})` : "expected ]");
    this.#pos++;
    if (op === "~=") {
      try {
        // Linear-time: selectors run on every screen change inside `wait --ref`.
        return { attr: attr as TextAttr, op, value, regex: linearPattern(value) };
      } catch (error) {
        this.fail((error as Error).message, valueAt);
      }
    }
    return { attr: attr as TextAttr, op, value };
  }

  value(): string {
    const quote = this.peek();
    if (quote === '"' || quote === "'") {
      const start = this.#pos;
      this.#pos++;
      let text = "";
      while (!this.done() && this.peek() !== quote) {
        if (this.peek() === "\\" && this.#pos + 1 < this.source.length) this.#pos++;
        text += this.peek();
        this.#pos++;
      }
      if (this.done()) this.fail("unclosed quote", start);
      this.#pos++;
      return text;
    }
    if (quote === "/") {
      const regex = this.take(/^\/(?:\\.|[^\/\\])*\/[a-z]*/);
      if (!regex) this.fail("unclosed /regex/");
      return regex;
    }
    const bare = this.take(/^[^\]\s]+/);
    if (!bare) this.fail("expected a value");
    return bare;
  }
}

export function parseSelector(source: string): Selector {
  return new Parser(source).selector();
}
