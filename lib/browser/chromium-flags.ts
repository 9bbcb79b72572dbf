// Flags for the Chromium inside Carbonyl (passed through by Carbonyl's command line), kept apart
// from how Carbonyl is found (find-carbonyl.ts).
//
// Without the back/forward cache: with it, after back/forward (and a reload) Carbonyl now and
// then stops receiving the page's frames — the URL bar moves on while the old page (or its
// pixels without text) stays on screen. Measured with the same loop (/, form, back, forward,
// reload, about:blank, a file: page, an animated page): 2–3 stalls in 10–12 rounds with the
// cache, 0 in 12 without. A history step then loads the page again.
export const CHROMIUM_FLAGS = ["--disable-features=BackForwardCache"];

/** Carbonyl's argv with our Chromium flags before the URL (its last word). */
export function withChromiumFlags(argv: string[]): string[] {
  return [...argv.slice(0, -1), ...CHROMIUM_FLAGS, ...argv.slice(-1)];
}
