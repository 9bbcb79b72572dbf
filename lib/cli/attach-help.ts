// The help entry of `tuiwright attach` (plain data, so `help` and every other verb do not load
// the command itself).
import type { FlagSpec } from "./flags.ts";

export const ATTACH_HELP = {
  name: "attach",
  summary: "watch a session live in this terminal (read-only; --write takes the write lease and forwards your keys); Ctrl-] detaches",
  usage: "attach [--session NAME] [--write]",
  flags: [
    { name: "--write", type: "bool", description: "take the session's write lease and send what you type to it (others are refused until you detach)" },
  ] satisfies FlagSpec[],
};
