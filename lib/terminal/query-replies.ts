// Terminal queries xterm's headless build does not answer by itself. DSR (CSI 6n) and DA1/DA2
// are answered by xterm through onData; colour queries (OSC 10/11/12) would leave vim, less or
// a shell theme detector waiting, so we answer them with a fixed dark palette.
//
// A reply is input: it goes only to a program that reads it. A program that asks switches the
// terminal out of cooked-with-echo mode (raw, cbreak or `read -s`), else it could not read the
// reply without an Enter and the terminal would echo it. So a query met while the terminal is
// cooked with echo — `cat` of a file holding queries, `/usr/bin/printf '\e[6n'` — or while an
// integrated shell sits at its prompt (its line editor reads, but it asked nothing) is not
// answered: the reply would wait in the input queue and prefix the next command typed
// (`26Rcd scratch; rm -f *`), or turn into line-editor keys (a DECRQSS reply's ESC P). A program
// may ask a moment before it switches (`printf '\e[6n'; read -sdR`): a query met in cooked mode
// is held for REPLY_GRACE_MS while the same process group owns the terminal, answered if it
// switches, dropped if it does not or another takes the terminal. Replies keep their order.
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

/** How long a reply to a query met in cooked mode waits for its program to switch. */
export const REPLY_GRACE_MS = 100;
const LOOK_EVERY_MS = 2;

/** answer: a program reads replies now; drop: none will (the shell's prompt, a command that
 * has ended); cooked: the terminal is cooked with echo (the asking program may switch). */
export type ReplyVerdict = "answer" | "drop" | "cooked";

/** What the gate asks of the session: the verdict now, the process group that owns the
 * terminal (null: unknown), and the way to the program. */
export type ReplyGateIo = { verdict(): ReplyVerdict; owner(): number | null; send(data: string): void };

/** Passes query replies to the program only while it reads them (the rule above). */
export class ReplyGate {
  readonly #io: ReplyGateIo;
  readonly #held: string[] = [];
  #owner: number | null = null;
  #until = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(io: ReplyGateIo) {
    this.#io = io;
  }

  /** A reply is held, waiting for its program to switch out of cooked mode. */
  get holding(): boolean {
    return this.#held.length > 0;
  }

  /** A reply xterm made for a query it just parsed. */
  offer(data: string): void {
    if (this.#held.length > 0) {
      this.#held.push(data); // behind the one waiting: replies keep their order
      return;
    }
    const verdict = this.#io.verdict();
    if (verdict === "answer") this.#io.send(data);
    if (verdict !== "cooked") return;
    this.#held.push(data);
    this.#owner = this.#io.owner();
    this.#until = performance.now() + REPLY_GRACE_MS;
    this.#timer = setTimeout(() => this.#look(), LOOK_EVERY_MS);
  }

  #look(): void {
    this.#timer = null;
    const verdict = this.#io.owner() === this.#owner ? this.#io.verdict() : "drop";
    if (verdict === "cooked" && performance.now() < this.#until) {
      this.#timer = setTimeout(() => this.#look(), LOOK_EVERY_MS);
      return;
    }
    const held = this.#held.splice(0);
    if (verdict === "answer") for (const data of held) this.#io.send(data);
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#held.length = 0;
  }
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
