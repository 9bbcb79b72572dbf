// The process facts an outline rests on, recorded into the cast so a replay states what the
// live session stated, with the same evidence (DESIGN.md "Facts and evidence"). asciicast v3
// has no event code of its own for them (o, i, r, m, x only), so they are marker events whose
// label starts with FACTS_PREFIX and goes on with a JSON object:
//
//   [0.004, "m", "tuiwright:facts {\"shellPrompt\":true,\"foreground\":null}"]
//
//   shellPrompt  true: an integrated shell drew its primary prompt (OSC 133;B) and started no
//                command since; false: it did not (a command runs, or it is between prompts);
//                null: no integrated shell (no such fact).
//   foreground   the argv of the terminal's foreground process group leader when that is not
//                the session's own program (vim started from a shell), else null.
//
// One is written when the facts change (a prompt mark, or a new foreground program seen when an
// outline is taken or a marker is written), after the output that changed them, so a replay has
// at every point the facts the live session had there. They are markers only to the format:
// tuiwright's replay, report and marker numbering (`--at-marker N`) skip them, and asciinema's
// player, which shows every marker on its timeline, is given the other markers only (report.ts).
// A program cannot forge them: markers come from the recorder, never from the program's output.
import { TuiwrightError } from "../protocol/errors.ts";

export const FACTS_PREFIX = "tuiwright:facts ";

export type RecordedFacts = { shellPrompt: boolean | null; foreground: string[] | null };

export const isFactsMarker = (label: string) => label.startsWith(FACTS_PREFIX);

export function factsLabel(facts: RecordedFacts): string {
  return `${FACTS_PREFIX}${JSON.stringify({ shellPrompt: facts.shellPrompt, foreground: facts.foreground })}`;
}

export const sameFacts = (a: RecordedFacts | null, b: RecordedFacts) =>
  a !== null && a.shellPrompt === b.shellPrompt && JSON.stringify(a.foreground) === JSON.stringify(b.foreground);

/** The facts a marker label records; a malformed one is a bad-cast error naming the line. */
export function parseFactsLabel(label: string, file: string, line: number): RecordedFacts {
  let value: unknown;
  try {
    value = JSON.parse(label.slice(FACTS_PREFIX.length));
  } catch {
    value = null;
  }
  const facts = value as Partial<RecordedFacts> | null;
  const okPrompt = facts !== null && typeof facts === "object" && (facts.shellPrompt === null || typeof facts.shellPrompt === "boolean");
  const okForeground = okPrompt && (facts!.foreground === null || (Array.isArray(facts!.foreground) && facts!.foreground.every((arg) => typeof arg === "string")));
  if (!okForeground) {
    throw new TuiwrightError("bad-cast", `${file}:${line}: a "${FACTS_PREFIX.trim()}" marker needs {"shellPrompt": true|false|null, "foreground": [argv…]|null}`, { details: { file, line } });
  }
  return { shellPrompt: facts!.shellPrompt!, foreground: facts!.foreground! };
}
