// The help entry of `tuiwright gc` (plain data, so `help` does not load the command).
import type { FlagSpec } from "./flags.ts";

export const GC_HELP = {
  name: "gc",
  summary: "delete old recordings, shell transcripts and rc directories of this namespace (the retention policy; the daemon applies it at start)",
  usage: "gc [--keep N] [--keep-days D] [--dry-run]",
  flags: [
    { name: "--keep", type: "int", value: "N", description: "keep the newest N of each kind (0: no limit; default: config, $TUIWRIGHT_KEEP or 1000)" },
    { name: "--keep-days", type: "int", value: "D", description: "delete what is older than D days (0: no limit; default: config, $TUIWRIGHT_KEEP_DAYS or 30)" },
    { name: "--dry-run", type: "bool", description: "list what would be deleted; delete nothing" },
  ] as FlagSpec[],
};
