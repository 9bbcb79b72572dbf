// `tuiwright ask [--via CLI] [--timeout MS] PROMPT [-- CLI-ARGS]`: one answer from an AI coding
// CLI's non-interactive mode, over the same data path as `run` (real pipes, no PTY, no
// daemon). Prints the answer; --json gives {via, text, exitCode, elapsedMs, stderr}. The CLI
// comes from PATH: --via, else the first of claude, codex, pi, opencode, gemini found there.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TuiwrightError } from "../protocol/errors.ts";
import { runProcess } from "../runtime/run-process.ts";
import { printOut, writeRaw } from "../runtime/stdio.ts";
import { ASK_HELP, ASK_VIAS } from "./command-help.ts";
import { parseFlags } from "./flags.ts";
import { type Globals, usage } from "./invocation.ts";
import { inertJson } from "../present/inert-text.ts";

/** Each CLI's one-shot mode: the argv that prints one answer on stdout. */
const VIAS = {
  claude: { npm: "@anthropic-ai/claude-code", argv: (extra: string[], prompt: string) => ["claude", ...extra, "-p", prompt] },
  codex: { npm: "@openai/codex", argv: (extra: string[], prompt: string) => ["codex", "exec", "--skip-git-repo-check", "--color", "never", ...extra, prompt] },
  pi: { npm: "@mariozechner/pi-coding-agent", argv: (extra: string[], prompt: string) => ["pi", ...extra, "-p", prompt] },
  opencode: { npm: "opencode-ai", argv: (extra: string[], prompt: string) => ["opencode", "run", ...extra, prompt] },
  gemini: { npm: "@google/gemini-cli", argv: (extra: string[], prompt: string) => ["gemini", ...extra, "-p", prompt] },
} as const satisfies Record<(typeof ASK_VIAS)[number], unknown>;
type Via = keyof typeof VIAS;
const NAMES: readonly Via[] = ASK_VIAS;

function onPath(program: string, path: string): boolean {
  return path.split(":").some((dir) => dir !== "" && existsSync(join(dir, program)));
}

/** The CLI to use: the one named, which must be on PATH, or the first one that is. */
export function chooseVia(named: string | undefined, path: string): Via {
  if (named !== undefined) {
    const via = named as Via;
    if (!onPath(via, path)) {
      throw new TuiwrightError("no-such-program", `${via} is not on PATH`, { hint: `install it: npm install -g ${VIAS[via].npm} (then configure its model endpoint and key)` });
    }
    return via;
  }
  const found = NAMES.find((name) => onPath(name, path));
  if (!found) {
    throw new TuiwrightError("no-such-program", `no AI coding CLI on PATH (looked for ${NAMES.join(", ")})`, {
      hint: `install one, e.g. npm install -g ${VIAS.claude.npm} (or ${NAMES.slice(1).map((n) => VIAS[n].npm).join(", ")}), configure its model endpoint and key, then use --via NAME`,
    });
  }
  return found;
}

export async function runAsk(args: string[], globals: Globals): Promise<number> {
  const parsed = parseFlags(args, ASK_HELP.flags, "ask");
  if (parsed.positionals.length === 0) throw usage("ask needs a prompt: `tuiwright ask 'what does this regex match?'`", "ask help: `tuiwright help ask`");
  if (parsed.positionals.length > 1) throw usage(`ask takes one prompt (quote it); got ${parsed.positionals.length} words: ${JSON.stringify(parsed.positionals.join(" "))}`);
  const prompt = parsed.positionals[0]!;
  if (prompt.trim() === "") throw usage("ask needs a non-empty prompt");
  const env = process.env as Record<string, string>;
  const via = chooseVia(parsed.flags.get("--via") as string | undefined, env.PATH ?? "");
  const result = await runProcess(VIAS[via].argv(parsed.rest ?? [], prompt), {
    cwd: process.cwd(),
    env,
    stdin: "", // a closed stdin: some CLIs otherwise wait for piped input
    ...(parsed.flags.has("--timeout") ? { timeoutMs: parsed.flags.get("--timeout") as number } : {}),
  });
  // An answer is text: decode it (invalid bytes become U+FFFD, as a terminal would show them).
  const text = new TextDecoder().decode(result.stdout).trim();
  const exitCode = result.timedOut ? 124 : (result.exitCode ?? 1);
  if (globals.mode === "json") {
    await printOut(inertJson({ via, text, exitCode, elapsedMs: result.elapsedMs, timedOut: result.timedOut, stderr: new TextDecoder().decode(result.stderr) }));
    return exitCode;
  }
  if (text !== "") await printOut(text);
  if (exitCode !== 0) await writeRaw("stderr", result.stderr);
  return exitCode;
}
