// The help entry of `tuiwright ask` (plain data, so `help` and every other verb do not load the
// command itself).
import type { FlagSpec } from "./flags.ts";

/** The AI coding CLIs `ask` can use, in the order it looks for them on PATH. */
export const ASK_VIAS = ["claude", "codex", "pi", "opencode", "gemini"] as const;

export const ASK_HELP = {
  name: "ask",
  summary: "one answer from an AI coding CLI's non-interactive mode (claude -p, codex exec, pi -p, opencode run, gemini -p), as `run` does it",
  usage: "ask [--via claude|codex|pi|opencode|gemini] [--timeout MS] PROMPT [-- CLI-ARGS...]",
  flags: [
    { name: "--via", type: "string", value: "CLI", description: "which CLI answers (default: the first of claude, codex, pi, opencode, gemini on PATH)", choices: [...ASK_VIAS] },
    { name: "--timeout", type: "int", value: "MS", description: "kill the CLI after MS (exit 124)" },
  ] satisfies FlagSpec[],
};
