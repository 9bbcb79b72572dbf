// Terminal memory is cells: cols × (rows + scrollback), ~12.6 bytes each in xterm (measured in
// issue 13: 1000 cols × 50k lines of history reached 630 MB). A session may hold at most
// SESSION_CELL_LIMIT and all sessions together DAEMON_CELL_BUDGET; a spawn or resize past
// either is refused before anything is allocated, saying what it would need.
import { TuiwrightError } from "../protocol/errors.ts";

/** ~200 MB: 1000 columns with 16k lines of history, or 120 columns with 133k. */
export const SESSION_CELL_LIMIT = 16_000_000;
/** ~800 MB for every session of one daemon together. */
export const DAEMON_CELL_BUDGET = 64_000_000;

export type SizedSession = { name: string; cols: number; rows: number; scrollback: number };

export const cellsOf = (s: { cols: number; rows: number; scrollback: number }) => s.cols * (s.rows + s.scrollback);

const grouped = (n: number) => n.toLocaleString("en-US");

/** Throws if `wanted` does not fit; `others` are the daemon's other sessions. */
export function checkMemoryBudget(wanted: SizedSession, others: SizedSession[], what: string): void {
  const cells = cellsOf(wanted);
  if (cells > SESSION_CELL_LIMIT) {
    throw new TuiwrightError("usage", `${what} needs ${grouped(cells)} cells of terminal memory (${wanted.cols} cols × (${wanted.rows} rows + ${wanted.scrollback} scrollback)); a session may have at most ${grouped(SESSION_CELL_LIMIT)}`, {
      hint: "lower --scrollback or --cols",
    });
  }
  const used = others.reduce((sum, s) => sum + cellsOf(s), 0);
  if (used + cells > DAEMON_CELL_BUDGET) {
    throw new TuiwrightError("busy", `${what} needs ${grouped(cells)} cells of terminal memory, but the daemon's sessions already hold ${grouped(used)} of its ${grouped(DAEMON_CELL_BUDGET)}`, {
      hint: "kill sessions you no longer need (`tuiwright list`), or lower --scrollback",
    });
  }
}
