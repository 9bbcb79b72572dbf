// `tuiwright ask [--via CLI] [--timeout MS] PROMPT [-- CLI-ARGS]`: one answer from an AI coding
// CLI's non-interactive mode, over the same data path as `run` (real pipes, no PTY, no
// daemon). Prints the answer; --json gives {via, text, exitCode, elapsedMs, stderr}. The CLI
// comes from PATH: --via, else the first of claude, codex, pi, opencode, gemini found there.
// What is no answer is an error, not the answer: a CLI that is not logged in (its own words,
// exit 77), an empty answer from a CLI that exited 0 (exit 1), no answer within the timeout
// (default ASK_TIMEOUT_MS, exit 124: a CLI without a key may retry its cloud endpoint forever).
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

/** How long a CLI may take for one answer unless --timeout says otherwise (0: no limit). */
export const ASK_TIMEOUT_MS = 300_000;

/** What each CLI prints when it has no credentials (measured: claude -p, gemini -p and pi -p
 * with an empty HOME; codex exec and opencode run retry their cloud endpoints instead). */
const NOT_LOGGED_IN: { via: Via; says: RegExp; hint: string }[] = [
  { via: "claude", says: /^(Not logged in\b.*|Invalid API key\b.*)$/m, hint: "log in: run `claude` and /login, or set ANTHROPIC_API_KEY" },
  { via: "gemini", says: /^Please set an Auth method\b.*$/m, hint: "set GEMINI_API_KEY, or choose an auth method in ~/.gemini/settings.json" },
  { via: "pi", says: /^No API key found\b.*$/m, hint: "log in: run `pi` and /login, or configure a provider in ~/.pi/agent/models.json" },
];
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
  const timeoutMs = parsed.flags.has("--timeout") ? parsed.flags.get("--timeout") as number : ASK_TIMEOUT_MS;
  const result = await runProcess(VIAS[via].argv(parsed.rest ?? [], prompt), {
    cwd: process.cwd(),
    env,
    stdin: "", // a closed stdin: some CLIs otherwise wait for piped input
    ...(timeoutMs > 0 ? { timeoutMs } : {}),
  });
  // An answer is text: decode it (invalid bytes become U+FFFD, as a terminal would show them).
  const text = new TextDecoder().decode(result.stdout).trim();
  const stderr = new TextDecoder().decode(result.stderr);
  const exitCode = result.timedOut ? 124 : (result.exitCode ?? 1);
  const login = NOT_LOGGED_IN.find((entry) => entry.via === via);
  const said = login && !result.timedOut ? (login.says.exec(text) ?? login.says.exec(stderr))?.[0]?.trim() : undefined;
  if (said) throw new TuiwrightError("permission", `${via} is not logged in: it said ${JSON.stringify(said.length > 200 ? `${said.slice(0, 199)}…` : said)} (exit ${exitCode}); that is no answer`, { hint: login!.hint, details: { via, exitCode } });
  if (result.timedOut) {
    throw new TuiwrightError("timeout", `${via} gave no answer within ${timeoutMs} ms${parsed.flags.has("--timeout") ? "" : " (the default --timeout)"}`, {
      hint: "raise --timeout MS (0: no limit); a CLI without a key or endpoint may retry its cloud service until then",
      details: { via, exitCode: 124, text, stderr: stderr.slice(-2000) },
    });
  }
  if (exitCode === 0 && text === "") {
    throw new TuiwrightError("expectation-failed", `${via} exited 0 but printed no answer`, {
      hint: "its turn may have ended in a tool call or a question it cannot ask here; ask for the answer in words, or use a session (tuiwright spawn, turn)",
      details: { via, exitCode, stderr: stderr.slice(-2000) },
    });
  }
  if (globals.mode === "json") {
    await printOut(inertJson({ via, text, exitCode, elapsedMs: result.elapsedMs, timedOut: result.timedOut, stderr }));
    return exitCode;
  }
  if (text !== "") await printOut(text);
  if (exitCode !== 0) await writeRaw("stderr", result.stderr);
  return exitCode;
}
