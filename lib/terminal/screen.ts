// The headless terminal of one session: the only owner of an xterm instance. It turns parsed
// output into screen values (text, ANSI, cells, meta) and keeps the revision: a counter bumped
// whenever the visible screen, cursor, title or buffer changes, checked once per parse batch.
import xt from "@xterm/headless";
import { SerializeAddon } from "@xterm/addon-serialize";
import { rowRuns } from "./cells.ts";
import { answerColourQueries } from "./query-replies.ts";
import { readGrid, type Grid } from "./grid.ts";
import { hashScreen } from "./screen-hash.ts";
import { applyWidths, LIVE_WIDTHS, type WidthRules } from "./widths.ts";
import type { CellRunValue } from "../protocol/methods.ts";

export type ScreenOptions = {
  cols: number;
  rows: number;
  scrollback: number;
  /** Cell widths (widths.ts); default: a modern terminal's grapheme clusters. */
  widths?: WidthRules;
  /** Bytes the terminal sends back to the program (query replies, and input typed through it). */
  reply?: (data: string) => void;
  /** Where replies to terminal queries go instead of `reply` (query-replies.ts's ReplyGate). */
  queryReply?: (data: string) => void;
};

export type ScreenModes = { applicationCursorKeys: boolean; bracketedPaste: boolean; mouseTracking: string };

type CoreInternals = {
  _core?: {
    coreService?: { isCursorHidden?: boolean };
    coreMouseService?: { activeEncoding?: string };
    _writeBuffer?: { handleUserInput?(): void };
  };
};

/** How long a synchronized-output frame (DECSET 2026) may stay open before what it drew
 * counts: a program that dies or stalls mid-frame must not freeze every wait (xterm.js's
 * renderer gives up on a frame after the same second). */
const FRAME_LIMIT_MS = 1000;

export class Screen {
  readonly #term: xt.Terminal;
  readonly #serializer: SerializeAddon;
  #revision = 0;
  #hash = "";
  #lastChangeAt = performance.now();
  #title = "";
  /** How many times the program set the title (the same title again counts: a browser re-announcing it). */
  #titlesSet = 0;
  #cwd: string | null = null;
  #listeners = new Set<() => void>();
  /** Input is being typed through the reply channel (it is no query reply). */
  #typing = false;
  /** When the open synchronized-output frame was first seen open, or null. */
  #frameOpenedAt: number | null = null;
  #frameTimer: ReturnType<typeof setTimeout> | undefined;
  #frameEndListeners = new Set<() => void>();
  #resizeListeners = new Set<(cols: number, rows: number) => void>();

  constructor(options: ScreenOptions) {
    this.#term = new xt.Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback,
      allowProposedApi: true,
      convertEol: false,
    });
    applyWidths(this.#term, options.widths ?? LIVE_WIDTHS);
    this.#serializer = new SerializeAddon();
    this.#term.loadAddon(this.#serializer);
    if (options.reply) {
      const reply = options.reply;
      const answer = options.queryReply ?? reply;
      this.#term.onData((data) => (this.#typing ? reply(data) : answer(data)));
      answerColourQueries(this.#term, answer);
    }
    this.#term.onTitleChange((title) => { this.#title = title; this.#titlesSet++; });
    this.#term.parser.registerOscHandler(7, (data) => { this.#cwd = parseOsc7(data) ?? this.#cwd; return true; });
    this.#term.onWriteParsed(() => this.#refresh());
    this.#hash = this.#computeHash();
  }

  /** Feeds program output; resolves once it is parsed. Pass bytes: xterm decodes UTF-8 statefully. */
  write(data: Uint8Array | string): Promise<void> {
    // xterm parses a write that finds its queue empty on a setTimeout(0), which Bun clamps to
    // ~1 ms — a millisecond on every wait that output satisfies. Its own fast path for the
    // echo after user input parses at once; we take it for every write. A backlog (a flood)
    // still queues and parses in time-budgeted batches as before.
    (this.#term as unknown as CoreInternals)._core?._writeBuffer?.handleUserInput?.();
    return new Promise((resolve) => this.#term.write(data, resolve));
  }

  /** Sends input to the program through the terminal (its reply channel), marked as user
   * input: xterm then parses the next output chunk at once instead of on a timer, which is
   * what makes a key's echo visible ~1 ms sooner. */
  input(data: string): void {
    this.#typing = true;
    try {
      this.#term.input(data, true);
    } finally {
      this.#typing = false;
    }
  }

  resize(cols: number, rows: number): void {
    const changed = cols !== this.#term.cols || rows !== this.#term.rows;
    this.#term.resize(cols, rows);
    this.#refresh();
    if (changed) for (const listener of this.#resizeListeners) listener(this.#term.cols, this.#term.rows);
  }

  /** Called after every change of size (a worker's resize, a cast's resize event). */
  onResize(listener: (cols: number, rows: number) => void): () => void {
    this.#resizeListeners.add(listener);
    return () => this.#resizeListeners.delete(listener);
  }

  /** Called after every revision bump. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called when a synchronized-output frame ends (or passes FRAME_LIMIT_MS), changed or not:
   * whatever held off reading the screen during it can look now. */
  onFrameEnd(listener: () => void): () => void {
    this.#frameEndListeners.add(listener);
    return () => this.#frameEndListeners.delete(listener);
  }

  /**
   * Whether the program is in the middle of a synchronized-output frame (Codex, opencode and Pi
   * bracket every redraw with DECSET/DECRST 2026). The screen then holds half of the new frame
   * over half of the old one — a state the program never showed — so the revision stays at the
   * last whole frame and waits do not read it until the frame ends.
   */
  get midFrame(): boolean {
    return this.#frameOpen();
  }

  /** Sees every OSC `ident` the program writes, in parse order (at its place among the queries
   * and everything else); the screen handles it as before. */
  observeOsc(ident: number, observer: (data: string) => void): void {
    this.#term.parser.registerOscHandler(ident, (data) => {
      observer(data);
      return false;
    });
  }

  /** Called when the program rings the bell (BEL). */
  onBell(listener: () => void): void {
    this.#term.onBell(listener);
  }

  get revision(): number { return this.#revision; }
  get hash(): string { return this.#hash; }
  get lastChangeAt(): number { return this.#lastChangeAt; }
  get title(): string { return this.#title; }
  get titlesSet(): number { return this.#titlesSet; }
  get cwd(): string | null { return this.#cwd; }
  get cols(): number { return this.#term.cols; }
  get rows(): number { return this.#term.rows; }
  get altScreen(): boolean { return this.#term.buffer.active.type === "alternate"; }

  /** The cursor in buffer lines (scrollback included), so a position taken earlier can be
   * compared after the screen scrolled. */
  get cursorInBuffer(): { line: number; col: number } {
    const buffer = this.#term.buffer.active;
    return { line: buffer.baseY + buffer.cursorY, col: buffer.cursorX };
  }

  get cursor(): { row: number; col: number; visible: boolean } {
    const buffer = this.#term.buffer.active;
    const hidden = (this.#term as unknown as CoreInternals)._core?.coreService?.isCursorHidden ?? false;
    return { row: buffer.cursorY, col: buffer.cursorX, visible: !hidden };
  }

  /** The mouse report encoding the program selected: DEFAULT (X10 bytes), SGR or SGR_PIXELS. */
  get mouseEncoding(): string {
    return (this.#term as unknown as CoreInternals)._core?.coreMouseService?.activeEncoding ?? "DEFAULT";
  }

  get modes(): ScreenModes {
    const modes = this.#term.modes;
    return {
      applicationCursorKeys: modes.applicationCursorKeysMode,
      bracketedPaste: modes.bracketedPasteMode,
      mouseTracking: modes.mouseTrackingMode,
    };
  }

  /** Rows from `scrollback` lines above the screen to its bottom, trailing spaces trimmed. */
  lines(scrollback = 0): string[] {
    const buffer = this.#term.buffer.active;
    const first = Math.max(0, buffer.baseY - scrollback);
    const rows: string[] = [];
    // xterm's own trim keeps spaces a program wrote (a prompt's "$ "); rows are trimmed fully.
    // A line keeps its old cells past the right edge after the terminal narrows: cut at cols.
    const cols = this.#term.cols;
    for (let y = first; y < buffer.baseY + this.#term.rows; y++) rows.push((buffer.getLine(y)?.translateToString(true, 0, cols) ?? "").replace(/ +$/, ""));
    return rows;
  }

  /** The screen as text: rows joined by \n, trailing blank rows dropped. */
  text(scrollback = 0): string {
    const rows = this.lines(scrollback);
    while (rows.length > 0 && rows.at(-1) === "") rows.pop();
    return rows.join("\n");
  }

  /** The screen as text conditions see it: like text(), but the cursor's row keeps its
   * trailing spaces up to the cursor, so `[#$] $` matches a prompt waiting for input. */
  textToCursor(scrollback = 0): string {
    return this.texts(scrollback).toCursor;
  }

  /** text() and textToCursor() from one read of the rows; `toCursor` is `text` itself (the
   * same string) when the cursor's row needs no padding, so a condition that fails on the one
   * need not be tested on the other (a wait re-tested on every chunk of a flood tested twice). */
  texts(scrollback = 0): { text: string; toCursor: string } {
    const rows = this.lines(scrollback);
    const buffer = this.#term.buffer.active;
    const at = buffer.baseY + buffer.cursorY - Math.max(0, buffer.baseY - scrollback);
    const joined = (lines: string[]) => {
      const kept = [...lines];
      while (kept.length > 0 && kept.at(-1) === "") kept.pop();
      return kept.join("\n");
    };
    const text = joined(rows);
    if (!(at >= 0 && at < rows.length && rows[at]!.length < buffer.cursorX)) return { text, toCursor: text };
    rows[at] = rows[at]!.padEnd(buffer.cursorX, " ");
    return { text, toCursor: joined(rows) };
  }

  ansi(scrollback = 0): string {
    return this.#serializer.serialize({ scrollback });
  }

  cells(scrollback = 0): CellRunValue[][] {
    const buffer = this.#term.buffer.active;
    const first = Math.max(0, buffer.baseY - scrollback);
    const scratch = buffer.getNullCell();
    const rows: CellRunValue[][] = [];
    for (let y = first; y < buffer.baseY + this.#term.rows; y++) {
      const line = buffer.getLine(y);
      rows.push(line ? rowRuns(line, this.#term.cols, scratch) : []);
    }
    return rows;
  }

  /** Every visible cell with its style, for structure extraction; with `above` lines of
   * scrollback on top (a chat program's answer taller than the screen). */
  grid(above = 0): Grid {
    return readGrid(this.#term, { cursor: this.cursor, title: this.#title, altScreen: this.altScreen }, above);
  }

  /** Lines scrolled into the scrollback so far (the normal buffer's; 0 on the alternate
   * screen, which has none). Stops growing when the scrollback is full. */
  get scrolled(): number {
    const buffer = this.#term.buffer.active;
    return buffer.type === "alternate" ? 0 : buffer.baseY;
  }

  dispose(): void {
    clearTimeout(this.#frameTimer);
    this.#listeners.clear();
    this.#frameEndListeners.clear();
    this.#term.dispose();
  }

  #computeHash(): string {
    return hashScreen(this.#term, this.#title);
  }

  /** Brings revision and hash up to date with what has been parsed so far. xterm reports a
   * parse batch only at its end, and a large write spans several batches; readers call this so
   * the revision they return always describes the content they return. */
  sync(): void {
    this.#refresh();
  }

  #refresh(): void {
    if (this.#frameOpen()) return;
    const hash = this.#computeHash();
    if (hash === this.#hash) return;
    this.#hash = hash;
    this.#revision++;
    this.#lastChangeAt = performance.now();
    for (const listener of this.#listeners) listener();
  }

  /** Tracks the open synchronized-output frame; on its end (or limit) refreshes and tells the
   * frame-end listeners. */
  #frameOpen(): boolean {
    if (!this.#term.modes.synchronizedOutputMode) {
      if (this.#frameOpenedAt !== null) this.#endFrame();
      return false;
    }
    const now = performance.now();
    this.#frameOpenedAt ??= now;
    if (now - this.#frameOpenedAt >= FRAME_LIMIT_MS) {
      if (this.#frameTimer !== undefined) this.#endFrame();
      return false;
    }
    if (this.#frameTimer === undefined) {
      this.#frameTimer = setTimeout(() => this.#refresh(), FRAME_LIMIT_MS - (now - this.#frameOpenedAt));
      (this.#frameTimer as { unref?: () => void }).unref?.(); // a replay ending mid-frame exits at once
    }
    return true;
  }

  #endFrame(): void {
    clearTimeout(this.#frameTimer);
    this.#frameTimer = undefined;
    if (!this.#term.modes.synchronizedOutputMode) this.#frameOpenedAt = null;
    queueMicrotask(() => { for (const listener of this.#frameEndListeners) listener(); });
  }
}

/** OSC 7 carries `file://host/path`; we keep the path. */
function parseOsc7(data: string): string | null {
  try {
    const url = new URL(data);
    return url.protocol === "file:" ? decodeURIComponent(url.pathname) : null;
  } catch {
    return null;
  }
}
