// Flags for the Chromium inside Carbonyl (passed through by Carbonyl's command line), kept apart
// from how Carbonyl is found (find-carbonyl.ts).
//
// --remote-debugging-pipe: the DevTools protocol on the child's fds 3 (it reads) and 4 (it
// writes), private to this process — never --remote-debugging-port, which any local user could
// reach. The session's facts (URL, title, history, load state, the accessibility tree) and its
// input come through it (lib/worker/browser-facet.ts).
//
// Without smooth scrolling: a wheel step moves the page at once, so a scroll's answer (the engine's
// new offset, then the screen) is not a frame of an animation.
//
// Without the back/forward cache: with it, after back/forward (and a reload) Carbonyl now and
// then stops receiving the page's frames — the URL bar moves on while the old page (or its
// pixels without text) stays on screen. Measured with the same loop (/, form, back, forward,
// reload, about:blank, a file: page, an animated page): 2–3 stalls in 10–12 rounds with the
// cache, 0 in 12 without. A history step then loads the page again.
export const CHROMIUM_FLAGS = ["--remote-debugging-pipe", "--disable-smooth-scrolling", "--disable-features=BackForwardCache"];

/** Carbonyl's argv with our Chromium flags before the URL (its last word). */
export function withChromiumFlags(argv: string[]): string[] {
  return [...argv.slice(0, -1), ...CHROMIUM_FLAGS, ...argv.slice(-1)];
}
