// A seeded PRNG (mulberry32) and the random values the fuzzers build inputs from, so a
// failure reproduces from its seed alone.

export class Prng {
  #state: number;

  constructor(readonly seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** Short strings biased towards the characters parsers trip on. */
  string(maxLength = 12): string {
    const alphabet = ["a", "Z", "0", " ", "\"", "\\", "/", "[", "]", "{", "}", ":", ",", "@", ".", "*", ">", "=", "~", "'", "\u00e9", "\u4e2d", "\u{1f600}", "\u0000", "\u001b", "\r", "\t", "\ud800"];
    let out = "";
    const length = this.int(maxLength + 1);
    for (let i = 0; i < length; i++) out += this.pick(alphabet);
    return out;
  }

  number(): number {
    return this.pick([0, -1, 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 1.5, -0.0001, 65536, 10, 24, 80]);
  }

  /** Any JSON value, nested up to `depth`. */
  json(depth = 3): unknown {
    const kind = this.int(depth > 0 ? 7 : 5);
    if (kind === 0) return null;
    if (kind === 1) return this.chance(0.5);
    if (kind === 2) return this.number();
    if (kind === 3 || kind === 4) return this.string();
    if (kind === 5) return Array.from({ length: this.int(4) }, () => this.json(depth - 1));
    const object: Record<string, unknown> = {};
    for (let i = this.int(4); i > 0; i--) object[this.string(6)] = this.json(depth - 1);
    return object;
  }

  /** Flips, drops, duplicates or inserts a few characters of `text`. */
  mutate(text: string, edits = 1 + this.int(4)): string {
    let out = text;
    for (let i = 0; i < edits; i++) {
      const at = this.int(out.length + 1);
      const op = this.int(4);
      if (op === 0) out = out.slice(0, at) + out.slice(at + 1 + this.int(8));
      else if (op === 1) out = out.slice(0, at) + this.string(4) + out.slice(at);
      else if (op === 2) out = out.slice(0, at) + out.slice(at, at + 1 + this.int(16)).repeat(2) + out.slice(at);
      else out = out.slice(0, at) + String.fromCharCode(this.int(128)) + out.slice(at + 1);
    }
    return out;
  }
}

/** The seed: `FUZZ_SEED` to reproduce a failure, otherwise fixed so CI is repeatable. */
export function fuzzSeed(): number {
  return Number(process.env.FUZZ_SEED ?? 20261122);
}
