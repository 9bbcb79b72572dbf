// Facts about the session's processes that no screen shows, for manifest regions' `when`.
// Each fact carries its evidence, which the nodes it produces cite; a fact without evidence is
// null, and a region that needs it is absent. A replay knows the facts the cast recorded.
import type { Evidence } from "../outline/types.ts";

export type ProcessFacts = {
  /** The shell itself waits for a command. Only an integrated shell can say so (OSC 133: its
   * primary prompt is drawn and no command started since); without integration there is no
   * sound sign — the foreground group is the shell while it runs `read` or `select` too, and
   * its line editor reads for `read -e`, zsh's `select` and fish's `read` as for a command — so
   * the fact is null (unknown), never a guess. */
  shellForeground: boolean | null;
  /** What shellForeground rests on (when true): copied onto the nodes its regions produce. */
  shellForegroundEvidence?: Evidence[];
  /** Values a durable ref (e.g. "@vim.mode") has shown earlier in this session: evidence that
   * outlives the screen (vim showed "-- INSERT --" once, so 'showmode' is on). */
  seenValues?: (ref: string) => ReadonlySet<string>;
  /** This session sent a chat program a prompt (a turn, lib/adapters/turns.ts): regions that
   * only a turn explains (an answer scrolled past the top of the screen) may apply. */
  turn?: boolean;
};

export const NO_FACTS: ProcessFacts = { shellForeground: null };

/** The evidence for an integrated shell at its prompt, seen at `revision`. */
export const promptMarkEvidence = (revision: number): Evidence[] => [{ source: "escape", sequence: "OSC 133;B", revision }];

/** The process facts a cast recorded (lib/record/fact-marker.ts `shellPrompt`), as the outline
 * takes them at `revision`: what a live session stated there, with the same evidence. */
export function recordedProcessFacts(shellPrompt: boolean | null | undefined, revision: number): ProcessFacts {
  const atPrompt = shellPrompt ?? null;
  return atPrompt ? { shellForeground: true, shellForegroundEvidence: promptMarkEvidence(revision) } : { shellForeground: atPrompt };
}
