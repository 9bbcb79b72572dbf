// A session's output as plain text for matching and transcripts: escape sequences stripped,
// CRLF and lone CR as LF, other control characters dropped. Shell-integration marks (OSC 133
// A/B/C/D and OSC 633 E) are reported at the exact offset where they occurred, and only when
// they carry this session's nonce (`tw=NONCE`), so program output cannot forge them.
// Offsets ("cursors") count UTF-8 bytes of this stream from the session's start (as the
// agent-interactive-pty document asks: a byte offset into the normalised stream); they only
// grow. The last RETAIN bytes are kept in memory, in flat chunks of about CHUNK bytes:
// a shell's output arrives in pieces of a few characters (split at every mark), and kept one
// string each they cost several times their text (and pinned the PTY reads they were sliced from).

export type ShellMark =
  | { kind: "A" | "B" | "C"; offset: number }
  /** The continuation prompt (PS2), marked `133;A;k=s` as kitty and FinalTerm do. */
  | { kind: "S"; offset: number }
  | { kind: "D"; offset: number; exit: number | null }
  | { kind: "E"; offset: number; command: string };

const RETAIN = 8 << 20;
const CHUNK = 64 << 10;

type State = "text" | "esc" | "csi" | "osc" | "osc-esc" | "string" | "string-esc" | "charset";

/** `\\` and `;` and control characters escaped as in VS Code's OSC 633 (\\xNN). */
export function unescapeMarkText(text: string): string {
  return text.replace(/\\\\|\\x([0-9a-fA-F]{2})/g, (match, hex: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : "\\"));
}

/** Characters that need the state machine; everything else is copied in spans. */
const SPECIAL = /[\x00-\x08\x0b-\x1f\x7f]/g;

export class OutputStream {
  /** Retained text as flat chunks (no giant concatenation), the first at offset #base; then
   * #tail, the newest pieces not yet joined into a chunk. */
  #chunks: string[] = [];
  /** The UTF-8 length of each chunk and tail piece. */
  #chunkBytes: number[] = [];
  #tail: string[] = [];
  #tailBytes: number[] = [];
  #tailChars = 0;
  #retained = 0;
  #base = 0;
  readonly #retain: number;
  readonly #chunk: number;
  #state: State = "text";
  #osc = "";
  #pendingCr = false;
  readonly #nonce: string | null;
  readonly #onMark: (mark: ShellMark) => void;
  /** OSC 7 (file://host/path): seen here, in order with the marks, before xterm parses it. */
  onCwd: ((cwd: string) => void) | null = null;

  /** `retain`, `chunk`: the window and chunk sizes in bytes (smaller in tests); `base`: the
   * cursor of the first byte (a reset session goes on from the one it replaced). */
  constructor(nonce: string | null, onMark: (mark: ShellMark) => void, sizes: { retain?: number; chunk?: number; base?: number } = {}) {
    this.#base = sizes.base ?? 0;
    this.#retain = sizes.retain ?? RETAIN;
    this.#chunk = sizes.chunk ?? CHUNK;
    this.#nonce = nonce;
    this.#onMark = onMark;
  }

  /** Total bytes so far: the cursor of the next byte. */
  get end(): number {
    return this.#base + this.#retained;
  }

  /** The oldest offset still in memory. */
  get start(): number {
    return this.#base;
  }

  /** Strings held for the window (chunks and unjoined pieces): stays small however much passes. */
  get pieces(): number {
    return this.#chunks.length + this.#tail.length;
  }

  /** The text between two byte offsets (a cut inside a character decodes as U+FFFD). */
  slice(from: number, to = this.end): string {
    const parts: string[] = [];
    let at = this.#base;
    for (const [list, sizes] of [[this.#chunks, this.#chunkBytes], [this.#tail, this.#tailBytes]] as const) {
      for (let i = 0; i < list.length; i++) {
        const chunk = list[i]!;
        const size = sizes[i]!;
        const next = at + size;
        if (next > from && at < to) {
          const start = Math.max(0, from - at);
          const end = Math.min(size, to - at);
          // ASCII-only chunks (bytes = characters) and whole chunks need no re-encoding.
          parts.push(size === chunk.length ? chunk.slice(start, end) : start === 0 && end === size ? chunk : Buffer.from(chunk).subarray(start, end).toString("utf8"));
        }
        if (next >= to) return parts.join("");
        at = next;
      }
    }
    return parts.join("");
  }

  push(chunk: string): void {
    // Pieces joined once (flat), not grown with += (deep ropes that balloon memory in floods).
    const pieces: string[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i]!;
      const code = ch.charCodeAt(0);
      switch (this.#state) {
        case "text": {
          if (this.#pendingCr) {
            this.#pendingCr = false;
            pieces.push("\n");
            if (ch === "\n") continue;
          }
          // Plain text up to the next control character is copied in one span.
          SPECIAL.lastIndex = i;
          const special = SPECIAL.exec(chunk);
          const stop = special ? special.index : chunk.length;
          if (stop > i) {
            pieces.push(chunk.slice(i, stop));
            i = stop - 1;
            continue;
          }
          if (ch === "\x1b") this.#state = "esc";
          else if (ch === "\r") this.#pendingCr = true;
          else if (ch === "\n" || ch === "\t") pieces.push(ch);
          break;
        }
        case "esc":
          if (ch === "[") this.#state = "csi";
          else if (ch === "]") { this.#state = "osc"; this.#osc = ""; }
          else if (ch === "P" || ch === "X" || ch === "^" || ch === "_") this.#state = "string";
          else if ("()*+-./#%".includes(ch)) this.#state = "charset";
          else this.#state = "text";
          break;
        case "charset":
          this.#state = "text";
          break;
        case "csi":
          if (code >= 0x40 && code <= 0x7e) this.#state = "text";
          break;
        case "osc":
          if (ch === "\x07") { this.#flush(pieces); this.#oscDone(); }
          else if (ch === "\x1b") this.#state = "osc-esc";
          else this.#osc += ch;
          break;
        case "osc-esc":
          if (ch === "\\") { this.#flush(pieces); this.#oscDone(); }
          else { this.#osc += `\x1b${ch}`; this.#state = "osc"; }
          break;
        case "string":
          if (ch === "\x1b") this.#state = "string-esc";
          else if (ch === "\x07") this.#state = "text";
          break;
        case "string-esc":
          this.#state = ch === "\\" ? "text" : "string";
          break;
      }
    }
    this.#flush(pieces);
  }

  /** Appends pending text (before a mark, so the mark's offset is exact, or at the end). */
  #flush(pieces: string[]): void {
    if (pieces.length === 0) return;
    this.#append(pieces.join(""));
    pieces.length = 0;
  }

  /** Sees every piece of text as it is appended (the transcript streams open blocks). */
  onText: ((text: string) => void) | null = null;

  #append(text: string): void {
    if (!text) return;
    this.onText?.(text);
    const bytes = Buffer.byteLength(text);
    this.#tail.push(text);
    this.#tailBytes.push(bytes);
    this.#tailChars += bytes;
    this.#retained += bytes;
    if (this.#tailChars >= this.#chunk) {
      // join() copies into one flat string, so the pieces (and what they were sliced from) go.
      this.#chunks.push(this.#tail.join(""));
      this.#chunkBytes.push(this.#tailChars);
      this.#tail = [];
      this.#tailBytes = [];
      this.#tailChars = 0;
    }
    while (this.#chunks.length > 0 && this.#retained - this.#chunkBytes[0]! >= this.#retain) {
      this.#chunks.shift();
      const dropped = this.#chunkBytes.shift()!;
      this.#retained -= dropped;
      this.#base += dropped;
    }
  }

  #oscDone(): void {
    this.#state = "text";
    const payload = this.#osc;
    this.#osc = "";
    if (payload.startsWith("7;") && this.onCwd) {
      try {
        const url = new URL(payload.slice(2));
        if (url.protocol === "file:") this.onCwd(decodeURIComponent(url.pathname));
      } catch { /* not a URL: ignored */ }
      return;
    }
    if (this.#nonce === null || !(payload.startsWith("133;") || payload.startsWith("633;"))) return;
    const parts = payload.split(";");
    if (parts.at(-1) !== `tw=${this.#nonce}`) return; // forged or foreign: ignored
    const offset = this.end;
    const [family, kind] = parts;
    if (family === "133" && kind === "A" && parts[2] === "k=s") this.#onMark({ kind: "S", offset });
    else if (family === "133" && (kind === "A" || kind === "B" || kind === "C")) this.#onMark({ kind, offset });
    else if (family === "133" && kind === "D") {
      const exit = parts.length > 3 && /^-?\d+$/.test(parts[2]!) ? Number(parts[2]) : null;
      this.#onMark({ kind: "D", offset, exit });
    } else if (family === "633" && kind === "E" && parts.length >= 4) {
      this.#onMark({ kind: "E", offset, command: unescapeMarkText(parts.slice(2, -1).join(";")) });
    }
  }
}
