// What the browser engine knows about the page Carbonyl shows, over the DevTools protocol: the
// page target (attached in flat mode), its main frame's URL and document, the lifecycle of that
// document, history, dialogs, a crashed renderer, and the engine going away. Facts come from
// events and calls, never from the drawn URL bar. Waits on it are event-driven: a predicate is
// checked on every event the engine sends, until it holds, the deadline passes, or the engine
// goes away.
import { TuiwrightError } from "../protocol/errors.ts";
import { CdpError, type CdpConnection, type CdpEvent } from "./cdp-connection.ts";

/** Navigation history as the engine keeps it. */
export type History = { currentIndex: number; entries: { id: number; url: string; title: string }[] };

/** A document the main frame committed: its loader, and the lifecycle events it reached. */
export type PageDocument = { loaderId: string; url: string; lifecycle: Set<string>; commit: number };

export type Dialog = { type: string; message: string; url: string };

/** Calls the engine answers while a JavaScript dialog holds the page: the browser process's own
 * (history, the dialog itself). Any other page call waits for the renderer, which the dialog
 * blocks until it is answered. */
const ANSWERED_UNDER_DIALOG = new Set(["Page.getNavigationHistory", "Page.handleJavaScriptDialog"]);
/** Calls the engine answers for a page whose renderer crashed: history, and the loads that start
 * a new renderer (seen: a reload answers in ~200 ms; a layout call waits for ever). */
const ANSWERED_WHEN_CRASHED = new Set(["Page.getNavigationHistory", "Page.reload", "Page.navigate", "Page.navigateToHistoryEntry"]);

/** How long the engine gets to show its page target after it first answers. */
const TARGET_WAIT_MS = 20_000;

export class BrowserEngine {
  readonly #cdp: CdpConnection;
  #sessionId: string | null = null;
  #targetId: string | null = null;
  #mainFrameId: string | null = null;
  #document: PageDocument | null = null;
  /** Main-frame commits so far: new documents and same-document navigations alike. */
  #commits = 0;
  #url = "";
  #crashed: string | null = null;
  /** When the renderer crashed (performance.now()), for how long a recovery took. */
  #crashedAt = 0;
  /** A renderer restart of our own is under way: its crash is ours, not the page's. */
  #restartingRenderer = false;
  #gone: string | null = null;
  #dialog: Dialog | null = null;
  /** Navigations the main frame began (requested, scheduled or started loading). */
  #navigationsBegun = 0;
  /** The main frame is loading (started, not yet stopped), and how often it stopped. */
  #loading = false;
  #loadingStops = 0;
  /** Events so far: a wait that must see one "after" its action compares this. */
  #events = 0;
  readonly #waiters = new Set<() => void>();
  readonly #listeners = new Set<(event: CdpEvent) => void>();
  /** Resolves once the page target is attached and its domains are on; rejects if it never is. */
  readonly ready: Promise<void>;

  constructor(cdp: CdpConnection, readyTimeoutMs = TARGET_WAIT_MS) {
    this.#cdp = cdp;
    cdp.onEvent((event) => this.#event(event));
    cdp.onClose((reason) => {
      this.#gone = `the browser engine went away (${reason})`;
      this.#notify();
    });
    this.ready = this.#attach(readyTimeoutMs);
    this.ready.catch(() => undefined); // observed by every call
  }

  /** Why the engine cannot be used any more, or null. */
  get gone(): string | null {
    return this.#gone;
  }

  /** The renderer of the page crashed (a navigation or reload starts a new one); not while
   * restartRenderer() ends it on purpose. */
  get crashed(): string | null {
    return this.#restartingRenderer ? null : this.#crashed;
  }

  get crashedAt(): number {
    return this.#crashedAt;
  }

  get dialog(): Dialog | null {
    return this.#dialog;
  }

  get document(): PageDocument | null {
    return this.#document;
  }

  /** The page has loaded, for a wait's purpose: its load event, or its DOM parsed and the network
   * (nearly) idle — a slow image must not hold a page back for ever. */
  get loaded(): boolean {
    const lifecycle = this.#document?.lifecycle;
    if (!lifecycle) return false;
    return lifecycle.has("load") || (lifecycle.has("DOMContentLoaded") && lifecycle.has("networkAlmostIdle"));
  }

  get navigationsBegun(): number {
    return this.#navigationsBegun;
  }

  /** The main frame started loading and has not stopped. */
  get loading(): boolean {
    return this.#loading;
  }

  get loadingStops(): number {
    return this.#loadingStops;
  }

  get commits(): number {
    return this.#commits;
  }

  get url(): string {
    return this.#url;
  }

  get eventCount(): number {
    return this.#events;
  }

  /** Every event of the page's session (and the browser's), in arrival order. */
  onEvent(listener: (event: CdpEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A call on the page's session, once attached. A call the renderer must answer fails at once
   * while a JavaScript dialog is open (CdpError "dialog") or the renderer crashed ("crashed"),
   * and when either happens before it answered (the input that opened a dialog, say): the
   * renderer answers nothing until the dialog is, and a crashed one never. */
  async call<T = any>(method: string, params: Record<string, unknown> = {}, timeoutMs?: number): Promise<T> {
    await this.ready;
    if (this.#gone !== null) throw new CdpError("closed", method, this.#gone);
    const held = () => this.#held(method);
    const now = held();
    if (now !== null) throw now;
    const answer = this.#cdp.call<T>(method, params, { sessionId: this.#sessionId!, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    answer.catch(() => undefined); // a held call is answered late, or never
    let check: (() => void) | undefined;
    const heldBack = new Promise<never>((_, reject) => {
      check = () => { const error = held(); if (error !== null) reject(error); };
      this.#waiters.add(check);
    });
    heldBack.catch(() => undefined);
    try {
      return await Promise.race([answer, heldBack]);
    } finally {
      this.#waiters.delete(check!);
    }
  }

  /** Why the renderer will not answer `method` now, or null. */
  #held(method: string): CdpError | null {
    if (this.#crashed !== null && !ANSWERED_WHEN_CRASHED.has(method)) return new CdpError("crashed", method, this.#crashed);
    const dialog = this.#dialog;
    if (dialog !== null && !ANSWERED_UNDER_DIALOG.has(method)) {
      return new CdpError("dialog", method, `the page shows a JavaScript ${dialog.type} (${JSON.stringify(dialog.message)}), which holds it until the dialog is answered`);
    }
    return null;
  }

  /** Answers the open dialog (accept: OK, else Cancel; a prompt's text) and resolves once the
   * engine says it closed. */
  async answerDialog(accept: boolean, promptText: string | undefined, deadline: number): Promise<void> {
    await this.call("Page.handleJavaScriptDialog", { accept, ...(promptText === undefined ? {} : { promptText }) });
    await this.until(() => (this.#dialog === null ? true : undefined), deadline, "the dialog to close");
  }

  /** A call on the browser itself (no target). */
  browserCall<T = any>(method: string, params: Record<string, unknown> = {}, timeoutMs?: number): Promise<T> {
    return this.#cdp.call<T>(method, params, timeoutMs === undefined ? {} : { timeoutMs });
  }

  /**
   * Ends the page's renderer on purpose (Page.crash) and reloads the current history entry in a
   * new one: history stays exactly as it was (no entry added, none moved). For Carbonyl's screen
   * stall after a cross-process navigation: its patch hooks each renderer to the terminal once, as
   * it starts, and that races — a renderer it missed never draws, while the engine has the page.
   * The crash is not reported (crashed stays null) unless the reload fails to replace it.
   */
  async restartRenderer(deadline: number, signal?: AbortSignal): Promise<void> {
    this.#restartingRenderer = true;
    try {
      const commits = this.#commits;
      // The renderer dies before it answers: the call ends as "crashed", which is what we asked.
      await this.call("Page.crash", {}, Math.max(1, deadline - performance.now())).catch((error: unknown) => {
        if (!(error instanceof CdpError && error.kind === "crashed")) throw error;
      });
      await this.until(() => (this.#crashed !== null ? true : undefined), deadline, "the page's renderer to end", signal);
      await this.call("Page.reload", {});
      await this.until(() => (this.#commits > commits && this.#crashed === null && this.loaded ? true : undefined), deadline, "the page to load again in a new renderer", signal);
    } finally {
      this.#restartingRenderer = false;
    }
  }

  async history(): Promise<History> {
    return this.call<History>("Page.getNavigationHistory");
  }

  /**
   * Resolves with `check`'s first defined answer, checked now and after every engine event;
   * rejects with timeout at the deadline (performance.now() time) or when the engine goes away.
   */
  until<T>(check: () => T | undefined, deadline: number, what: string, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (settle: () => void) => {
        this.#waiters.delete(test);
        clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
        settle();
      };
      const aborted = () => finish(() => reject(new TuiwrightError("timeout", `${what}: the caller went away`)));
      const test = () => {
        let answer: T | undefined;
        try {
          answer = check();
        } catch (error) {
          return finish(() => reject(error));
        }
        if (answer !== undefined) return finish(() => resolve(answer));
        if (this.#gone !== null) finish(() => reject(new CdpError("closed", what, this.#gone!)));
      };
      this.#waiters.add(test);
      signal?.addEventListener("abort", aborted);
      timer = setTimeout(() => finish(() => reject(new TuiwrightError("timeout", `${what} did not happen in time`))), Math.max(0, deadline - performance.now()));
      test();
    });
  }

  async #attach(timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    await this.#cdp.call("Target.setDiscoverTargets", { discover: true }, { timeoutMs });
    const { targetInfos } = await this.#cdp.call<{ targetInfos: { targetId: string; type: string }[] }>("Target.getTargets");
    this.#targetId = targetInfos.find((target) => target.type === "page")?.targetId ?? null;
    if (this.#targetId === null) {
      // The page target comes a moment after the browser (Target.targetCreated).
      await this.until(() => this.#targetId ?? undefined, deadline, "the browser's page target to appear");
    }
    const { sessionId } = await this.#cdp.call<{ sessionId: string }>("Target.attachToTarget", { targetId: this.#targetId, flatten: true });
    this.#sessionId = sessionId;
    const on = (method: string, params: Record<string, unknown> = {}) => this.#cdp.call(method, params, { sessionId });
    await Promise.all([on("Page.enable"), on("Page.setLifecycleEventsEnabled", { enabled: true }), on("Inspector.enable")]);
    const { frameTree } = await on("Page.getFrameTree") as { frameTree: { frame: { id: string; loaderId: string; url: string; urlFragment?: string } } };
    const frame = frameTree.frame;
    this.#mainFrameId = frame.id;
    if (this.#document === null) {
      // Committed before we attached: its lifecycle so far is what the document says of itself.
      this.#url = frame.url + (frame.urlFragment ?? "");
      this.#document = { loaderId: frame.loaderId, url: this.#url, lifecycle: new Set(), commit: ++this.#commits };
      const committed = this.#document;
      const state = await on("Runtime.evaluate", { expression: "document.readyState", returnByValue: true }).catch(() => null) as { result?: { value?: unknown } } | null;
      if (state?.result?.value === "complete") for (const name of ["DOMContentLoaded", "load"]) committed.lifecycle.add(name);
      else if (state?.result?.value === "interactive") committed.lifecycle.add("DOMContentLoaded");
    }
    this.#notify();
  }

  #event(event: CdpEvent): void {
    this.#events++;
    const { method, params } = event;
    if (event.sessionId === undefined) this.#browserEvent(method, params);
    else if (event.sessionId === this.#sessionId) this.#pageEvent(method, params);
    for (const listener of [...this.#listeners]) listener(event);
    this.#notify();
  }

  #browserEvent(method: string, params: Record<string, any>): void {
    const info = params.targetInfo as { targetId?: string; type?: string } | undefined;
    if (method === "Target.targetCreated" && this.#targetId === null && info?.type === "page") this.#targetId = info.targetId ?? null;
    else if (method === "Target.targetCrashed" && params.targetId === this.#targetId) this.#crash(`the page's renderer crashed (${params.status ?? "crashed"}, code ${params.errorCode ?? "?"})`);
    else if ((method === "Target.targetDestroyed" && params.targetId === this.#targetId) || (method === "Target.detachedFromTarget" && params.sessionId === this.#sessionId && this.#sessionId !== null)) {
      this.#gone = "the browser's page was closed";
    }
  }

  #pageEvent(method: string, params: Record<string, any>): void {
    switch (method) {
      case "Page.frameNavigated": {
        const frame = params.frame as { id: string; parentId?: string; loaderId: string; url: string; urlFragment?: string };
        if (frame.parentId !== undefined) return;
        this.#mainFrameId = frame.id;
        this.#url = frame.url + (frame.urlFragment ?? "");
        // A new document: its own lifecycle, and a renderer that is not the crashed one.
        const lifecycle = this.#document?.loaderId === frame.loaderId ? this.#document.lifecycle : new Set<string>();
        this.#document = { loaderId: frame.loaderId, url: this.#url, lifecycle, commit: ++this.#commits };
        this.#crashed = null;
        this.#dialog = null;
        return;
      }
      case "Page.navigatedWithinDocument":
        if (params.frameId !== this.#mainFrameId) return;
        this.#url = String(params.url);
        if (this.#document) this.#document = { ...this.#document, url: this.#url, commit: ++this.#commits };
        return;
      case "Page.frameRequestedNavigation":
      case "Page.frameScheduledNavigation":
        if (params.frameId === this.#mainFrameId) this.#navigationsBegun++;
        return;
      case "Page.frameStartedLoading":
        if (params.frameId !== this.#mainFrameId) return;
        this.#navigationsBegun++;
        this.#loading = true;
        return;
      case "Page.frameStoppedLoading":
        if (params.frameId !== this.#mainFrameId) return;
        this.#loading = false;
        this.#loadingStops++;
        return;
      case "Page.lifecycleEvent":
        if (params.frameId !== this.#mainFrameId) return;
        // init opens a new loader's lifecycle, before the commit names it as the document.
        if (this.#document !== null && this.#document.loaderId === params.loaderId) this.#document.lifecycle.add(String(params.name));
        return;
      case "Inspector.targetCrashed":
        this.#crash(this.#crashed ?? "the page's renderer crashed");
        return;
      case "Page.javascriptDialogOpening":
        this.#dialog = { type: String(params.type), message: String(params.message ?? ""), url: String(params.url ?? "") };
        return;
      case "Page.javascriptDialogClosed":
        this.#dialog = null;
        return;
    }
  }

  /** The renderer is gone, and a dialog it showed with it. */
  #crash(why: string): void {
    if (this.#crashed === null) this.#crashedAt = performance.now();
    this.#crashed = why;
    this.#dialog = null;
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
