// exec without shell integration (`spawn --shell --no-integration`): the prompt is recognised
// by a regex at the end of the screen; output is what the screen shows between the command's
// echo and the next prompt. There is no exit code (null) and the result says so.
import { TuiwrightError } from "../protocol/errors.ts";
import type { WaitResultValue, WaitSpec } from "../protocol/methods.ts";
import type { WaitAnchor } from "../waits/wait-engine.ts";

/** A prompt ends the screen: `$`, `#`, `%` or `>` as the last character. */
export const PROMPT_AT_END = "/[$#%>]$/";

export type PromptHost = {
  wait(spec: WaitSpec & { includeText?: boolean }, anchor?: WaitAnchor): Promise<WaitResultValue>;
  revision(): number;
  type(text: string): void;
  /** Discards unread input before the command is typed. */
  flushInput?(): Promise<unknown>;
  text(): string;
};

export type PromptExecResult = {
  block: number; seq: number; command: string; exitCode: null; output: string; outputTruncated: boolean; outputChars: number;
  startedAt: string; endedAt: string; cwd: string | null; cursor: number; integration: false;
};

const SCROLLBACK_TEXT = 10_000;

export async function execByPrompt(host: PromptHost, command: string, options: { timeoutMs: number; maxOutput: number; seq: number; cwd: string | null }): Promise<PromptExecResult> {
  if (/[\r\n]/.test(command)) throw new TuiwrightError("bad-data", "a command for exec must be one line (join commands with ; or &&)");
  const startedAt = new Date().toISOString();
  await host.wait({ regex: [PROMPT_AT_END], mode: "any", timeoutMs: options.timeoutMs });
  await host.flushInput?.();
  const before = host.revision();
  host.type(`${command}\r`);
  // The prompt back at the end of the screen, after the command, and quiet for a moment.
  await host.wait({ regex: [PROMPT_AT_END], settledMs: 100, mode: "all", timeoutMs: options.timeoutMs }, { revision: before, at: performance.now() });
  const lines = host.text().split("\n");
  const echo = lines.findLastIndex((line, i) => i < lines.length - 1 && line.endsWith(command));
  const body = echo < 0 ? [] : lines.slice(echo + 1, -1);
  const output = body.length ? `${body.join("\n")}\n` : "";
  return {
    block: options.seq,
    seq: options.seq,
    command,
    exitCode: null,
    output: output.slice(0, options.maxOutput),
    outputTruncated: output.length > options.maxOutput,
    outputChars: new TextEncoder().encode(output).length, // UTF-8 bytes, as for blocks with shell integration
    startedAt,
    endedAt: new Date().toISOString(),
    cwd: options.cwd,
    cursor: 0,
    integration: false,
  };
}

export { SCROLLBACK_TEXT };
