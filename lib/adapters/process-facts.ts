// Facts about the session's processes that no screen shows, for manifest regions' `when`.
// A live session knows them; a replay does not (null), and a region that needs one is absent.
export type ProcessFacts = {
  /** The shell itself owns the terminal and waits for a command: OSC 133 state in an
   * integrated shell, else the PTY's foreground process group is the shell's own. */
  shellForeground: boolean | null;
  /** Values a durable ref (e.g. "@vim.mode") has shown earlier in this session: evidence that
   * outlives the screen (vim showed "-- INSERT --" once, so 'showmode' is on). */
  seenValues?: (ref: string) => ReadonlySet<string>;
};

export const NO_FACTS: ProcessFacts = { shellForeground: null };
