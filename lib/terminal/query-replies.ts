// Terminal queries xterm's headless build does not answer by itself. DSR (CSI 6n) and DA1/DA2
// are answered by xterm through onData; colour queries (OSC 10/11/12) would leave vim, less or
// a shell theme detector waiting, so we answer them with a fixed dark palette.
import type xt from "@xterm/headless";

const COLOUR_REPLIES: Record<number, string> = {
  10: "rgb:e5e5/e5e5/e5e5", // default foreground
  11: "rgb:0000/0000/0000", // default background
  12: "rgb:e5e5/e5e5/e5e5", // cursor
};

export function answerColourQueries(term: xt.Terminal, reply: (data: string) => void): void {
  for (const [ident, colour] of Object.entries(COLOUR_REPLIES)) {
    term.parser.registerOscHandler(Number(ident), (data) => {
      if (data !== "?") return false;
      reply(`\x1b]${ident};${colour}\x1b\\`);
      return true;
    });
  }
}
