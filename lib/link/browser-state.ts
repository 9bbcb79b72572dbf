// What a browser session's engine says about its page, as the worker reports it to the daemon,
// and the page title in the shape the AWI-TTY replies carry it.

export type BrowserState = {
  /** The page's URL (the engine's current history entry). */
  url: string;
  /** The page's title, or null with the reason (a page without one). */
  title: string | null;
  titleReason?: string;
  canGoBack: boolean;
  canGoForward: boolean;
  /** The screen revision when this was read. */
  revision: number;
  /** The main frame has not reached its load (or network-idle) yet. */
  loading: boolean;
  /** The page's renderer crashed (a reload or navigation starts a new one), or null. */
  crashed: string | null;
  /** A JavaScript dialog the page opened and nobody answered yet, or null. */
  dialog: { type: string; message: string } | null;
};

/** The page's title, or null with the reason it is not known; `engine` says where it came from. */
export function titleOf(state: BrowserState): { title: string | null; title_source?: "engine"; title_reason?: string } {
  return state.title === null ? { title: null, title_reason: state.titleReason ?? "the page has no title" } : { title: state.title, title_source: "engine" };
}

/** Back and forward under the AWI-TTY names. */
export function navFlags(state: Pick<BrowserState, "canGoBack" | "canGoForward">): { can_go_back: boolean; can_go_forward: boolean } {
  return { can_go_back: state.canGoBack, can_go_forward: state.canGoForward };
}
