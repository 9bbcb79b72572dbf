// One live session: a program on a PTY feeding a headless screen, with flow control and the
// wait engine. A session worker hosts exactly one of these; it has no knowledge of sockets.
import { DEFAULT_FLOW, FlowControl } from "../pty/flow-control.ts";
import { spawnPty, type Pty } from "../pty/pty.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import type { ExitStatusValue, MetaValue, WaitSpec } from "../protocol/methods.ts";
import { encodeKeys } from "../terminal/keys.ts";
import { bracketedPaste } from "../terminal/paste-guard.ts";
import { encodeClick, encodeWheel, type MouseButton, type MouseModes } from "../terminal/mouse.ts";
import { textWithoutPixels, withoutPixels } from "../terminal/pixels.ts";
import { navFlags, readNavBar } from "../browser/nav-state.ts";
import { linearPattern } from "../terminal/linear-pattern.ts";
import { barKeepsKeyboard, refuseNonAscii } from "../browser/carbonyl-input.ts";
import { Screen } from "../terminal/screen.ts";
import { WaitEngine } from "../terminal/waits.ts";
import type { BrowserState, SessionEvent, SnapshotReply, StartSpec, WorkerOps } from "./messages.ts";
import { SessionOutline } from "./session-outline.ts";
import { BellThrottle } from "./bell-throttle.ts";
import { CastRecorder } from "../record/cast-recorder.ts";
import { MaskedFeed, SecretMask } from "../record/secret-mask.ts";
import { ShellSession } from "../shell/shell-session.ts";
import { foregroundSleeping, waitingForInput } from "../runtime/input-wait.ts";
import { execByPrompt, SCROLLBACK_TEXT } from "../shell/prompt-exec.ts";
import { FAILED_MARKER, markerLabel } from "../record/marker-label.ts";
import { renderSvg } from "../render/svg.ts";
import { outermost, type OutlineNode } from "../outline/types.ts";

// After the program exits, output may still be in flight from its PTY; we wait for EOF, but a
// background child holding the PTY open must not delay "ended" for ever.
const EOF_GRACE_MS = 250;
/** spawn returns once the program has drawn and then been still this long. */
const FIRST_STILL_MS = 50;
/** How long output that could begin a secret waits for the rest of it. */
const SECRET_HOLD_MS = 30;
/** …or has drawn nothing and been in a timed sleep this long. */
const FIRST_IDLE_MS = 300;
/** How long after a title announcement the URL bar's value is taken as that title's page. */
const TITLE_URL_WINDOW_MS = 300;

/** What the session reports to its host. */
export type SessionEvents = (event: SessionEvent) => void;

type ActionReply = WorkerOps["press"][1];
type Aim = { data: string; target: { ref: string; row: number; col: number; via?: "click" | "focus" } };

export class SessionRuntime {
  readonly pid: number;
  readonly #pty: Pty;
  readonly #screen: Screen;
  readonly #flow: FlowControl;
  readonly #waits: WaitEngine;
  readonly #outline: SessionOutline;
  readonly #recorder: CastRecorder | null;
  #bells!: BellThrottle;
  /** Integrated shells only: command blocks. */
  readonly #shell: ShellSession | null;
  readonly #streamDecoder = new TextDecoder();
  /** A shell started without integration: exec falls back to the prompt regex. */
  readonly #plainShell: boolean;
  /** A Carbonyl browser: meta carries its URL and navigation state. */
  readonly #browser: boolean;
  #plainExecs = 0;
  /** Browser sessions: the last title announcement and the page it belongs to. */
  #titlesSeen = 0;
  #titleRevision = 0;
  #titleWindowEnds = 0;
  #announced: { title: string; url: string | null } | null = null;
  readonly #titlesByUrl = new Map<string, string>();
  #barHasKeyboard = false;
  /** The URL the last navigation loaded, as asked for (the bar may show only its start). */
  #navigatedUrl: string | null = null;
  /** Keys went into the bar and were not submitted: the bar shows an edit, not the page's URL. */
  #barEdited = false;
  /** The URL of the page shown, as the bar showed it while not being edited. */
  #pageUrl: string | null = null;
  readonly #events: SessionEvents;
  #exit: ExitStatusValue | null = null;
  #ptyClosed = false;
  #eofGraceOver = false;
  #ended = false;
  #lastOutputAt: number | null = null;
  #dropping = false;
  /** Secrets typed or sent with --secret: masked in the cast and the shell transcript alike. */
  readonly #mask = new SecretMask();
  readonly #shellFeed = new MaskedFeed(this.#mask);

  constructor(spec: StartSpec, events: SessionEvents) {
    this.#events = events;
    this.#recorder = spec.cast === null ? null : CastRecorder.create(spec.cast, {
      cols: spec.cols,
      rows: spec.rows,
      command: spec.argv.join(" "),
      title: spec.name,
      env: { TERM: spec.env.TERM, SHELL: spec.env.SHELL },
    }, this.#mask);
    this.#screen = new Screen({
      cols: spec.cols,
      rows: spec.rows,
      scrollback: spec.scrollback,
      reply: (data) => this.#pty.write(data),
    });
    this.#pty = spawnPty({
      argv: spec.argv,
      cwd: spec.cwd,
      env: spec.env,
      cols: spec.cols,
      rows: spec.rows,
      onData: (bytes) => this.#output(bytes),
      onClose: () => { this.#ptyClosed = true; this.#checkEnded(); },
    });
    this.pid = this.#pty.pid;
    this.#flow = new FlowControl(this.#pty, DEFAULT_FLOW);
    this.#outline = new SessionOutline(this.#screen, spec.argv, this.pid, () => this.#shell?.tracker.atPrompt ?? null);
    this.#shell = spec.shell?.nonce ? new ShellSession({
      nonce: spec.shell.nonce,
      transcriptDir: spec.shell.transcriptDir,
      fish: spec.shell.kind === "fish",
      kind: spec.shell.kind === "zsh" || spec.shell.kind === "fish" ? spec.shell.kind : "bash",
      ...(spec.shell.cursorBase === undefined ? {} : { cursorBase: spec.shell.cursorBase }),
      type: (text, secret) => { this.#recorder?.input(secret ? "***" : text); this.#screen.input(text); },
      redact: (text) => this.#mask.redact(text),
      changed: () => this.#waits.notify(),
    }) : null;
    this.#plainShell = spec.shell !== null && spec.shell.nonce === null;
    this.#browser = spec.browser;
    const shell = this.#shell;
    this.#waits = new WaitEngine(() => ({
      screen: this.#screen,
      exit: this.#exit,
      ended: this.#ended,
      outline: () => this.#outline.current().nodes,
      output: shell ? {
        end: shell.stream.end,
        start: shell.stream.start,
        slice: (from, to) => shell.stream.slice(from, to),
        promptAfter: (cursor) => shell.tracker.promptAfter(cursor),
        interactiveEndAfter: (cursor) => shell.tracker.interactiveEndAfter(cursor),
      } : null,
    }));
    this.#screen.onChange(() => {
      if (this.#browser) this.#noteTitle();
      this.#waits.notify();
      this.#events({ kind: "changed", revision: this.#screen.revision, hash: this.#screen.hash, title: this.#screen.title });
    });
    const bells = new BellThrottle(() => this.#events({ kind: "bell", revision: this.#screen.revision, hash: this.#screen.hash }));
    this.#bells = bells;
    this.#screen.onBell(() => bells.ring());
    void this.#pty.exited.then((exit) => {
      this.#exit = exit;
      setTimeout(() => { this.#eofGraceOver = true; this.#checkEnded(); }, EOF_GRACE_MS);
      this.#checkEnded();
    });
  }

  #output(bytes: Uint8Array): void {
    this.#lastOutputAt = performance.now();
    if (!this.#flow.received(bytes.length)) {
      if (!this.#dropping) {
        this.#dropping = true;
        const gap = "\r\n\x1b[7m[tuiwright: output dropped: the program ignores flow control]\x1b[0m\r\n";
        this.#recorder?.output(new TextEncoder().encode(gap));
        void this.#screen.write(gap);
      }
      return;
    }
    this.#dropping = false;
    this.#recorder?.output(bytes); // exactly what the screen is fed
    if (this.#shell) {
      this.#shell.push(this.#shellFeed.push(this.#streamDecoder.decode(bytes, { stream: true })));
      this.#releaseHeldSoon();
    }
    void this.#screen.write(bytes).then(() => {
      this.#flow.parsed(bytes.length);
      if (this.#exit) this.#checkEnded();
    });
  }

  #heldTimer: ReturnType<typeof setTimeout> | null = null;

  /** What the mask holds back (a possible start of a secret) is released if nothing follows
   * within SECRET_HOLD_MS: a secret split across reads arrives at once, and an output wait
   * must not stall on a prompt that happens to end like a secret begins. */
  #releaseHeldSoon(): void {
    if (this.#heldTimer) clearTimeout(this.#heldTimer);
    this.#heldTimer = null;
    if (!this.#shellFeed.holding) return;
    this.#heldTimer = setTimeout(() => {
      this.#heldTimer = null;
      if (!this.#ended) this.#shell?.push(this.#shellFeed.flush());
    }, SECRET_HOLD_MS);
  }

  #checkEnded(): void {
    if (this.#ended || !this.#exit) return;
    if (!this.#ptyClosed && !this.#eofGraceOver) return;
    if (this.#flow.backlog > 0) return;
    this.#ended = true;
    if (this.#shell) this.#shell.push(this.#shellFeed.flush());
    this.#shell?.ended(this.#exit.code);
    this.#recorder?.exit(this.#exit.code, this.#exit.signal);
    this.#recorder?.close();
    this.#pty.close();
    this.#waits.notify();
    this.#events({ kind: "ended", exit: this.#exit });
  }

  #requireRunning(action: string): void {
    if (this.#exit) {
      throw new TuiwrightError("session-exited", `cannot ${action}: the program has exited (${describeExit(this.#exit)})`);
    }
  }

  snapshot(params: WorkerOps["snapshot"][0]): SnapshotReply {
    const screen = this.#screen;
    screen.sync();
    const reply: SnapshotReply = {
      format: params.format,
      revision: screen.revision,
      hash: screen.hash,
      cols: screen.cols,
      rows: screen.rows,
    };
    // A node inside another selected node is printed with it, not again.
    const selected = params.select === undefined ? null : outermost(this.#outline.select(params.select));
    if (params.format === "outline") {
      const outline = this.#outline.issue();
      reply.outline = { adapter: outline.adapter, nodes: selected ?? outline.nodes };
    } else if (params.format === "text") {
      const pixels = params.raw ? "" : this.#outline.pixels();
      reply.text = selected ? this.#crop(selected, pixels) : textWithoutPixels(screen.text(params.scrollback), pixels);
    } else if (params.format === "svg" || params.format === "png") {
      // The worker draws; PNG is rasterised in the worker too (workers/session.ts).
      const annotations = params.annotate === undefined ? [] : this.#outline.select(params.annotate, "--annotate").map((n) => ({ bbox: n.bbox, label: n.ref }));
      reply.svg = renderSvg(screen.grid(), { annotations, ...(params.chrome === undefined ? {} : { chrome: params.chrome }) });
    } else if (params.format === "ansi") {
      reply.ansi = screen.ansi(params.scrollback);
    } else {
      reply.cells = screen.cells(params.scrollback);
    }
    const rows = reply.text ?? reply.ansi;
    if (rows !== undefined) {
      // AWI-TTY's shape: every row of the viewport, blank ones included.
      reply.width = reply.cols;
      reply.height = reply.rows;
      reply.lines = rows.split(/\r?\n/);
      if (!selected && params.scrollback === 0) while (reply.lines.length < screen.rows) reply.lines.push("");
    }
    if (params.includeMeta) reply.meta = this.meta();
    return reply;
  }

  /** The text inside each node's box, boxes separated by a blank line. */
  #crop(nodes: OutlineNode[], pixels: string): string {
    const rows = withoutPixels(this.#screen.grid(), pixels).lines;
    return nodes.map((node) => {
      const { row, col, rows: height, cols } = node.bbox;
      return rows.slice(row, row + height).map((line) => line.chars.slice(col, col + cols).join("").replace(/ +$/, "")).join("\n");
    }).join("\n\n");
  }

  meta(): MetaValue {
    const screen = this.#screen;
    return {
      cols: screen.cols,
      rows: screen.rows,
      cursor: screen.cursor,
      title: screen.title,
      cwd: screen.cwd,
      altScreen: screen.altScreen,
      revision: screen.revision,
      hash: screen.hash,
      exit: this.#exit,
      lastOutputAgeMs: this.#lastOutputAt === null ? null : Math.round(performance.now() - this.#lastOutputAt),
      modes: screen.modes,
      droppedBytes: this.#flow.dropped,
      flowPauses: this.#flow.pauses,
      recording: this.#recorder ? { path: this.#recorder.path, error: this.#recorder.error } : null,
      foreground: this.#exit ? null : this.#outline.foreground(),
      ...(this.#shell?.transcript ? { transcript: this.#shell.transcript } : {}),
      ...(this.#browser ? this.#navMeta() : {}),
    };
  }

  #navMeta(): Partial<MetaValue> {
    const cursor = this.#screen.cursor;
    const unknown = {
      cursor: { ...cursor, x: cursor.col, y: cursor.row },
      dpi: null, scale: null,
      dpi_reason: "Carbonyl keeps its device scale and cell size in pixels to itself; it draws none of them on the screen",
    };
    try {
      const state = this.browser();
      return { ...unknown, url: state.url, nav: navFlags(state), ...(state.pageTitle.title === null ? { title: "", title_reason: state.pageTitle.reason } : { title: state.pageTitle.title }) };
    } catch {
      return unknown; // the navigation bar is not drawn yet
    }
  }

  /** The browser's URL bar, buttons and title (the caller checked it is a browser session). */
  browser(): BrowserState {
    this.#screen.sync();
    const bar = readNavBar(this.#outline.current());
    const barFocused = this.#barFocused();
    // While the bar is being edited it shows the edit, not the page: keep the page's URL.
    if (!this.#barEdited) this.#pageUrl = bar.url;
    let url = this.#barEdited && this.#pageUrl !== null ? this.#pageUrl : bar.url;
    // Carbonyl shows cols - 13 characters of the URL; a longer one is whole in what was loaded.
    const shownUrl = url;
    const full = this.#navigatedUrl;
    if (full !== null && url.length >= this.#screen.cols - 13 && full.length > url.length && full.startsWith(url)) url = full;
    return {
      ...bar, url, title: this.#screen.title, revision: this.#screen.revision, barFocused,
      titlesSet: this.#screen.titlesSet, titleRevision: this.#titleRevision, pageTitle: this.#pageTitle(shownUrl),
    };
  }

  /** Whether Carbonyl's URL bar has the keyboard: its cursor is not a reliable sign (Carbonyl
   * moves it only when it next draws), so follow its rules on the mouse input sent to it. */
  #barFocused(): boolean {
    return this.#barHasKeyboard;
  }

  /** On a title announcement, note which page it belongs to: the URL the bar shows in the frames
   * that follow (Carbonyl may draw the new URL a frame after the title). */
  #noteTitle(): void {
    const screen = this.#screen;
    if (screen.titlesSet !== this.#titlesSeen) {
      this.#titlesSeen = screen.titlesSet;
      this.#titleRevision = screen.revision;
      this.#titleWindowEnds = performance.now() + TITLE_URL_WINDOW_MS;
      this.#announced = { title: screen.title, url: null };
      // A page loaded (a link, a form, the page's own script): Carbonyl put its URL into the bar,
      // replacing an edit left there — unless someone is typing in the bar right now.
      if (!this.#barHasKeyboard) this.#barEdited = false;
    }
    // (The bar may still have the keyboard after Enter; it shows the URL being loaded then.)
    if (this.#announced && performance.now() <= this.#titleWindowEnds && !this.#barEdited) {
      try {
        const url = readNavBar(this.#outline.current()).url;
        if (this.#announced.url !== null && this.#announced.url !== url) this.#titlesByUrl.delete(this.#announced.url);
        this.#announced.url = url;
        this.#pageUrl = url;
        this.#titlesByUrl.set(url, this.#announced.title);
      } catch {
        // the navigation bar is not drawn yet
      }
    }
  }

  /** The title of the page at `url`: announced for it, or remembered from an earlier visit in this
   * session (Carbonyl does not announce it again when back/forward restore a page from its cache). */
  #pageTitle(url: string): BrowserState["pageTitle"] {
    if (this.#announced && this.#announced.url === url) return { title: this.#announced.title, source: "announced" };
    const remembered = this.#titlesByUrl.get(url);
    if (remembered !== undefined) return { title: remembered, source: "remembered" };
    return { title: null, reason: `Carbonyl announced no title for ${url} (it announces one when a page sets it; the terminal title ${JSON.stringify(this.#screen.title)} belongs to another page)` };
  }

  /** A browser's title for `get title`: the page's, or null when Carbonyl announced none for it. */
  #browserTitle(): string | null {
    try {
      return this.browser().pageTitle.title;
    } catch {
      return null; // the navigation bar is not drawn yet: no page is shown
    }
  }

  /** Raw input for Carbonyl, encoded by the caller (lib/browser/carbonyl-input.ts). */
  async browserInput(params: WorkerOps["browserInput"][0]): Promise<ActionReply> {
    if (!this.#browser) throw new TuiwrightError("not-a-browser", "raw browser input needs a browser session");
    this.#requireRunning(params.label);
    if (params.navigated !== undefined) this.#navigatedUrl = params.navigated;
    return this.#act(params.data, params.wait, undefined, { label: params.label });
  }

  async scroll(params: WorkerOps["scroll"][0]): Promise<WorkerOps["scroll"][1]> {
    this.#requireRunning("scroll");
    const row = params.row ?? Math.floor(this.#screen.rows / 2);
    const col = params.col ?? Math.floor(this.#screen.cols / 2);
    const data = encodeWheel(row, col, params.delta, this.#mouseAt(row, col));
    // Settled is measured from the wheel: the page has stopped moving (or never moved).
    const wait: WaitSpec | undefined = params.settleMs > 0 ? { settledMs: params.settleMs, mode: "any", timeoutMs: params.settleMs + 30_000 } : undefined;
    const { revisionBefore, revisionAfter } = await this.#act(data, wait, undefined, { label: `scroll ${params.delta}` });
    return { revisionBefore, revisionAfter };
  }

  async type(params: WorkerOps["type"][0]): Promise<ActionReply> {
    this.#requireRunning("type");
    const paste = params.paste && this.#screen.modes.bracketedPaste;
    // A paste must not be able to end the bracket early.
    const data = paste ? bracketedPaste(params.text) : params.text;
    const shown = params.secret ? "***" : params.text;
    if (params.secret) this.#mask.add(params.text);
    return this.#act(data, params.wait, this.#aimInput(params.to, params.revision), { label: markerLabel("type", shown, params.wait), secret: params.secret });
  }

  async press(params: WorkerOps["press"][0]): Promise<ActionReply> {
    const data = encodeKeys(params.keys, this.#screen.modes);
    this.#requireRunning("press keys");
    return this.#act(data, params.wait, this.#aimInput(params.to, params.revision), { label: markerLabel("press", params.keys.join(" "), params.wait) });
  }

  async click(params: WorkerOps["click"][0]): Promise<ActionReply> {
    this.#requireRunning("click");
    if (params.target === undefined && (params.row === undefined || params.col === undefined)) {
      throw new TuiwrightError("usage", "click needs a target (ref or selector) or both row and col");
    }
    const aim = params.target !== undefined ? this.#aim(params.target, params.revision, params.button)! : this.#clickAt(params.row!, params.col!, "cell", params.button);
    const where = params.target ?? `${params.row},${params.col}`;
    return this.#act("", params.wait, aim, { label: markerLabel("click", where, params.wait) });
  }

  /** A click on the target's centre (checked, so a stale ref never clicks the wrong thing). */
  #aim(target: string | undefined, revision: number | undefined, button: MouseButton = "left"): Aim | undefined {
    if (target === undefined) return undefined;
    this.#screen.sync();
    const node = this.#outline.resolve(target, revision);
    const row = node.bbox.row + Math.floor((node.bbox.rows - 1) / 2);
    const col = node.bbox.col + Math.floor((Math.max(1, node.bbox.cols) - 1) / 2);
    return this.#clickAt(row, col, node.ref, button);
  }

  /**
   * Input aimed at a node (`--to`). With mouse input the node is clicked first, as a click
   * would; without it nothing can move the focus, so the node must already take the keys: an
   * input, or focused. The target says which happened (`via`).
   */
  #aimInput(target: string | undefined, revision: number | undefined): Aim | undefined {
    if (target === undefined) return undefined;
    if (this.#screen.modes.mouseTracking !== "none") {
      const aim = this.#aim(target, revision)!;
      return { data: aim.data, target: { ...aim.target, via: "click" } };
    }
    this.#screen.sync();
    const node = this.#outline.resolve(target, revision);
    if (node.role !== "input" && !node.focused) {
      throw new TuiwrightError("bad-data", `${target} (${node.ref}, ${node.role} ${JSON.stringify(node.name.length > 40 ? `${node.name.slice(0, 39)}…` : node.name)}) is not an input and not focused, and the program has not turned on mouse input, so nothing can move the keyboard there`, {
        hint: "aim at the focused node ([focused]) or an input, or send the keys without --to",
        details: { ref: node.ref, role: node.role },
      });
    }
    return { data: "", target: { ref: node.ref, row: node.bbox.row, col: node.bbox.col, via: "focus" } };
  }

  #clickAt(row: number, col: number, ref: string, button: MouseButton): Aim {
    const data = encodeClick(row, col, button, this.#mouseAt(row, col));
    return { data, target: { ref, row, col } };
  }

  /** The mouse protocol the program asked for, once the cell is known to be on the screen. */
  #mouseAt(row: number, col: number): MouseModes {
    if (row >= this.#screen.rows || col >= this.#screen.cols) {
      throw new TuiwrightError("bad-data", `cell ${row},${col} is outside the ${this.#screen.cols}x${this.#screen.rows} screen`);
    }
    return { tracking: this.#screen.modes.mouseTracking, encoding: this.#screen.mouseEncoding };
  }

  async #act(data: string, wait: WaitSpec | undefined, aim: Aim | undefined, record: { label: string; secret?: boolean }): Promise<ActionReply> {
    // Every path into Carbonyl (press, type, click, the AWI methods): a byte ≥ 0x80 typed into its
    // URL bar panics it, so no such byte is sent.
    if (this.#browser) refuseNonAscii(data);
    const revisionBefore = this.#screen.revision;
    // Compile the wait first so a bad condition fails before anything is sent.
    const waiting = wait ? this.#waits.wait(wait, { revision: revisionBefore, at: performance.now() }) : undefined;
    const input = (aim?.data ?? "") + data;
    this.#recorder?.marker(record.label);
    this.#recorder?.input(record.secret ? (aim?.data ?? "") + "***" : input);
    if (this.#browser) {
      // Keys typed into the bar are an edit until Enter submits it; the bar shows the edit.
      if (this.#barHasKeyboard && !input.startsWith("\x1b[<")) this.#barEdited = !input.includes("\r");
      // A new navigation begins (Enter in the bar, a button): a title announced before it belongs
      // to the page before, whatever URL the bar shows next.
      if ((this.#barHasKeyboard && input.includes("\r")) || /\x1b\[<0;[1-9];1M/.test(input)) this.#titleWindowEnds = 0;
      this.#barHasKeyboard = barKeepsKeyboard(this.#barHasKeyboard, input);
    }
    this.#screen.input(input); // reaches the PTY through the screen's reply channel
    const bytes = Buffer.byteLength(input);
    const target = aim ? { target: aim.target } : {};
    if (!waiting) return { bytes, revisionBefore, revisionAfter: this.#screen.revision, ...target };
    const result = await this.#markFailure(waiting, record.label);
    return { bytes, revisionBefore, revisionAfter: result.revision, wait: result, ...target };
  }

  /** A wait that times out (or outlives its program) gets a `failed: LABEL (…)` marker after its
   * own, so a report shows it as a failure rather than an ordinary step. */
  #markFailure<T>(waiting: Promise<T>, label: string): Promise<T> {
    return waiting.catch((error: unknown) => {
      const name = error instanceof TuiwrightError ? error.errorName : null;
      if (name === "timeout" || name === "session-exited") this.#recorder?.marker(`${FAILED_MARKER}${label} (${name === "timeout" ? "timed out" : "the program exited"})`);
      throw error;
    });
  }

  resize(params: WorkerOps["resize"][0]): WorkerOps["resize"][1] {
    this.#screen.resize(params.cols, params.rows);
    if (!this.#exit) this.#pty.resize(params.cols, params.rows);
    this.#recorder?.resize(this.#screen.cols, this.#screen.rows);
    this.#events({ kind: "resized", cols: this.#screen.cols, rows: this.#screen.rows, revision: this.#screen.revision, hash: this.#screen.hash });
    return { cols: this.#screen.cols, rows: this.#screen.rows, revision: this.#screen.revision };
  }

  get(what: WorkerOps["get"][0]["what"]): unknown {
    const screen = this.#screen;
    screen.sync();
    switch (what) {
      case "title": return this.#browser ? this.#browserTitle() : screen.title;
      case "cwd": return screen.cwd;
      case "size": return { cols: screen.cols, rows: screen.rows };
      case "cursor": return screen.cursor;
      case "exit": return this.#exit;
      case "cast": return this.#recorder?.path ?? null;
      case "url": return readNavBar(this.#outline.current()).url;
      case "nav": return navFlags(readNavBar(this.#outline.current()));
    }
  }

  #requireShell(what: string): ShellSession {
    if (!this.#shell) {
      throw new TuiwrightError("usage", `${what} needs a shell session with integration: start one with \`spawn --shell\``, {
        hint: "without integration, type the command and wait for the prompt with --regex",
      });
    }
    return this.#shell;
  }

  async exec(params: WorkerOps["exec"][0]): Promise<WorkerOps["exec"][1]> {
    this.#requireRunning("exec");
    if (!this.#shell && this.#plainShell) {
      if (params.interactive || params.cwd !== undefined) throw new TuiwrightError("usage", "--interactive and --cwd need shell integration (this shell was started with --no-integration)");
      this.#recorder?.marker(`exec ${JSON.stringify(params.command)} (no integration)`);
      return execByPrompt({
        wait: (spec, anchor) => this.#waits.wait(spec, anchor),
        revision: () => this.#screen.revision,
        type: (text) => { this.#recorder?.input(text); this.#screen.input(text); },
        text: () => this.#screen.text(SCROLLBACK_TEXT),
      }, params.command, { timeoutMs: params.timeoutMs, maxOutput: params.maxOutput, seq: ++this.#plainExecs, cwd: this.#screen.cwd });
    }
    const shell = this.#requireShell("exec");
    this.#recorder?.marker(`exec ${JSON.stringify(params.command)}${params.interactive ? " (interactive)" : ""}`);
    return shell.exec({
      command: params.command, timeoutMs: params.timeoutMs, maxOutput: params.maxOutput, queue: params.queue, interactive: params.interactive,
      ...(params.cwd === undefined ? {} : { cwd: params.cwd }),
    });
  }

  send(data: string, secret = false): WorkerOps["send"][1] {
    const shell = this.#requireShell("send");
    this.#requireRunning("send");
    if (secret) this.#mask.add(data);
    const shown = secret ? "***" : data.length > 40 ? `${data.slice(0, 39)}…` : data;
    this.#recorder?.marker(`send ${JSON.stringify(shown)}`);
    const cursor = shell.send(data, secret);
    return { bytes: Buffer.byteLength(data), cursor };
  }

  /** Resolves once the program is ready for input: it drew and was still FIRST_STILL_MS, or
   * its foreground process blocks reading the terminal (a program that draws nothing, such
   * as cat), or it exited, or `boundMs` passed. /proc has no event for "blocked in read",
   * so this looks every few milliseconds, for this one bounded wait only. */
  firstScreen(boundMs: number): Promise<WorkerOps["firstScreen"][1]> {
    const started = performance.now();
    // Blocked reading is only believed once it has held over several checks with no output
    // in between: the program may have written its prompt and gone to read before that
    // output has reached us through the event loop (seen under load).
    let readingSince: number | null = null;
    let readingChecks = 0;
    return new Promise((resolve) => {
      const check = (): boolean => {
        const now = performance.now();
        const quietMs = now - (this.#lastOutputAt ?? started);
        this.#screen.sync(); // the revision of what has been parsed, not of the last batch's end
        const drew = this.#screen.revision > 0;
        const parsed = this.#flow.backlog === 0;
        const blocked = parsed && waitingForInput(this.pid);
        if (!blocked || (this.#lastOutputAt !== null && readingSince !== null && this.#lastOutputAt >= readingSince)) { readingSince = blocked ? now : null; readingChecks = 0; }
        else { readingSince ??= now; readingChecks++; }
        const reading = readingSince !== null && readingChecks >= 3 && now - readingSince >= 20 && quietMs >= 20;
        // In a timed sleep and silent: it is not starting up (`sleep 1000`).
        const idle = !reading && parsed && quietMs >= FIRST_IDLE_MS && foregroundSleeping(this.pid);
        const timedOut = now - started >= boundMs;
        if (!(this.#exit || (drew && parsed && quietMs >= FIRST_STILL_MS) || reading || idle || timedOut)) return false;
        resolve({ drew, waitingForInput: reading, idle, timedOut: timedOut && !reading && !idle && !drew, ms: Math.round(now - started) });
        return true;
      };
      if (check()) return;
      const timer = setInterval(() => { if (check()) clearInterval(timer); }, 5);
    });
  }

  /** The open block is about to end because of `end` (cancelled) or `reset`. */
  closing(reason: WorkerOps["closing"][0]["reason"]): WorkerOps["closing"][1] {
    this.#shell?.endingBecause(reason);
    return { reason };
  }

  status(): WorkerOps["status"][1] {
    const open = this.#shell?.tracker.open ?? null;
    return {
      integration: this.#shell !== null,
      mode: this.#exit ? "exited" : this.#shell?.mode() ?? (this.#plainShell && /[$#%>]$/.test(this.#screen.text()) ? "idle" : "starting"),
      ...(this.#exit ? { exitCode: this.#exit.code, signal: this.#exit.signal } : {}),
      pid: this.pid,
      block: open ? { seq: open.seq, command: open.command, interactive: open.interactive, cursor: open.startOffset } : null,
      blocks: this.#shell?.tracker.count ?? 0,
      cursor: this.#shell?.stream.end ?? 0,
      cwd: this.#shell?.cwd ?? this.#screen.cwd,
    };
  }

  blocks(params: WorkerOps["blocks"][0]): WorkerOps["blocks"][1] {
    const shell = this.#requireShell("blocks");
    const grep = params.grep === undefined ? null : linearPattern(params.grep); // over whole outputs: linear time
    let list = shell.tracker.blocks.filter((b) => b.endOffset !== null || b === shell.tracker.open);
    if (grep) list = list.filter((b) => grep.test(b.command) || grep.test(shell.stream.slice(b.startOffset, b.endOffset ?? shell.stream.end)));
    if (params.last !== undefined) list = list.slice(-params.last);
    return {
      blocks: list.map((b) => ({ seq: b.seq, command: b.command, exitCode: b.exitCode, startedAt: b.startedAt, endedAt: b.endedAt, cwd: b.cwd, outputChars: (b.endOffset ?? shell.stream.end) - b.startOffset })),
    };
  }

  block(params: WorkerOps["block"][0]): WorkerOps["block"][1] {
    const shell = this.#requireShell("block");
    const block = shell.block(params.seq);
    if (!block) throw new TuiwrightError("no-such-file", `there is no block ${params.seq} (this session has ${shell.tracker.count})`);
    return shell.result(block, params.maxOutput);
  }

  mark(label: string): { label: string } {
    this.#recorder?.marker(label);
    return { label };
  }

  wait(params: WorkerOps["wait"][0], signal?: AbortSignal): Promise<WorkerOps["wait"][1]> {
    this.#screen.sync();
    const { fromNow, ...spec } = params;
    const waiting = this.#waits.wait(spec, fromNow ? { revision: this.#screen.revision, at: performance.now() } : undefined, signal);
    const label = markerLabel("wait", "", params);
    this.#recorder?.marker(label);
    return this.#markFailure(waiting, label);
  }

  dispose(): void {
    this.#bells.dispose();
    if (this.#heldTimer) clearTimeout(this.#heldTimer);
    this.#recorder?.close();
    this.#waits.cancelAll(new TuiwrightError("no-such-session", "the session was removed while waiting"));
    this.#pty.close();
    this.#screen.dispose();
  }
}

export function describeExit(exit: ExitStatusValue): string {
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}
