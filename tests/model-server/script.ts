// The model server's script: which reply to give to which request. Deterministic: a request
// is matched by the latest prompt the user typed (the last user message that is not a tool
// result; the rule matching latest in it wins) and by how many tool results followed it (the
// step), never by timing or chance.
//
// A rule's `turns[step]` is the reply: a list of parts streamed in order.
//   { text: "…" }                 streamed text (split into `chunk`-sized deltas)
//   { run: "echo hi > f" }        a call of the CLI's own shell tool (found among the tools
//                                 the request declares), with the command in its argument shape
//   { write: { path, content } }  a call of the CLI's own file-writing tool
//   { tool: { name, input } }     any tool call, spelled out
//   { question: { question, header, options } } a call of the CLI's own question tool
//                                 (AskUserQuestion, ask_user, question) with these options
//   { fromToolOutput: "RE", prefix } text: the first match of RE in the last tool result the
//                                 CLI sent back (what the command really printed), or "(no match)"
//   { error: { status, message, retryAfterMs? } } an HTTP error instead of a stream (with a
//                                 retry-after-ms header when retryAfterMs is given)
//   { stall: true }               the stream stops here and stays open, sending nothing more,
//                                 until the CLI gives up or hangs up (a model that stalls)
// A rule with no turn for the step answers the last turn's text again (or "OK").
export type Part =
  | { text: string }
  | { run: string }
  | { write: { path: string; content: string } }
  | { tool: { name: string; input: Record<string, unknown> } }
  | { question: { question: string; header: string; options: string[] } }
  | { fromToolOutput: string; prefix?: string }
  | { error: { status: number; message: string; retryAfterMs?: number } }
  | { stall: true };

export type Rule = {
  /** Regex (source, case-insensitive) tested against the latest user prompt; absent: any. */
  match?: string;
  turns: Part[][];
};

export type Script = {
  rules: Rule[];
  /** Characters per streamed delta (default 8). */
  chunk?: number;
  /** Milliseconds between deltas (default 15): long enough for a CLI to draw a busy state. */
  delayMs?: number;
};

export const DEFAULT_SCRIPT: Script = {
  rules: [
    { match: "INNER.*AGENT.*OK", turns: [[{ text: "INNER_AGENT_OK" }]] },
    { match: "^ping", turns: [[{ text: "pong" }]] },
    { turns: [[{ text: "Hello from the tuiwright model server." }]] },
  ],
};

/** The rule whose match ends latest in the prompt (a CLI may resend a failed prompt together
 * with the next one in one message: the newest words decide), first in the script on a tie;
 * else the first rule without `match`. */
export function findRule(script: Script, prompt: string): Rule | null {
  let best: { rule: Rule; end: number } | null = null;
  for (const rule of script.rules) {
    if (rule.match === undefined) continue;
    let end = -1;
    for (const m of prompt.matchAll(new RegExp(rule.match, "gi"))) { end = Math.max(end, m.index + m[0].length); if (m[0] === "") break; }
    if (end >= 0 && (!best || end > best.end)) best = { rule, end };
  }
  return best?.rule ?? script.rules.find((rule) => rule.match === undefined) ?? null;
}

export function replyFor(script: Script, prompt: string, step: number): Part[] {
  const rule = findRule(script, prompt);
  if (!rule || rule.turns.length === 0) return [{ text: "OK" }];
  if (step < rule.turns.length) return rule.turns[step]!;
  const last = rule.turns.at(-1)!.filter((part) => "text" in part);
  return last.length > 0 ? last : [{ text: "OK" }];
}

/** The deltas a text is streamed in. */
export function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  const chars = [...text];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out.length > 0 ? out : [""];
}
