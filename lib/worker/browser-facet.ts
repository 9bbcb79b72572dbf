// The browser facet: a Carbonyl session's navigation bar, buttons and page title (read off the
// screen, with what the session saw: title announcements, keys typed into the bar), raw input
// for Carbonyl, and navigation (browser-navigation.ts), which runs here in the worker.
import { asTuiwrightError, TuiwrightError } from "../protocol/errors.ts";
import type { MetaValue } from "../protocol/methods.ts";
import { navFlags, readNavBar } from "../browser/nav-state.ts";
import { PageFrameWatch } from "../browser/page-frame-watch.ts";
import { textWithoutPixels } from "../terminal/pixels.ts";
import { barKeepsKeyboard, refuseNonAscii } from "../browser/carbonyl-input.ts";
import type { BrowserState, WorkerCall, WorkerOps, WorkerOpTable } from "../link/messages.ts";
import { navigate, pressButton } from "./browser-navigation.ts";
import type { ActionReply, Facet, SessionCore } from "./session-core.ts";

/** How long after a title announcement the URL bar's value is taken as that title's page. */
const TITLE_URL_WINDOW_MS = 300;
/** How long a resize waits for a page frame before nudging the size. */
const NUDGE_AFTER_MS = 3000;
/** How long the page area must stay still after its first frame at the new size. */
const REDRAW_SETTLE_MS = 150;

export class BrowserFacet implements Facet {
  readonly #core: SessionCore;
  /** The worker's own ops, for navigation (which drives the bar through them, as a caller would). */
  readonly #call: WorkerCall;
  /** The last title announcement and the page it belongs to. */
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
  /** While resizes wait for the page's next frame: what each watches, and who waits for output. */
  readonly #watches = new Set<PageFrameWatch>();
  readonly #outputListeners = new Set<() => void>();

  constructor(core: SessionCore, call: WorkerCall) {
    this.#core = core;
    this.#call = call;
  }

  changed(): void {
    this.#noteTitle();
  }

  /** Every path into Carbonyl (press, type, click, the AWI methods): a byte ≥ 0x80 typed into its
   * URL bar panics it, so no such byte is sent. */
  refuse(data: string): void {
    refuseNonAscii(data);
  }

  sending(input: string): void {
    // Keys typed into the bar are an edit until Enter submits it; the bar shows the edit.
    if (this.#barHasKeyboard && !input.startsWith("\x1b[<")) this.#barEdited = !input.includes("\r");
    // A new navigation begins (Enter in the bar, a button): a title announced before it belongs
    // to the page before, whatever URL the bar shows next.
    if ((this.#barHasKeyboard && input.includes("\r")) || /\x1b\[<0;[1-9];1M/.test(input)) this.#titleWindowEnds = 0;
    this.#barHasKeyboard = barKeepsKeyboard(this.#barHasKeyboard, input);
  }

  get(what: WorkerOps["get"][0]["what"]): { value: unknown } | undefined {
    switch (what) {
      case "title": return { value: this.#browserTitle() };
      case "url": return { value: readNavBar(this.#core.outline.current()).url };
      case "nav": return { value: navFlags(readNavBar(this.#core.outline.current())) };
      default: return undefined;
    }
  }

  meta(): Partial<MetaValue> {
    const cursor = this.#core.screen.cursor;
    const unknown = {
      cursor: { ...cursor, x: cursor.col, y: cursor.row },
      dpi: null, scale: null,
      dpi_reason: "Carbonyl keeps its device scale and cell size in pixels to itself; it draws none of them on the screen",
    };
    try {
      const state = this.state();
      return { ...unknown, url: state.url, nav: navFlags(state), ...(state.pageTitle.title === null ? { title: "", title_reason: state.pageTitle.reason } : { title: state.pageTitle.title }) };
    } catch {
      return unknown; // the navigation bar is not drawn yet
    }
  }


  /** The browser's URL bar, buttons and title (the caller checked it is a browser session). */
  state(): BrowserState {
    this.#core.screen.sync();
    const bar = readNavBar(this.#core.outline.current());
    const barFocused = this.#barFocused();
    // While the bar is being edited it shows the edit, not the page: keep the page's URL.
    if (!this.#barEdited) this.#pageUrl = bar.url;
    let url = this.#barEdited && this.#pageUrl !== null ? this.#pageUrl : bar.url;
    // Carbonyl shows cols - 13 characters of the URL; a longer one is whole in what was loaded.
    const shownUrl = url;
    const full = this.#navigatedUrl;
    if (full !== null && url.length >= this.#core.screen.cols - 13 && full.length > url.length && full.startsWith(url)) url = full;
    return {
      ...bar, url, title: this.#core.screen.title, revision: this.#core.screen.revision, barFocused,
      titlesSet: this.#core.screen.titlesSet, titleRevision: this.#titleRevision, pageTitle: this.#pageTitle(shownUrl),
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
    const screen = this.#core.screen;
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
        const url = readNavBar(this.#core.outline.current()).url;
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
    return { title: null, reason: `Carbonyl announced no title for ${url} (it announces one when a page sets it; the terminal title ${JSON.stringify(this.#core.screen.title)} belongs to another page)` };
  }

  /** A browser's title for `get title`: the page's, or null when Carbonyl announced none for it. */
  #browserTitle(): string | null {
    try {
      return this.state().pageTitle.title;
    } catch {
      return null; // the navigation bar is not drawn yet: no page is shown
    }
  }

  /** After a resize Carbonyl redraws its bar at once and Chromium the page when its next frame
   * comes. Until then the page area holds xterm's reflow of the old frame — text drawn at no size
   * the page had — so the resize waits for a page frame: a write below the bar (it may redraw
   * exactly what the reflow shows, so a screen change is no sign) and, when the page showed text,
   * its text (Carbonyl paints the page's pixels first, and only them when Chromium's renderer
   * sends no frame). Carbonyl sometimes gets no frame after a renderer switch under load; one
   * nudge of the size (a column less and back: two more SIGWINCHes) asks for one again. Honest
   * either way: `redrawn: false` when no such frame came by the timeout. */
  async resize(params: WorkerOps["resize"][0], signal: AbortSignal): Promise<WorkerOps["resize"][1]> {
    // Read before the resize: shrinking the rows pushes the top rows (the bar) into scrollback.
    const pixels = this.#core.outline.pixels();
    const hadText = this.#pageHasText(pixels);
    const sized = this.#core.resize(params);
    if (this.#core.exit !== null) return sized;
    const drawn = await this.#redraw(pixels, hadText, params.timeoutMs, signal);
    return { ...sized, ...drawn, revision: this.#core.screen.revision };
  }

  async #redraw(pixels: string, hadText: boolean, timeoutMs: number, signal: AbortSignal): Promise<{ redrawn: boolean; nudged: boolean }> {
    const deadline = performance.now() + timeoutMs;
    let nudgeAt = performance.now() + NUDGE_AFTER_MS;
    let nudged = false;
    for (;;) {
      const watch = new PageFrameWatch(pixels);
      this.#watches.add(watch);
      try {
        while (!(watch.pageWritten && (!hadText || watch.pageText))) {
          const left = deadline - performance.now();
          if (left <= 0) return { redrawn: false, nudged };
          if (await this.#nextOutput(Math.min(left, Math.max(1, nudgeAt - performance.now())), signal)) continue;
          if (nudged || performance.now() < nudgeAt) continue;
          const { cols, rows } = this.#core.screen;
          this.#core.resize({ cols: cols - 1, rows });
          this.#core.resize({ cols, rows });
          nudged = true;
          nudgeAt = Infinity;
        }
      } finally {
        this.#watches.delete(watch);
      }
      await this.#core.screen.write(""); // what came so far is parsed
      const left = Math.ceil(deadline - performance.now());
      if (left > 0) {
        await this.#call("wait", { settledMs: REDRAW_SETTLE_MS, mode: "any", includeText: false, timeoutMs: left }, signal).catch((error: unknown) => {
          if (asTuiwrightError(error).errorName !== "timeout") throw error; // still drawing at the deadline
        });
      }
      // Still showing the page's text once it settled? A later frame may have painted the page
      // without it (seen under load): then it has not redrawn yet, and the wait goes on.
      if (!hadText || this.#pageHasText(pixels)) return { redrawn: true, nudged };
      if (performance.now() >= deadline) return { redrawn: false, nudged };
    }
  }

  output(bytes: Uint8Array): void {
    if (this.#watches.size === 0) return;
    for (const watch of this.#watches) watch.feed(bytes);
    for (const came of [...this.#outputListeners]) came();
  }

  /** Resolves true at the program's next output while a resize watches it, false after `ms`. */
  #nextOutput(ms: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.reject(asTuiwrightError(signal.reason));
    return new Promise((resolve) => {
      const done = (outputCame: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", aborted);
        this.#outputListeners.delete(listener);
        resolve(outputCame);
      };
      const aborted = () => done(false);
      const listener = () => done(true);
      const timer = setTimeout(() => done(false), Math.ceil(ms));
      signal.addEventListener("abort", aborted);
      this.#outputListeners.add(listener);
    });
  }

  /** Whether the page area (below the bar) shows a glyph that is not a pixel. */
  #pageHasText(pixels: string): boolean {
    this.#core.screen.sync();
    return textWithoutPixels(this.#core.screen.lines().slice(1).join("\n"), pixels).trim() !== "";
  }

  /** Raw input for Carbonyl, encoded by the caller (lib/browser/carbonyl-input.ts). */
  async input(params: WorkerOps["browserInput"][0]): Promise<ActionReply> {
    this.#core.requireRunning(params.label);
    if (params.navigated !== undefined) this.#navigatedUrl = params.navigated;
    if (params.secret) this.#core.keepSecret(params.data);
    return this.#core.act(params.data, params.wait, undefined, { label: params.label, secret: params.secret });
  }

  /** Type the URL into the bar and load it. */
  navigate(params: WorkerOps["navigate"][0]): Promise<WorkerOps["navigate"][1]> {
    return navigate(this.#call, params.url, this.#core.screen.cols, { timeoutMs: params.timeoutMs, settleMs: params.settleMs });
  }

  /** Press back, forward or reload and wait for the page. */
  navButton(params: WorkerOps["navButton"][0]): Promise<WorkerOps["navButton"][1]> {
    return pressButton(this.#call, params.button, { timeoutMs: params.timeoutMs, settleMs: params.settleMs });
  }
}

/** The ops the browser facet answers; `facet` throws not-a-browser on other sessions. */
export function browserOps(facet: (what: string) => BrowserFacet) {
  return {
    browser: () => facet("the navigation bar's state").state(),
    browserInput: (params) => facet("raw browser input").input(params),
    navigate: (params) => facet("navigate").navigate(params),
    navButton: (params) => facet(params.button).navButton(params),
  } satisfies Partial<WorkerOpTable>;
}
