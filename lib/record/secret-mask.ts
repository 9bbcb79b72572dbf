// One rule for hiding secrets (`type --secret`, `send --secret`) wherever a session's output or
// labels are kept: the cast (output, input, markers), the shell transcript (stream, blocks/N.out,
// blocks.jsonl, events.jsonl) and so `block`, `wait --output` and MCP results. A secret is found
// even when a program's redraw splits it: between any two of its characters may come anything
// a terminal draws nothing for — escape sequences (7-bit or C1: CSI, OSC, DCS and other strings,
// two-byte escapes), C0 controls (CR/LF/BS as fish repaints the line; NUL, which a terminal
// ignores, so "h\0u\0n…" shows the word whole), DEL and C1 controls. Its characters become `*`;
// the sequences between them stay, so the recording still plays. The screen is masked only in
// what leaves the session (snapshots, waits, errors: lib/worker/ops.ts); waits see it as drawn.
// A program that draws a secret out of order (cursor moves backwards) is not caught.

/** What may come between two characters of a secret when a program redraws it. */
const GAP = String.raw`(?:(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)|\x1b[ -/]*[0-OQ-WYZ\\\x60-~]|[\x00-\x1a\x1c-\x1f\x7f-\x8f\x91-\x97\x99\x9a\x9c])`;

/** An OSC 0/1/2 (window or icon title) up to its terminator. */
const TITLE = /(?:\x1b\]|\x9d)[012];[^\x07\x1b\x9c]*/g;

const escapeChar = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

export class SecretMask {
  readonly #secrets: string[] = [];
  #whole: RegExp | null = null;
  #prefixes: RegExp[] = [];

  get size(): number {
    return this.#secrets.length;
  }

  /** From now on this text is masked. Control characters around it (Enter, Ctrl-D) are not
   * part of it. */
  add(secret: string): void {
    const text = secret.replace(/^[\x00-\x1f]+|[\x00-\x1f]+$/g, "");
    if (!text || this.#secrets.includes(text)) return;
    this.#secrets.push(text);
    // Longest first, so a secret inside another is not masked in part first.
    const sorted = [...this.#secrets].sort((a, b) => b.length - a.length);
    this.#whole = new RegExp(sorted.map((s) => [...s].map(escapeChar).join(`${GAP}*`)).join("|"), "g");
    // A proper prefix of a secret at the very end of the text (its rest may come next).
    this.#prefixes = sorted.map((s) => {
      const chars = [...s].slice(0, -1).map(escapeChar);
      let nested = "";
      for (let i = chars.length - 1; i >= 1; i--) nested = `(?:${GAP}*${chars[i]}${nested})?`;
      return new RegExp(`${chars[0] ?? ""}${nested}${GAP}*$`);
    }).filter((_, i) => [...sorted[i]!].length > 1);
  }

  /** `text` with every secret's characters replaced by `*` (sequences between them kept). */
  redact(text: string): string {
    if (!this.#whole) return text;
    const masked = text.replace(this.#whole, (found) => found.replace(new RegExp(`${GAP}|([^])`, "g"), (part, ch: string | undefined) => (ch === undefined ? part : "*")));
    // Window titles: shells put the command line there cut to a width (fish: 20 characters),
    // so the start of a secret can be all there is of it.
    return masked.replace(TITLE, (title) => this.#maskStarts(title));
  }

  /** Every string in a result (objects and arrays walked) redacted; a PNG's base64 is left
   * whole (its pixels are not text). */
  redactValue<T>(value: T): T {
    if (this.#secrets.length === 0) return value;
    const walk = (item: unknown, key: string): unknown => {
      if (typeof item === "string") return key === "png" ? item : this.redact(item);
      if (Array.isArray(item)) return item.map((element) => walk(element, ""));
      if (item !== null && typeof item === "object") return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, walk(v, k)]));
      return item;
    };
    return walk(value, "") as T;
  }

  /** Every start (4 characters or more) of a secret in `text`, longest first. */
  #maskStarts(text: string): string {
    let result = text;
    for (const secret of this.#secrets) {
      const chars = [...secret];
      for (let n = chars.length - 1; n >= Math.min(4, chars.length); n--) {
        const start = chars.slice(0, n).join("");
        if (result.includes(start)) result = result.replaceAll(start, "*".repeat(n));
      }
    }
    return result;
  }

  /** How many characters at the end of `text` could be the start of a secret. */
  prefixAtEnd(text: string): number {
    let longest = 0;
    for (const re of this.#prefixes) {
      const m = re.exec(text);
      if (m) longest = Math.max(longest, text.length - m.index);
    }
    return longest;
  }
}

/** A stream of text through the mask: what might be the start of a secret is held back until
 * the next piece shows whether it is one. */
export class MaskedFeed {
  readonly #mask: SecretMask;
  #held = "";

  constructor(mask: SecretMask) {
    this.#mask = mask;
  }

  push(text: string): string {
    const all = this.#held + text;
    this.#held = "";
    if (this.#mask.size === 0) return all;
    const redacted = this.#mask.redact(all);
    const keep = this.#mask.prefixAtEnd(redacted);
    this.#held = redacted.slice(redacted.length - keep);
    return redacted.slice(0, redacted.length - keep);
  }

  /** Text is held back (it could be the start of a secret). */
  get holding(): boolean {
    return this.#held !== "";
  }

  /** The held text (the stream ended, or nothing followed it soon): masked, not waited on. */
  flush(): string {
    const held = this.#held;
    this.#held = "";
    return this.#mask.redact(held);
  }
}
