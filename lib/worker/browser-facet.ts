// The browser facet: a Carbonyl session's facts from the browser engine, over the DevTools
// protocol on the private pipe Carbonyl was started with (fds 3/4, lib/browser/cdp-connection.ts)
// — URL, title, history, load state, crashes, dialogs, the accessibility tree, input with every
// modifier — beside the screen, which stays Carbonyl's terminal rendering. The two meet in
// `drawn`: an operation that changes the page answers once the engine has the new state AND the
// screen shows it (the engine's visible text where Carbonyl draws it), so an animated region
// cannot fool it; when the screen lags the engine (Carbonyl's known stall) the facet nudges the
// size so Carbonyl draws again, and says so (`recovered`). A browser that exited answers every
// call with session-exited. Navigation is browser-navigation.ts.
import { namedByLabel, shownText } from "../outline/container-name.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import type { ExitStatusValue, MetaValue, WaitSpec } from "../protocol/methods.ts";
import { CdpConnection, CdpError } from "../browser/cdp-connection.ts";
import { BrowserEngine } from "../browser/browser-engine.ts";
import { describeBrowserExit, isBrowserCrash } from "../browser/carbonyl-exit.ts";
import { cellCenter, cellGeometry, type CellGeometry, type LayoutMetrics } from "../browser/cell-geometry.ts";
import { pageLayout, runEndsShown, runsShown, type DomSnapshot, type PageLayout } from "../browser/page-layout.ts";
import { axOutline, parseAxRef, type AxNode } from "../browser/ax-outline.ts";
import { keyEvents, typingSteps, type KeyEvent } from "../browser/engine-keys.ts";
import { carbonylMouse, refuseNonAscii } from "../browser/carbonyl-input.ts";
import { contains, type OutlineNode } from "../outline/types.ts";
import { textWithoutPixels } from "../terminal/pixels.ts";
import type { BrowserModifier, BrowserState, Navigated, Recovered, WorkerOps } from "../link/messages.ts";
import { navigate, pressButton } from "./browser-navigation.ts";
import { type ActionReply, type Facet, type Scrolled, type SessionCore } from "./session-core.ts";

/** How long after the engine's frame the screen may lag before it counts as a stall. */
const STALL_AFTER_MS = 2500;
/** Nudges tried per operation; a screen that shows nothing of the page after the last one (a
 * further STALL_AFTER_MS) is Carbonyl's stall, which only a new browser has ended. */
const MAX_NUDGES = 2;
/** Of the engine's visible text runs, the share the screen must show where Carbonyl draws them. */
const DRAWN_SHARE = 0.6;
/** The runs compared (the first ones, top to bottom). */
const RUNS_COMPARED = 40;
/** Once the screen shows the page: how long it must go on showing it (a frame may follow without the text). */
const CONFIRM_MS = 100;
/** A page with no text: drawn once the screen was still this long after the engine's frame… */
const BLANK_STILL_MS = 100;
/** …or this long passed (an animation without text never stills). */
const BLANK_MAX_MS = 1000;
/** A wedged engine: how long a call waits before the engine is asked directly, and that ask. */
const CALL_WAIT_MS = 30_000;
const PROBE_MS = 10_000;
/** How long a call waits for an engine that has not answered yet (a browser starting up). */
const ENGINE_WAIT_MS = 5000;
/** The pipe closes as the browser dies; its exit status (the evidence of how) is reaped a moment
 * later. An error waits this long for it, so it can say how the browser ended. */
const EXIT_WAIT_MS = 2000;
/** The accessibility outline is fetched again after a screen change at most this often. */
const AX_REFRESH_MS = 1000;
/** How long a frame request (two animation frames in the page) may take. */
const FRAME_MS = 3000;
/** Frames a wheel step may take to move the engine's scroll offset. */
const SCROLL_FRAMES = 30;

const BUTTON_BITS = { left: 1, right: 2, middle: 4 } as const;
const MODIFIER_BITS = { alt: 1, ctrl: 2, meta: 4, shift: 8 } as const;

type Drawn = { recovered?: Recovered };
/** How long a navigation may take, and how long the screen must then be still (if at all). */
export type NavLimits = { timeoutMs: number; settleMs?: number };
/** Keys or text through the engine's input events; `to`: a node to focus first (an engine ref or a cell's element). */
export type BrowserKeys = { keys?: string[]; text?: string; paste?: boolean; secret?: boolean; to?: string; revision?: number; wait?: WaitSpec };
export type BrowserMouse = { action: "down" | "up" | "move"; row: number; col: number; button: "left" | "middle" | "right"; modifiers: BrowserModifier[] };
/** Where the engine stood before an input: its navigation counters, and the page's visible text
 * runs (to tell which text the input changed). */
type InputMarks = { begun: number; commits: number; stops: number; runs: Set<string> };
/** How long an input's answer waits for the text it changed to be drawn (past it, the answer
 * goes: a page animating its text must not hold every key). */
const INPUT_DRAWN_MS = 2500;
const runKey = (run: { row: number; col: number; text: string; whole?: string }) => `${run.row}:${run.col}:${run.whole ?? run.text}`;
/** After input that began a navigation: how long it may take to commit, and to load and draw. */
const INPUT_COMMIT_MS = 10_000;
const INPUT_LOAD_MS = 30_000;
type AxOutline = { document: number; revision: number; nodes: OutlineNode[] };

export class BrowserFacet implements Facet {
  readonly #core: SessionCore;
  readonly #engine: BrowserEngine | null;
  /** Screen-change listeners (waits on what the screen shows). */
  readonly #screenListeners = new Set<() => void>();
  /** The last facts read, for meta (snapshots refresh them first). */
  #facts: { state: BrowserState; geometry: CellGeometry | null } | null = null;
  #ax: AxOutline | null = null;
  #axFetching: Promise<void> | null = null;
  #axFetchedAt = -Infinity;
  /** Documents the main frame has had (new documents only): engine refs name theirs. */
  #documents = 0;
  #documentLoader: string | null = null;
  /** Carbonyl's writes below its bar so far (a cursor move to row 2 or lower: a page frame). */
  #pageWrites = 0;
  readonly #startedAt = performance.now();
  /** The history as last read (a restart after a wedge loads it again). */
  #lastHistory: { entries: string[]; index: number } | null = null;
  /** When the engine was found to answer nothing (a wedged browser), or null. */
  #wedgedSince: number | null = null;
  /** The caller sent the browser a signal (`tuiwright signal`): its death is theirs, not a crash. */
  #signalled = false;
  /** Buttons held by the mouse method (down without up yet). */
  #held = 0;
  /** Text typed into an open prompt dialog: its answer when Enter accepts it. */
  #promptText: string | null = null;

  constructor(core: SessionCore) {
    this.#core = core;
    const channel = core.channel;
    this.#engine = channel ? new BrowserEngine(new CdpConnection(channel)) : null;
  }

  // ---- hooks -------------------------------------------------------------------------------

  output(bytes: Uint8Array): void {
    // Carbonyl moves the cursor (CUP) before each run it draws; row 1 is its bar.
    for (const [, row] of Buffer.from(bytes).toString("latin1").matchAll(/\x1b\[(\d+)(?:;\d+)?H/g)) {
      if (Number(row) >= 2) { this.#pageWrites++; break; }
    }
  }

  changed(): void {
    for (const listener of [...this.#screenListeners]) listener();
    // Engine refs' boxes follow the page; look again (throttled) when the screen moved.
    if (this.#ax && performance.now() - this.#axFetchedAt >= AX_REFRESH_MS) void this.refreshOutline().catch(() => undefined);
  }

  /** Keys and text go through the engine; what still goes to Carbonyl's bytes (its bar) must be
   * ASCII: a byte ≥ 0x80 typed into its URL bar panics it. */
  refuse(data: string): void {
    refuseNonAscii(data);
  }

  meta(): Partial<MetaValue> {
    const cursor = this.#core.screen.cursor;
    const base = { cursor: { ...cursor, x: cursor.col, y: cursor.row } };
    if (this.#core.exit !== null) {
      return { ...base, title: "", title_reason: `the browser has exited (${describeBrowserExit(this.#core.exit)})`, dpi: null, scale: null, dpi_reason: "the browser has exited" };
    }
    const facts = this.#facts;
    if (this.#wedgedSince !== null) return { ...base, title: "", title_reason: "the browser is wedged (its engine answers nothing); the screen shows its last frame", dpi: null, scale: null, dpi_reason: "the browser is wedged" };
    if (!facts) return { ...base, dpi: null, scale: null, dpi_reason: "the browser engine has not answered yet" };
    const { state, geometry } = facts;
    return {
      ...base,
      url: state.url,
      nav: { can_go_back: state.canGoBack, can_go_forward: state.canGoForward },
      ...(state.title === null ? { title: "", title_reason: state.titleReason ?? "the page has no title" } : { title: state.title }),
      dpi: geometry?.dpi ?? null,
      scale: geometry ? { width: round(geometry.scale.width), height: round(geometry.scale.height) } : null,
      ...(geometry ? {} : { dpi_reason: "the engine's layout metrics are not known yet" }),
      ...(state.crashed ? { crashed: state.crashed } : {}),
      ...(state.dialog ? { dialog: state.dialog } : {}),
    };
  }

  /** The page node's children as the engine knows them: its accessibility nodes (with engine
   * evidence), and the text runs no such node covers; the colour-guessed links go. */
  decorate(nodes: OutlineNode[]): OutlineNode[] {
    const ax = this.#ax;
    const engine = this.#engine;
    if (!ax || !engine || ax.document !== this.#documents || this.#core.exit !== null) return nodes;
    const page = (node: OutlineNode): OutlineNode => {
      if (node.ref !== "@carbonyl.page") return node.children ? { ...node, children: node.children.map(page) } : node;
      const runs = (node.children ?? []).filter((run) => run.role === "text" && !ax.nodes.some((a) => overlaps(a.bbox, run.bbox)));
      const children = [...ax.nodes, ...runs].sort((a, b) => a.bbox.row - b.bbox.row || a.bbox.col - b.bbox.col);
      // Named by its label, the page's text was in its runs; the engine's nodes replace some of
      // them, so the page says its text itself again (container-name.ts).
      return { ...node, ...(namedByLabel(node) ? { name: shownText(node) } : {}), children };
    };
    return nodes.map(page);
  }

  dispose(): void {
    this.#screenListeners.clear();
  }

  // ---- liveness and facts ------------------------------------------------------------------

  /** The engine, once it answered; session-exited for a browser that is gone. */
  async #live(action: string): Promise<BrowserEngine> {
    this.#requireRunning(action);
    const engine = this.#engine;
    if (!engine) throw new TuiwrightError("snapshot-unavailable", `cannot ${action}: this browser session has no engine channel`);
    // A browser starting up gets a moment; one whose engine does not answer (yet, or at all)
    // says so rather than holding the caller.
    const ready = await Promise.race([engine.ready.then(() => null, (error: unknown) => (error as Error).message), sleep(ENGINE_WAIT_MS).then(() => "waiting")]);
    this.#requireRunning(action);
    if (ready === "waiting") {
      throw new TuiwrightError("snapshot-unavailable", `cannot ${action}: the browser's engine has not answered on its pipe yet (${Math.round(performance.now() - this.#startedAt)} ms after the start)`, { hint: "retry in a moment; `tuiwright snapshot` shows what the browser drew" });
    }
    if (ready !== null) {
      throw new TuiwrightError("snapshot-unavailable", `cannot ${action}: the browser's engine never answered on its pipe (${ready}); is ${JSON.stringify(this.#core.argv[0] ?? "")} a Carbonyl build?`, { hint: "`tuiwright snapshot` shows what it drew; set CARBONYL=/path/to/carbonyl" });
    }
    if (engine.gone !== null) {
      await this.#exited();
      this.#requireRunning(action);
      throw new TuiwrightError("session-exited", `cannot ${action}: ${engine.gone}`);
    }
    this.#noteDocument(engine);
    return engine;
  }

  /** Resolves once the browser's exit status is in (a closed pipe comes first), or after EXIT_WAIT_MS. */
  async #exited(): Promise<void> {
    if (this.#core.exit === null) await Promise.race([this.#core.whenExited, sleep(EXIT_WAIT_MS)]);
  }

  #requireRunning(action: string): void {
    const exit = this.#core.exit;
    if (exit !== null) throw new TuiwrightError("session-exited", `cannot ${action}: the browser has exited (${describeBrowserExit(exit)})`, { details: this.#exitDetails(exit) });
  }

  /** The caller is about to signal the browser: a crash after it is not the browser's own. */
  signalled(): void {
    this.#signalled = true;
  }

  /**
   * A session-exited error's details. A browser that crashed by itself after its engine had a
   * page (Chromium dies of its own CHECK now and then under load: Carbonyl exits 127) also
   * carries the page and history it last had, so the daemon starts it again there
   * (details.browserCrashed, browser-restart.ts); one killed from outside or signalled by the
   * caller does not.
   */
  #exitDetails(exit: ExitStatusValue): Record<string, unknown> {
    const engine = this.#engine;
    if (!isBrowserCrash(exit) || this.#signalled || !engine || !engine.url) return { exit };
    return { exit, browserCrashed: true, why: describeBrowserExit(exit), url: engine.url, history: this.#lastHistory ?? { entries: [engine.url], index: 0 } };
  }

  /** Engine failures as the error table's names: a browser that went away has exited. */
  #engineError(error: unknown, action: string, why?: string): TuiwrightError {
    if (error instanceof TuiwrightError) return error;
    if (error instanceof CdpError) {
      if (error.kind === "closed") {
        const exit = this.#core.exit;
        return new TuiwrightError("session-exited", `cannot ${action}: ${exit ? `the browser has exited (${describeBrowserExit(exit)}; ${error.message})` : error.message}`, exit ? { details: this.#exitDetails(exit) } : {});
      }
      if (error.kind === "timeout") return new TuiwrightError("busy", `cannot ${action}: ${why ?? error.message}`, { hint: "the browser is busy or wedged; retry, or snapshot to see it" });
      if (error.kind === "dialog") return this.#dialogOpen(action);
      if (error.kind === "crashed") {
        return new TuiwrightError("snapshot-unavailable", `cannot ${action}: ${error.message}; the screen shows its last frame`, {
          hint: "reload (or navigate) starts a new renderer", details: { crashed: error.message },
        });
      }
      return new TuiwrightError("bad-data", `cannot ${action}: the engine refused: ${error.message}`);
    }
    return new TuiwrightError("internal", `cannot ${action}: ${(error as Error).message}`);
  }

  /** Runs `work` against the live engine, its failures as the error table's names; an engine
   * that stopped answering is asked once more, directly, and if it does not answer that either,
   * the browser is wedged (Carbonyl deadlocks now and then, seen after a resize under load). */
  async #withEngine<T>(action: string, work: (engine: BrowserEngine) => Promise<T>): Promise<T> {
    const engine = await this.#live(action);
    if (this.#wedgedSince !== null && !(await this.#answers(engine))) throw this.#wedged(engine, action);
    try {
      return await work(engine);
    } catch (error) {
      if (error instanceof CdpError && error.kind === "closed") await this.#exited();
      // A load's wait times out on the engine's events, not on a call: an engine that wedged after
      // answering Page.navigate looks like a slow page until it is asked (seen: navigate timed out
      // at 30 s on a silent engine, and nothing restarted it).
      const silent = (error instanceof CdpError && error.kind === "timeout") || asName(error) === "navigation-timeout";
      if (silent && this.#core.exit === null && !(await this.#answers(engine))) {
        this.#wedgedSince ??= performance.now() - CALL_WAIT_MS;
        throw this.#wedged(engine, action);
      }
      if (isScreenStall(error) && this.#core.exit === null) throw this.#screenStalled(engine, action, error);
      throw this.#engineError(error, action);
    }
  }

  /** The error of a screen that stopped drawing the page (nudges did not help): the daemon
   * restarts the browser at its history as for a wedged engine (details.wedged), and says so. */
  #screenStalled(engine: BrowserEngine, action: string, stall: TuiwrightError): TuiwrightError {
    const stalledMs = Number(stall.details.stalledMs) || 0;
    return new TuiwrightError("snapshot-unavailable", `cannot ${action}: ${stall.message}`, {
      hint: stall.hint,
      details: { ...stall.details, wedged: true, screenStalled: true, url: engine.url, wedgedMs: stalledMs, history: this.#lastHistory ?? { entries: [engine.url], index: 0 } },
    });
  }

  /** Whether the engine answers a call of its own (the browser process, not the page). */
  async #answers(engine: BrowserEngine): Promise<boolean> {
    const answered = await engine.browserCall("Browser.getVersion", {}, PROBE_MS).then(() => true, () => false);
    if (answered) this.#wedgedSince = null;
    return answered;
  }

  /** The error a wedged browser answers with: the daemon restarts it at `url` (details.wedged). */
  #wedged(engine: BrowserEngine, action: string): TuiwrightError {
    const forMs = Math.round(performance.now() - (this.#wedgedSince ?? performance.now()));
    return new TuiwrightError("snapshot-unavailable", `cannot ${action}: the browser is wedged (its engine has not answered for ${forMs} ms; the screen shows its last frame)`, {
      hint: "`tuiwright reset` starts it again; tuiwright's own calls restart it at the page it showed",
      details: { wedged: true, url: engine.url, wedgedMs: forMs, history: this.#lastHistory ?? { entries: [engine.url], index: 0 } },
    });
  }

  /** The refusal of a call the open JavaScript dialog holds back, and how to answer the dialog. */
  #dialogOpen(action: string): TuiwrightError {
    const dialog = this.#engine?.dialog;
    if (!dialog) return new TuiwrightError("busy", `cannot ${action}: a JavaScript dialog held the page`, { hint: "retry" });
    return new TuiwrightError("busy", `cannot ${action}: the page shows a JavaScript ${dialog.type} (${JSON.stringify(dialog.message)}), which holds the page until it is answered`, {
      hint: `press Enter to accept it (OK) or Escape to dismiss it (Cancel)${dialog.type === "prompt" ? "; `type` first gives the prompt its answer" : ""}`,
      details: { dialog: { type: dialog.type, message: dialog.message } },
    });
  }

  /** Counts the page's documents (a new loader); engine refs are bound to theirs. */
  #noteDocument(engine: BrowserEngine): void {
    const loader = engine.document?.loaderId ?? null;
    if (loader !== null && loader !== this.#documentLoader) {
      this.#documentLoader = loader;
      this.#documents++;
      this.#ax = null;
      this.#core.outline.redecorate();
    }
  }

  /** Engine ready and the first page on the screen: what `browse` waits for. */
  async ready(params: WorkerOps["browserReady"][0], signal: AbortSignal): Promise<WorkerOps["browserReady"][1]> {
    const started = performance.now();
    const deadline = started + params.timeoutMs;
    const engine = this.#engine;
    if (!engine) throw new TuiwrightError("snapshot-unavailable", "this browser session has no engine channel");
    const answered = await Promise.race([
      engine.ready.then(() => null, (error: unknown) => (error as Error).message),
      this.#core.whenExited.then(() => "it exited"),
      sleep(params.timeoutMs).then(() => `no answer in ${params.timeoutMs} ms`),
    ]);
    // A pipe closed by a browser that died: how it ended, not "is it a Carbonyl build?".
    if (answered !== null && engine.gone !== null) await this.#exited();
    this.#requireRunning("start the browser");
    if (answered !== null) {
      throw new TuiwrightError("no-browser", `the browser started (pid ${this.#core.pid}) but its engine did not answer on the private pipe (${answered}), and ${this.#core.screen.revision === 0 ? "it has drawn nothing" : "it did draw"}: is ${JSON.stringify(this.#core.argv[0] ?? "")} a Carbonyl build?`, {
        hint: "check the program with `tuiwright snapshot`, or set CARBONYL=/path/to/carbonyl",
      });
    }
    return this.#withEngine("start the browser", async (live) => {
      await live.until(() => (live.loaded ? true : undefined), deadline, "the first page to load", signal)
        .catch((error: unknown) => { throw timeoutAs(error, "navigation-timeout", `the first page did not load in ${params.timeoutMs} ms`); });
      await this.drawn(deadline, signal, undefined, true);
      const state = await this.state();
      return { ready: true as const, url: state.url, ms: Math.round(performance.now() - started) };
    });
  }

  /**
   * After a restart: the history of the browser that was wedged, loaded again page by page (so
   * back and forward go where they went), then the page it showed, loaded and drawn.
   */
  async restore(params: WorkerOps["browserRestore"][0], signal: AbortSignal): Promise<WorkerOps["browserRestore"][1]> {
    return this.#withEngine("restore the history", async (engine) => {
      const deadline = performance.now() + params.timeoutMs;
      const load = async (start: () => Promise<unknown>) => {
        const commits = engine.commits;
        await start();
        await engine.until(() => (engine.commits > commits && engine.loaded ? true : undefined), deadline, "a page of the restored history", signal);
        this.#noteDocument(engine);
      };
      const now = (await engine.history()).entries.map((e) => e.url);
      for (const [i, url] of params.entries.entries()) {
        if (i === 0 && now.length === 1 && now[0] === url) continue; // the new browser opened it
        await load(() => engine.call("Page.navigate", { url }));
      }
      const history = await engine.history();
      const target = history.entries[params.index];
      if (target && history.currentIndex !== params.index) await load(() => engine.call("Page.navigateToHistoryEntry", { entryId: target.id }));
      await this.drawn(deadline, signal, undefined, true);
      const state = await this.state();
      return { url: state.url, entries: history.entries.length };
    });
  }

  /** The page's state from the engine (and kept for meta). */
  async state(): Promise<BrowserState> {
    return this.#withEngine("read the browser's state", async (engine) => {
      const history = await engine.history();
      this.#lastHistory = { entries: history.entries.map((e) => e.url), index: history.currentIndex };
      const entry = history.entries[history.currentIndex];
      const url = entry?.url ?? engine.url;
      const title = entry?.title ?? "";
      const state: BrowserState = {
        url,
        title: title === "" ? null : title,
        ...(title === "" ? { titleReason: `${url} has no title (the engine's history entry for it has none)` } : {}),
        canGoBack: history.currentIndex > 0,
        canGoForward: history.currentIndex < history.entries.length - 1,
        revision: this.#core.screen.revision,
        loading: !engine.loaded,
        crashed: engine.crashed,
        dialog: engine.dialog ? { type: engine.dialog.type, message: engine.dialog.message } : null,
      };
      this.#facts = { state, geometry: this.#facts?.geometry ?? null };
      return state;
    });
  }

  /** The viewport's cell geometry from the engine's layout metrics. */
  async #geometry(engine: BrowserEngine): Promise<CellGeometry> {
    const metrics = await engine.call<LayoutMetrics>("Page.getLayoutMetrics");
    const geometry = cellGeometry(metrics, this.#core.screen.cols, this.#core.screen.rows);
    if (this.#facts) this.#facts = { ...this.#facts, geometry };
    return geometry;
  }

  async #layout(engine: BrowserEngine): Promise<{ layout: PageLayout; geometry: CellGeometry }> {
    const geometry = await this.#geometry(engine);
    const snapshot = await engine.call<DomSnapshot>("DOMSnapshot.captureSnapshot", { computedStyles: [] });
    return { layout: pageLayout(snapshot, geometry), geometry };
  }

  /** Facts and (for outlines and selectors) the engine's nodes, fresh, before a snapshot. */
  async beforeSnapshot(params: WorkerOps["snapshot"][0]): Promise<void> {
    if (this.#core.exit !== null || !this.#engine) return;
    const needsNodes = params.format === "outline" || params.select !== undefined || params.annotate !== undefined;
    try {
      await Promise.all([
        params.includeMeta ? this.state().then(() => this.#withEngine("read the layout", (engine) => this.#geometry(engine))) : undefined,
        needsNodes ? this.refreshOutline() : undefined,
      ]);
    } catch (error) {
      // The screen can be read without the engine's facts (an exiting browser, a wedged engine):
      // the snapshot says what it knows, and meta says why the rest is missing.
      if (asName(error) !== "session-exited" && asName(error) !== "busy" && asName(error) !== "snapshot-unavailable") throw error;
    }
  }

  /** The accessibility nodes on screen, fetched now. */
  refreshOutline(): Promise<void> {
    this.#axFetching ??= this.#withEngine("read the accessibility tree", async (engine) => {
      const revision = this.#core.screen.revision;
      const document = this.#documents;
      const [{ layout }, tree] = await Promise.all([this.#layout(engine), engine.call<{ nodes: AxNode[] }>("Accessibility.getFullAXTree")]);
      this.#noteDocument(engine);
      if (document !== this.#documents) return; // a new page came meanwhile
      this.#ax = { document, revision, nodes: axOutline(tree.nodes, layout, document, revision) };
      this.#axFetchedAt = performance.now();
      this.#core.outline.redecorate();
    }).finally(() => { this.#axFetching = null; });
    return this.#axFetching;
  }

  // ---- the screen shows what the engine has ------------------------------------------------

  /** The screen's rows as text, pixels blanked. */
  #lines(): string[] {
    this.#core.screen.sync();
    return textWithoutPixels(this.#core.screen.text(), this.#core.outline.pixels()).split("\n");
  }

  /** Resolves true once `check` holds (now or after a screen change), false at `until`. */
  #untilScreen(check: () => boolean, until: number, signal?: AbortSignal): Promise<boolean> {
    if (check()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        this.#screenListeners.delete(listener);
        clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
        resolve(value);
      };
      const listener = () => { if (check()) done(true); };
      const aborted = () => done(false);
      const timer = setTimeout(() => done(check()), Math.max(0, until - performance.now()));
      this.#screenListeners.add(listener);
      signal?.addEventListener("abort", aborted);
    });
  }

  /** Two animation frames in the page: the renderer has produced a frame of its current state. */
  async #frame(engine: BrowserEngine): Promise<void> {
    await engine.call("Runtime.evaluate", {
      expression: "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
      awaitPromise: true, returnByValue: true,
    }, FRAME_MS).catch((error: unknown) => {
      // A page that blocks its main thread, or a dialog, gives no frame: the screen check decides.
      if (error instanceof CdpError && error.kind === "closed") throw error;
    });
  }

  /**
   * Resolves once the screen shows the engine's current frame: the page's visible text where
   * Carbonyl draws it (at least DRAWN_SHARE of the runs, so a ticker cannot block it), or for a
   * page without text, once the screen was still a moment. When the screen lags the engine past
   * STALL_AFTER_MS (Carbonyl's stall), the size is nudged so it draws again (recovered). Throws
   * snapshot-unavailable at the deadline.
   */
  async drawn(deadline: number, signal?: AbortSignal, writtenAfter?: number, untilDeadline = false, maxNudges = MAX_NUDGES): Promise<Drawn> {
    const engine = await this.#live("wait for the page to be drawn");
    const started = performance.now();
    let nudges = 0;
    let stalledMs = 0;
    const result = (): Drawn => (nudges > 0 ? { recovered: { stalledMs: Math.round(stalledMs), by: "resize-nudge", nudges } } : {});
    for (;;) {
      if (performance.now() >= deadline) throw this.#stall((await this.#layout(engine)).layout.text.slice(0, RUNS_COMPARED), started, nudges);
      await this.#frame(engine);
      const { layout } = await this.#layout(engine);
      const runs = layout.text.slice(0, RUNS_COMPARED);
      if (runs.length === 0 && (writtenAfter === undefined || this.#pageWrites > writtenAfter)) {
        const quietUntil = Math.min(deadline, performance.now() + BLANK_MAX_MS);
        await this.#untilScreen(() => performance.now() - this.#core.screen.lastChangeAt >= BLANK_STILL_MS, quietUntil, signal);
        return result();
      }
      const need = Math.max(1, Math.ceil(runs.length * DRAWN_SHARE));
      // After a resize the old frame stays in the cells (xterm keeps them): only a page frame
      // written since counts.
      const shows = () => (writtenAfter === undefined || this.#pageWrites > writtenAfter) && runsShown(runs, this.#lines()) >= need;
      const windowEnds = Math.min(deadline, performance.now() + STALL_AFTER_MS);
      if (await this.#untilScreen(shows, windowEnds, signal)) {
        // Shown, and still shown a moment later: a later frame may paint the page without its text.
        if (!(await this.#untilScreen(() => !shows(), Math.min(deadline, performance.now() + CONFIRM_MS), signal))) return result();
        continue;
      }
      this.#requireRunning("wait for the page to be drawn");
      if (signal?.aborted) throw new TuiwrightError("timeout", "the caller went away");
      // The page may have moved on (a script, an animation): compare with its frame now.
      const again = (await this.#layout(engine)).layout.text.slice(0, RUNS_COMPARED);
      const written = writtenAfter === undefined || this.#pageWrites > writtenAfter;
      if (written && (again.length === 0 || runsShown(again, this.#lines()) >= Math.max(1, Math.ceil(again.length * DRAWN_SHARE)))) return result();
      // After the last nudge an operation gives up (its caller starts a new browser); the start
      // and a restore, which nothing restarts, wait out their deadline.
      if (performance.now() >= deadline || (nudges >= maxNudges && !untilDeadline)) throw this.#stall(again, started, nudges);
      if (nudges >= maxNudges) continue;
      stalledMs = performance.now() - started;
      nudges++;
      this.#nudge();
    }
  }

  #stall(runs: PageLayout["text"], started: number, nudges: number): TuiwrightError {
    const lines = this.#lines();
    return new TuiwrightError("snapshot-unavailable", `the engine has the page, but Carbonyl's screen does not show it (${runsShown(runs, lines)} of ${runs.length} text runs drawn after ${Math.round(performance.now() - started)} ms${nudges > 0 ? ` and ${nudges} nudge(s) of the size` : ""})`, {
      hint: "snapshot to see the screen; reload, or navigate again",
      details: { expected: runs.slice(0, 5), stalledMs: Math.round(performance.now() - started), nudges },
    });
  }

  /**
   * A load's drawn(): when the screen still shows nothing of the page after every nudge, the
   * page's renderer is restarted once (engine.restartRenderer: history unchanged), and the new one
   * must draw within one stall window. Carbonyl hooks each renderer to the terminal once, as it
   * starts, and now and then misses a cross-process navigation's (http → file under load: ~1 in
   * 10); nudges, a reload in the same renderer and focus did not draw it, a new renderer did. A
   * second stall is drawn()'s error saying so, which has the daemon start a new browser.
   */
  async #drawnOrNewRenderer(engine: BrowserEngine, deadline: number, signal: AbortSignal): Promise<Drawn> {
    try {
      return await this.drawn(deadline, signal);
    } catch (error) {
      if (!isScreenStall(error) || this.#core.exit !== null) throw error;
      const restartAt = performance.now();
      try {
        await engine.restartRenderer(deadline, signal);
        this.#noteDocument(engine);
        await this.drawn(deadline, signal, undefined, false, 0);
      } catch (again) {
        if (again instanceof CdpError && again.kind === "closed") throw again;
        if (asName(again) === "session-exited" || signal.aborted) throw again;
        throw new TuiwrightError("snapshot-unavailable", `${error.message}; a new renderer (the old one ended, the page reloaded) did not draw it either: ${(again as Error).message}`, {
          hint: error.hint, details: { ...error.details, rendererRestart: (again as Error).message },
        });
      }
      const stalledMs = (Number(error.details.stalledMs) || 0) + performance.now() - restartAt;
      return { recovered: { stalledMs: Math.round(stalledMs), by: "renderer-restart", nudges: Number(error.details.nudges) || 0 } };
    }
  }

  /** A column less and back: two size changes, so Carbonyl has the page drawn again. */
  #nudge(): void {
    const { cols, rows } = this.#core.screen;
    this.#core.resize({ cols: cols - 1, rows });
    this.#core.resize({ cols, rows });
  }

  // ---- operations ---------------------------------------------------------------------------

  navigate(params: NavLimits & { url: string }, signal: AbortSignal): Promise<Navigated> {
    return this.#withEngine(`load ${params.url}`, (engine) => newRenderer(engine, () => navigate(this.#page(engine, signal), params.url, { timeoutMs: params.timeoutMs, settleMs: params.settleMs })));
  }

  navButton(params: NavLimits & { button: "back" | "forward" | "reload" }, signal: AbortSignal): Promise<Navigated> {
    return this.#withEngine(params.button === "reload" ? "reload" : `go ${params.button}`, (engine) => newRenderer(engine, () => pressButton(this.#page(engine, signal), params.button, { timeoutMs: params.timeoutMs, settleMs: params.settleMs })));
  }

  /** What navigation needs of the session. */
  #page(engine: BrowserEngine, signal: AbortSignal) {
    return {
      engine,
      signal,
      drawn: (deadline: number) => this.#drawnOrNewRenderer(engine, deadline, signal),
      state: () => this.state(),
      revision: () => this.#core.screen.revision,
      still: (ms: number, deadline: number) => this.#untilScreen(() => performance.now() - this.#core.screen.lastChangeAt >= ms, deadline, signal),
      settledDocument: () => this.#noteDocument(engine),
    };
  }

  /** After a resize the engine lays the page out at the new size, and Carbonyl draws it: the
   * answer waits for both (redrawn), recovering a stall (nudged, recovered). */
  async resize(params: WorkerOps["resize"][0], signal: AbortSignal): Promise<WorkerOps["resize"][1]> {
    this.#requireRunning("resize the browser");
    return this.#withEngine("resize the browser", async (engine) => {
      if (engine.dialog !== null) throw this.#dialogOpen("resize the browser"); // the size would change under a page that cannot lay out
      const deadline = performance.now() + params.timeoutMs;
      const writes = this.#pageWrites;
      const sized = this.#core.resize(params);
      try {
        // The engine's viewport in device pixels becomes cols×2 by (rows-1)×4 (a scrollbar aside)
        // of the screen's size now: a resize that came meanwhile (another client's) replaced this
        // one's size, and the engine will never lay the page out at it.
        for (;;) {
          const want = { width: this.#core.screen.cols * 2, height: (this.#core.screen.rows - 1) * 4 };
          const metrics = await engine.call<LayoutMetrics>("Page.getLayoutMetrics");
          const { clientWidth, clientHeight } = metrics.visualViewport;
          if (Math.abs(clientHeight - want.height) <= 4 && clientWidth <= want.width + 2 && clientWidth >= want.width - 16) break;
          if (performance.now() >= deadline) return { ...sized, redrawn: false, nudged: false, revision: this.#core.screen.revision };
          await sleep(20); // the engine has no event for its window size; ask again shortly
        }
        const drawn = await this.drawn(deadline, signal, writes);
        if (this.#ax) await this.refreshOutline(); // laid out again: the engine refs' boxes moved
        return { ...sized, redrawn: true, nudged: drawn.recovered !== undefined, ...drawn, revision: this.#core.screen.revision };
      } catch (error) {
        // Not drawn by the deadline: the size is set, and the answer says the page did not redraw.
        if (asName(error) === "snapshot-unavailable" && (error as TuiwrightError).details.wedged !== true) {
          const nudges = (error as TuiwrightError).details.nudges;
          return { ...sized, redrawn: false, nudged: typeof nudges === "number" && nudges > 0, revision: this.#core.screen.revision };
        }
        throw error;
      }
    });
  }

  /** The wheel over a cell, through the engine; answers once the engine scrolled (or could not)
   * and the screen shows the page where it is now. */
  async scroll(params: WorkerOps["scroll"][0], signal: AbortSignal): Promise<Scrolled> {
    return this.#withEngine("scroll", async (engine) => {
      const geometry = await this.#geometry(engine);
      const row = params.row ?? Math.floor(this.#core.screen.rows / 2);
      const col = params.col ?? Math.floor(this.#core.screen.cols / 2);
      this.#inside(row, col);
      const at = cellCenter(Math.max(1, row), col, geometry);
      const revisionBefore = this.#core.screen.revision;
      const deadline = performance.now() + Math.max(10_000, params.settleMs + 10_000);
      // One wheel step is one text row: the page moves by delta rows' height.
      const offset = async () => (await engine.call<{ cssVisualViewport: { pageY: number } }>("Page.getLayoutMetrics")).cssVisualViewport.pageY;
      const before = await offset();
      await this.#core.actVia(() => engine.call("Input.dispatchMouseEvent", { type: "mouseWheel", x: at.x, y: at.y, deltaX: 0, deltaY: params.delta * geometry.scale.height }), undefined, { label: `scroll ${params.delta}`, recorded: "" });
      // The engine applies the wheel on a later frame: wait until its offset has moved and then
      // held for a frame (or held from the start: the page could not scroll that way).
      let last = before;
      for (let frames = 0; frames < SCROLL_FRAMES; frames++) {
        await this.#frame(engine);
        const now = await offset();
        if (now === last && (now !== before || frames >= 2)) break;
        last = now;
      }
      const drawn = await this.drawn(deadline, signal);
      if (params.settleMs > 0) await this.#untilScreen(() => performance.now() - this.#core.screen.lastChangeAt >= params.settleMs, Math.min(deadline, performance.now() + params.settleMs * 4), signal);
      if (this.#ax) await this.refreshOutline(); // the engine refs' boxes moved with the page
      return { revisionBefore, revisionAfter: this.#core.screen.revision, ...drawn };
    });
  }

  #inside(row: number, col: number): void {
    const { rows, cols } = this.#core.screen;
    if (row >= rows || col >= cols) throw new TuiwrightError("bad-data", `cell ${row},${col} is outside the ${cols}x${rows} screen`);
  }

  /** Keys or text through the engine's input events; `to` focuses a node first. */
  async keys(params: BrowserKeys, signal?: AbortSignal): Promise<ActionReply> {
    return this.#withEngine(params.keys ? "press keys" : "type", async (engine) => {
      if (engine.dialog !== null) return this.#answerDialog(engine, params, signal);
      const steps = params.keys ? params.keys.map((name) => ({ keys: keyEvents(name) })) : params.paste ? [{ insert: params.text ?? "" }] : typingSteps(params.text ?? "");
      const target = params.to === undefined ? undefined : await this.#focus(engine, params.to, params.revision);
      const shown = params.secret ? "***" : params.text ?? "";
      if (params.secret && params.text) this.#core.mask.add(params.text);
      const label = params.keys ? `press ${params.keys.join(" ")}` : params.paste ? "paste" : `type ${JSON.stringify(shown.length > 40 ? `${shown.slice(0, 39)}…` : shown)}`;
      const send = opening(engine, async () => {
        for (const step of steps) {
          if ("insert" in step) await engine.call("Input.insertText", { text: step.insert });
          else for (const event of step.keys) await engine.call("Input.dispatchKeyEvent", event as KeyEvent);
        }
      });
      const before = await this.#marks(engine);
      const reply = await this.#core.actVia(send, params.wait, { label, recorded: params.keys ? "" : shown }, target);
      return { ...reply, ok: true as const, ...(await this.#afterInput(engine, before, signal)), revisionAfter: Math.max(reply.revisionAfter, this.#core.screen.revision) };
    });
  }

  /**
   * Keys while a JavaScript dialog is open answer it, as a person does: Enter accepts (OK, with
   * the text typed for a prompt), Escape dismisses (Cancel). Text typed into a prompt is kept as
   * its answer; any other key is refused, since the page takes no input until the dialog is gone.
   */
  async #answerDialog(engine: BrowserEngine, params: BrowserKeys, signal?: AbortSignal): Promise<ActionReply> {
    const dialog = engine.dialog!;
    const shown = { type: dialog.type, message: dialog.message };
    if (params.keys === undefined) {
      if (dialog.type !== "prompt" || params.to !== undefined) throw this.#dialogOpen("type");
      this.#promptText = (this.#promptText ?? "") + (params.text ?? "");
      const reply = await this.#core.actVia(async () => undefined, params.wait, { label: `type into the prompt ${JSON.stringify(params.secret ? "***" : params.text ?? "")}`, recorded: "" });
      return { ...reply, ok: true as const, dialog: { ...shown, state: "open" as const } };
    }
    const key = params.keys.length === 1 && params.to === undefined ? params.keys[0] : undefined;
    if (key !== "Enter" && key !== "Escape") throw this.#dialogOpen(`press ${params.keys.join(" ")}`);
    const accept = key === "Enter";
    const promptText = accept && dialog.type === "prompt" ? this.#promptText ?? "" : undefined;
    const before = await this.#marks(engine);
    const reply = await this.#core.actVia(() => engine.answerDialog(accept, promptText, performance.now() + INPUT_COMMIT_MS), params.wait, { label: `press ${key} (${accept ? "accept" : "dismiss"} the ${dialog.type})`, recorded: "" });
    this.#promptText = null;
    // A confirm's answer may navigate (a form sent, a link followed): followed like other input.
    return { ...reply, ok: true as const, dialog: { ...shown, state: accept ? "accepted" as const : "dismissed" as const }, ...(await this.#afterInput(engine, before, signal)), revisionAfter: Math.max(reply.revisionAfter, this.#core.screen.revision) };
  }

  async #marks(engine: BrowserEngine): Promise<InputMarks> {
    const marks = { begun: engine.navigationsBegun, commits: engine.commits, stops: engine.loadingStops };
    const runs = await this.#layout(engine).then(({ layout }) => layout.text, () => []);
    return { ...marks, runs: new Set(runs.map(runKey)) };
  }

  /** The text the input changed on the page (visible runs the engine has now and had not before)
   * is on the screen — the input's effect, seen — or INPUT_DRAWN_MS passed. */
  async #changedTextDrawn(engine: BrowserEngine, before: InputMarks, signal?: AbortSignal): Promise<void> {
    const { layout } = await this.#layout(engine);
    const fresh = layout.text.filter((run) => !before.runs.has(runKey(run))).slice(0, RUNS_COMPARED);
    if (fresh.length === 0) return;
    const need = Math.max(1, Math.ceil(fresh.length * DRAWN_SHARE));
    const shown = () => {
      const lines = this.#lines();
      return runsShown(fresh, lines) >= need && runEndsShown(fresh, lines, layout.text) >= need;
    };
    await this.#untilScreen(shown, performance.now() + INPUT_DRAWN_MS, signal);
  }

  /**
   * After input the page may navigate (Enter on a link, a click, a form sent): once the renderer
   * has handled the input (a frame later), a navigation it began is followed like a load —
   * committed, loaded, drawn — and named in the answer; one that ends without a new document (a
   * cancelled one, a download) is not waited for further.
   */
  async #afterInput(engine: BrowserEngine, before: InputMarks, signal?: AbortSignal): Promise<{ navigated?: { url: string; title: string | null }; recovered?: Recovered; dialog?: OpenDialog }> {
    // The input opened a dialog: the page is held until it is answered, and the answer says so.
    const opened = () => (engine.dialog === null ? undefined : { dialog: { type: engine.dialog.type, message: engine.dialog.message, state: "open" as const } });
    if (opened()) return opened()!;
    await this.#frame(engine);
    if (opened()) return opened()!;
    if (engine.navigationsBegun === before.begun && engine.commits === before.commits) {
      await this.#changedTextDrawn(engine, before, signal);
      return {};
    }
    const started = performance.now();
    const outcome = await engine.until(() => (engine.commits > before.commits ? "committed" : engine.loadingStops > before.stops ? "stopped" : undefined), started + INPUT_COMMIT_MS, "the page's navigation", signal)
      .catch((error: unknown) => { if (asName(error) === "timeout") return "pending" as const; throw error; });
    if (outcome !== "committed") return {};
    this.#noteDocument(engine);
    const deadline = started + INPUT_LOAD_MS;
    await engine.until(() => (engine.loaded ? true : undefined), deadline, "the new page's load", signal).catch((error: unknown) => {
      throw timeoutAs(error, "navigation-timeout", `the input began loading ${engine.url}, which did not load in ${INPUT_LOAD_MS} ms`);
    });
    const drawn = await this.drawn(deadline, signal);
    const state = await this.state();
    return { navigated: { url: state.url, title: state.title }, ...drawn };
  }

  /** Puts the keyboard on a node: an engine ref or an input's element is focused by the engine. */
  async #focus(engine: BrowserEngine, to: string, revision: number | undefined): Promise<ActionReply["target"]> {
    const element = await this.#element(engine, to, revision);
    await engine.call("DOM.focus", { backendNodeId: element.backendNodeId });
    return { ref: element.ref, row: element.row, col: element.col, via: "focus" };
  }

  /**
   * The element a target names, on the current page: an engine ref (@ax<doc>.<id>) must be of
   * this document, still attached and on screen (scrolled into view when it is not); a selector
   * or another ref resolves on the outline and must be an engine node.
   */
  async #element(engine: BrowserEngine, target: string, revision: number | undefined): Promise<{ ref: string; backendNodeId: number; row: number; col: number; x: number; y: number }> {
    let ref = target;
    if (parseAxRef(target) === null) {
      await this.refreshOutline();
      this.#core.screen.sync();
      ref = this.#core.outline.resolve(target, revision).ref;
    }
    const parsed = parseAxRef(ref);
    if (parsed === null) {
      throw new TuiwrightError("bad-data", `${target} (${ref}) is text on the screen, not an element the engine knows; aim at a link, button or input (@ax refs), or click its cell`, { details: { ref } });
    }
    if (parsed.document !== this.#documents) {
      throw new TuiwrightError("stale-ref", `${ref} is stale: it was on an earlier page (document ${parsed.document}; the page now is document ${this.#documents})`, { details: { ref } });
    }
    const backendNodeId = parsed.backendNodeId;
    try {
      await engine.call("DOM.scrollIntoViewIfNeeded", { backendNodeId });
      const { quads } = await engine.call<{ quads: number[][] }>("DOM.getContentQuads", { backendNodeId });
      const quad = quads.find((q) => q.length === 8);
      if (!quad) throw new TuiwrightError("bad-data", `${ref} has no box on the page (it is hidden)`, { details: { ref } });
      const x = (quad[0]! + quad[2]! + quad[4]! + quad[6]!) / 4;
      const y = (quad[1]! + quad[3]! + quad[5]! + quad[7]!) / 4;
      const geometry = await this.#geometry(engine);
      const row = Math.min(this.#core.screen.rows - 1, 1 + Math.floor(y / geometry.scale.height));
      const col = Math.min(this.#core.screen.cols - 1, Math.floor(x / geometry.scale.width));
      return { ref, backendNodeId, row, col, x, y };
    } catch (error) {
      if (error instanceof CdpError && error.kind === "protocol") {
        throw new TuiwrightError("stale-ref", `${ref} is stale: the engine no longer has that element on this page (${error.message})`, { details: { ref } });
      }
      throw error;
    }
  }

  /** A click: on an engine node (checked to be the element under the pointer), a page cell
   * through the engine, or Carbonyl's bar (row 0) by its own bytes. */
  async click(params: WorkerOps["click"][0], signal: AbortSignal): Promise<ActionReply> {
    this.#requireRunning("click");
    if (params.target === undefined && (params.row === undefined || params.col === undefined)) {
      throw new TuiwrightError("usage", "click needs a target (ref or selector) or both row and col");
    }
    if (params.target === undefined && params.row === 0) {
      if (params.modifiers?.length) throw new TuiwrightError("bad-data", "Carbonyl's bar (row 0) takes clicks without modifiers");
      return this.#core.click(params);
    }
    return this.#withEngine("click", async (engine) => {
      const button = params.button ?? "left";
      const modifiers = bits(params.modifiers ?? []);
      let target: NonNullable<ActionReply["target"]>;
      let x: number;
      let y: number;
      if (params.target !== undefined) {
        const element = await this.#element(engine, params.target, params.revision);
        await this.#hits(engine, element.backendNodeId, element.x, element.y, element.ref);
        ({ x, y } = element);
        target = { ref: element.ref, row: element.row, col: element.col };
      } else {
        this.#inside(params.row!, params.col!);
        ({ x, y } = cellCenter(params.row!, params.col!, await this.#geometry(engine)));
        target = { ref: "cell", row: params.row!, col: params.col! };
      }
      const where = params.target ?? `${params.row},${params.col}`;
      const send = opening(engine, async () => {
        await engine.call("Input.dispatchMouseEvent", { type: "mouseMoved", x, y, modifiers });
        await engine.call("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button, buttons: BUTTON_BITS[button], clickCount: 1, modifiers });
        await engine.call("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button, buttons: 0, clickCount: 1, modifiers });
      });
      const before = await this.#marks(engine);
      const reply = await this.#core.actVia(send, params.wait, { label: `click ${where}${params.modifiers?.length ? ` with ${params.modifiers.join("+")}` : ""}`, recorded: "" }, target);
      return { ...reply, ok: true as const, ...(await this.#afterInput(engine, before, signal)), revisionAfter: Math.max(reply.revisionAfter, this.#core.screen.revision) };
    });
  }

  /** The element under (x, y) is the target or inside it: a click there lands on it. */
  async #hits(engine: BrowserEngine, backendNodeId: number, x: number, y: number, ref: string): Promise<void> {
    const hit = await engine.call<{ backendNodeId: number }>("DOM.getNodeForLocation", { x: Math.round(x), y: Math.round(y), includeUserAgentShadowDOM: true });
    if (hit.backendNodeId === backendNodeId) return;
    const [{ object: outer }, { object: inner }] = await Promise.all([
      engine.call<{ object: { objectId: string } }>("DOM.resolveNode", { backendNodeId }),
      engine.call<{ object: { objectId: string } }>("DOM.resolveNode", { backendNodeId: hit.backendNodeId }),
    ]);
    const inside = await engine.call<{ result: { value?: unknown } }>("Runtime.callFunctionOn", {
      objectId: outer.objectId, functionDeclaration: "function (other) { return this.contains(other); }", arguments: [{ objectId: inner.objectId }], returnByValue: true,
    });
    if (inside.result.value !== true) {
      throw new TuiwrightError("bad-data", `${ref} is covered: the element at its centre is another one (the engine's hit test); nothing was clicked`, { details: { ref } });
    }
  }

  /** Mouse down, move, up at a cell with a button and modifiers (the bar by Carbonyl's bytes). */
  async mouse(params: BrowserMouse): Promise<{ held: boolean; revision: number }> {
    this.#requireRunning(`mouse ${params.action}`);
    this.#inside(params.row, params.col);
    const label = `mouse ${params.action} ${params.row},${params.col}`;
    if (params.row === 0) {
      if (params.button !== "left" || params.modifiers.length > 0) throw new TuiwrightError("bad-data", "Carbonyl's bar (row 0) takes the left button without modifiers");
      const reply = await this.#core.act(carbonylMouse(params.action, params.row, params.col, this.#held !== 0), undefined, undefined, { label });
      if (params.action !== "move") this.#held = params.action === "down" ? BUTTON_BITS.left : 0;
      return { held: this.#held !== 0, revision: reply.revisionAfter };
    }
    return this.#withEngine(label, async (engine) => {
      const { x, y } = cellCenter(params.row, params.col, await this.#geometry(engine));
      const modifiers = bits(params.modifiers);
      const bit = BUTTON_BITS[params.button];
      const type = params.action === "down" ? "mousePressed" : params.action === "up" ? "mouseReleased" : "mouseMoved";
      const buttons = params.action === "down" ? this.#held | bit : params.action === "up" ? this.#held & ~bit : this.#held;
      const button = params.action === "move" ? heldButton(this.#held) : params.button;
      const send = opening(engine, () => engine.call("Input.dispatchMouseEvent", { type, x, y, button, buttons, modifiers, clickCount: params.action === "move" ? 0 : 1 }));
      const before = await this.#marks(engine);
      const reply = await this.#core.actVia(send, undefined, { label, recorded: "" });
      this.#held = buttons;
      // What the page drew in answer (a handler's text) is on the screen when this answers.
      if (engine.dialog === null) {
        await this.#frame(engine);
        await this.#changedTextDrawn(engine, before);
      }
      return { held: this.#held !== 0, revision: reply.revisionAfter };
    });
  }
}

/** A load on a page whose renderer had crashed starts a new one: the answer says it recovered. */
async function newRenderer(engine: BrowserEngine, load: () => Promise<Navigated>): Promise<Navigated> {
  const crashed = engine.crashed;
  const since = engine.crashedAt;
  const loaded = await load();
  if (crashed === null || engine.crashed !== null || loaded.recovered) return loaded;
  return { ...loaded, recovered: { stalledMs: Math.round(performance.now() - since), by: "new-renderer", crashed } };
}

type OpenDialog = { type: string; message: string; state: "open" | "accepted" | "dismissed" };

/** Input events whose handling opened a JavaScript dialog: the renderer answers them only once
 * the dialog is answered, so the input counts as taken (the answer names the dialog). */
function opening(engine: BrowserEngine, send: () => Promise<void>): () => Promise<void> {
  return () => send().catch((error: unknown) => {
    if (!(error instanceof CdpError && error.kind === "dialog" && engine.dialog !== null)) throw error;
  });
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const bits = (modifiers: BrowserModifier[]) => [...new Set(modifiers)].reduce((sum, m) => sum + MODIFIER_BITS[m], 0);
const heldButton = (held: number) => (held & BUTTON_BITS.left ? "left" : held & BUTTON_BITS.right ? "right" : held & BUTTON_BITS.middle ? "middle" : "none");
const asName = (error: unknown) => (error instanceof TuiwrightError ? error.errorName : null);
const overlaps = (a: OutlineNode["bbox"], b: OutlineNode["bbox"]) => contains(a, b) || (a.row < b.row + b.rows && b.row < a.row + a.rows && a.col < b.col + b.cols && b.col < a.col + a.cols);

function timeoutAs(error: unknown, name: "navigation-timeout", message: string): unknown {
  return asName(error) === "timeout" ? new TuiwrightError(name, message) : error;
}

/** Whether `error` is drawn()'s stall after every nudge: the engine has the page, the screen shows none of it. */
function isScreenStall(error: unknown): error is TuiwrightError {
  return error instanceof TuiwrightError && error.errorName === "snapshot-unavailable" && error.details.wedged !== true && typeof error.details.nudges === "number" && error.details.nudges >= MAX_NUDGES;
}
