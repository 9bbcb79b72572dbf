// What a browser session's navigation bar shows, as the worker reports it to the daemon, and the
// page title in the shape the AWI-TTY replies carry it.

export type BrowserState = {
  url: string; title: string; canGoBack: boolean; canGoForward: boolean; revision: number; pageBlank: boolean;
  /** The URL bar has the keyboard (its cursor shows): keys edit the bar, not the page. */
  barFocused: boolean;
  /** How many times Carbonyl has announced a title so far. */
  titlesSet: number;
  /** The screen revision at the last title announcement (a later revision: the page drew after it). */
  titleRevision: number;
  /** The title of the page shown now, and how it is known (null with a reason when it is not). */
  pageTitle: { title: string; source: "announced" | "remembered" } | { title: null; reason: string };
};

/** The page's title, or null with the reason it is not known. */
export function titleOf(state: BrowserState): { title: string | null; title_source?: "announced" | "remembered"; title_reason?: string } {
  const known = state.pageTitle;
  return known.title === null ? { title: null, title_reason: known.reason } : { title: known.title, title_source: known.source };
}
