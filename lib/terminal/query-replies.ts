// Terminal queries xterm's headless build does not answer by itself. DSR (CSI 6n) and DA1/DA2
// are answered by xterm through onData; colour queries (OSC 10/11/12) would leave vim, less or
// a shell theme detector waiting, so we answer them with a fixed dark palette.
import type xt from "@xterm/headless";

const COLOUR_REPLIES: Record<number, string> = {
  10: "rgb:e5e5/e5e5/e5e5", // default foreground
  11: "rgb:0000/0000/0000", // default background
  12: "rgb:e5e5/e5e5/e5e5", // cursor
};

/** The xterm 256-colour palette entry N as rgb:rrrr/gggg/bbbb (what OSC 4 queries ask). */
function paletteColour(n: number): string {
  const base = [[0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0], [0, 0, 238], [205, 0, 205], [0, 205, 205], [229, 229, 229],
    [127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0], [92, 92, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255]];
  let rgb: number[];
  if (n < 16) rgb = base[n]!;
  else if (n < 232) {
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    const i = n - 16;
    rgb = [level(Math.floor(i / 36)), level(Math.floor(i / 6) % 6), level(i % 6)];
  } else rgb = Array(3).fill(8 + (n - 232) * 10);
  const hex = (v: number) => v.toString(16).padStart(2, "0").repeat(2);
  return `rgb:${hex(rgb[0]!)}/${hex(rgb[1]!)}/${hex(rgb[2]!)}`;
}

export function answerColourQueries(term: xt.Terminal, reply: (data: string) => void): void {
  // OSC 4 ; N ; ? [; N ; ? …]: palette queries (opencode's TUI waits for them before drawing).
  term.parser.registerOscHandler(4, (data) => {
    const parts = data.split(";");
    if (parts.length % 2 !== 0 || !parts.every((p, i) => (i % 2 === 0 ? /^\d{1,3}$/.test(p) && Number(p) < 256 : p === "?"))) return false;
    for (let i = 0; i < parts.length; i += 2) reply(`\x1b]4;${parts[i]};${paletteColour(Number(parts[i]))}\x1b\\`);
    return true;
  });
  for (const [ident, colour] of Object.entries(COLOUR_REPLIES)) {
    term.parser.registerOscHandler(Number(ident), (data) => {
      if (data !== "?") return false;
      reply(`\x1b]${ident};${colour}\x1b\\`);
      return true;
    });
  }
}
