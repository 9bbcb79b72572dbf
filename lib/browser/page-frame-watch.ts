// Follows Carbonyl's output while a resize waits for the page: Carbonyl moves the cursor (CUP)
// before each run it draws, row 1 being its bar and row 2 on the page. A page frame paints the
// page's pixels first and its text in a later write — or, when Chromium's renderer sends no new
// frame, pixels alone — so "a write below the bar" and "the page's text drawn" are told apart.
const CUP = /^\x1b\[(\d+)(?:;\d+)?H$/;
/** Escape sequences carry no text. */
const ESCAPE = /\x1b(?:\[[\d;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
/** An escape sequence cut off at the end of a chunk, finished by the next one. */
const UNFINISHED = /\x1b(?:\[[\d;?]*[ -/]*|\][^\x07\x1b]*)?$/;

export class PageFrameWatch {
  readonly #decoder = new TextDecoder();
  readonly #notText: RegExp;
  #carry = "";
  #row = 0;
  /** Carbonyl drew below its bar. */
  pageWritten = false;
  /** Carbonyl drew the page's text (a glyph that is not a pixel) below its bar. */
  pageText = false;

  /** `pixels`: the glyphs that only carry colour (the manifest's `pixels`). */
  constructor(pixels: string) {
    const escaped = [...new Set(pixels)].map((c) => c.replace(/[\\\]^-]/g, "\\$&")).join("");
    this.#notText = new RegExp(`[\\s${escaped}]`, "g");
  }

  feed(bytes: Uint8Array): void {
    let text = this.#carry + this.#decoder.decode(bytes, { stream: true });
    const cut = UNFINISHED.exec(text);
    this.#carry = cut ? cut[0] : "";
    if (cut) text = text.slice(0, cut.index);
    for (const part of text.split(/(\x1b\[\d+(?:;\d+)?H)/)) {
      const move = CUP.exec(part);
      if (move) {
        this.#row = Number(move[1]);
        if (this.#row >= 2) this.pageWritten = true;
      } else if (this.#row >= 2 && part.replace(ESCAPE, "").replace(this.#notText, "") !== "") {
        this.pageText = true;
      }
    }
  }
}
