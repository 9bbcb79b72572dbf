// Input bytes the way Carbonyl 0.0.3 reads them (src/input/parser.rs, mouse.rs), for what only
// Carbonyl's own byte path reaches: its navigation bar on row 0. Keys, text and the page's mouse
// go through the engine instead (engine-keys.ts, browser-facet.ts). A byte ≥ 0x80 typed into its
// URL bar panics Carbonyl (it inserts bytes into a UTF-8 string at a byte index), so none is sent.
import { TuiwrightError } from "../protocol/errors.ts";

export type MouseAction = "down" | "up" | "move";

/** SGR mouse at a 0-based cell: press, release, or motion (with the left button held: a drag). */
export function carbonylMouse(action: MouseAction, row: number, col: number, held: boolean): string {
  const at = `${col + 1};${row + 1}`;
  if (action === "down") return `\x1b[<0;${at}M`;
  if (action === "up") return `\x1b[<0;${at}m`;
  return `\x1b[<${held ? 32 : 35};${at}M`;
}

/** Throws invalid-key if `data` has a character outside ASCII (Carbonyl would get its UTF-8
 * bytes one by one; in the URL bar that panics it). */
export function refuseNonAscii(data: string): void {
  const bad = /[^\x00-\x7f]/u.exec(data);
  if (bad) {
    throw new TuiwrightError("invalid-key", `Carbonyl reads one byte per key: ${JSON.stringify(bad[0])} (U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}) cannot be sent to its own input; keys and text for the page go through the engine (press, type)`);
  }
}
