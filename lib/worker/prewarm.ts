// A spare worker's warm-up (spare-worker.ts): the first Screen a fresh JS engine builds costs
// several times what the next one does (xterm's code runs for the first time), so a spare
// builds and drops a small one while it waits, off the next spawn's path.
import { Screen } from "../terminal/screen.ts";
import { LIVE_WIDTHS } from "../terminal/widths.ts";

export async function prewarm(): Promise<void> {
  const screen = new Screen({ cols: 20, rows: 5, scrollback: 10, widths: LIVE_WIDTHS, reply: () => {} });
  await screen.write(new TextEncoder().encode("\x1b[1mwarm\x1b[0m\r\n"));
  screen.sync();
  screen.dispose();
}
