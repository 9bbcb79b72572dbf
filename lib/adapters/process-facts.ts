// Facts about the session's processes that no screen shows, for manifest regions' `when`.
// A live session knows them; a replay does not (null), and a region that needs one is absent.
export type ProcessFacts = {
  /** The shell itself owns the terminal and waits for a command: OSC 133 state in an
   * integrated shell, else the PTY's foreground process group is the shell's own. */
  shellForeground: boolean | null;
};

export const NO_FACTS: ProcessFacts = { shellForeground: null };
