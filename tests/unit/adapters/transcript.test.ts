// A CLI's own transcript as evidence for an answer whose start scrolled off an alternate
// screen: the manifests' transcript keys on small fixtures in the real formats (Claude Code's
// project JSONL, Codex's rollout JSONL), agreement with the screen, and the file rules
// (symlinks, owner, time, size).
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_MANIFESTS } from "../../../lib/adapters/builtins.ts";
import { loadManifest } from "../../../lib/adapters/load-manifest.ts";
import { SCROLLED } from "../../../lib/adapters/manifest-outline.ts";
import { agrees, lastAnswer, normalised, transcriptAnswer, transcriptSignature, type TranscriptSpec } from "../../../lib/adapters/transcript.ts";
import { expandPattern, findFiles, readTail, TRANSCRIPT_MAX_BYTES } from "../../../lib/adapters/transcript-files.ts";
import { TurnTracker } from "../../../lib/adapters/turns.ts";
import type { OutlineNode } from "../../../lib/outline/types.ts";
import { thrown } from "../../helpers/errors.ts";

const FIXTURES = join(import.meta.dir, "../../testdata/transcripts");
const ANSWER = `${Array.from({ length: 12 }, (_, i) => `- line ${String(i + 1).padStart(3, "0")} of the **long** answer`).join("\n")}\n\nEND OF THE \`LONG\` ANSWER.`;
/** The answer's end as Claude Code draws it: bullets kept, bold and code rendered away, indented. */
const CLAUDE_SCREEN = "- line 010 of the long answer\n  - line 011 of the long answer\n  - line 012 of the long answer\n\n  END OF THE LONG ANSWER.";
/** As Codex draws it: "- " as "• ". */
const CODEX_SCREEN = "• line 011 of the long answer\n  • line 012 of the long answer\n\n  END OF THE LONG ANSWER.";

const spec = (cli: string): TranscriptSpec => {
  const file = `${cli}.toml`;
  const source = BUILTIN_MANIFESTS.find((m) => m.file.endsWith(file))!.source;
  return loadManifest(source, file).transcript!;
};

const dirs: string[] = [];
afterAll(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), "tw-transcript-"));
  dirs.push(dir);
  return dir;
}

test("the built-in manifests read the last answer of Claude Code's and Codex's transcripts", () => {
  expect(lastAnswer(readFileSync(join(FIXTURES, "claude.jsonl"), "utf8"), spec("claude"))).toBe(ANSWER);
  expect(lastAnswer(readFileSync(join(FIXTURES, "codex.jsonl"), "utf8"), spec("codex"))).toBe(ANSWER);
  // A tail read that starts mid-line skips the partial line; no answer entry: null.
  expect(lastAnswer(`ssistant"}]}}\n${readFileSync(join(FIXTURES, "claude.jsonl"), "utf8")}`, spec("claude"))).toBe(ANSWER);
  expect(lastAnswer('{"type":"user","message":{"content":"hi"}}\n', spec("claude"))).toBeNull();
});

test("agreement: the screen's text is the end of the transcript's answer, whitespace, bullets and markdown aside", () => {
  expect(agrees(CLAUDE_SCREEN, ANSWER)).toBe(true);
  expect(agrees(CODEX_SCREEN, ANSWER)).toBe(true);
  expect(normalised("  • a **b**\n  1. `c`\n## d")).toBe("a b c d");
  // Another answer, a changed word, or a tail too short to tell: no agreement, with why.
  expect(agrees(CLAUDE_SCREEN.replace("011", "099"), ANSWER)).toBe("its last answer does not end with the text on screen");
  expect(agrees(CLAUDE_SCREEN, `${ANSWER} And one more line.`)).toBe("its last answer does not end with the text on screen");
  expect(agrees("LONG ANSWER.", ANSWER)).toMatch(/^only 12 characters of the answer are on screen/);
});

test("the newest transcript written since the session started is read; older, foreign and linked files are not", () => {
  const dir = home();
  const project = join(dir, ".claude/projects/-tmp-work");
  mkdirSync(project, { recursive: true });
  const old = join(project, "old.jsonl");
  writeFileSync(old, '{"type":"assistant","message":{"content":[{"type":"text","text":"an old answer from before the session"}]}}\n');
  utimesSync(old, new Date(1_000_000), new Date(1_000_000));
  const env = { HOME: dir };
  const since = Date.now() - 1000;
  expect(transcriptAnswer(spec("claude"), env, since, CLAUDE_SCREEN)).toEqual({ why: expect.stringMatching(/^no transcript of the CLI found \(.*no file ~\/\.claude\/projects\/\*\/\*\.jsonl written since the session started/) });
  const ours = join(project, "9c4b2b88-9d34-49dc-a689-97f497dcfc45.jsonl");
  copyFileSync(join(FIXTURES, "claude.jsonl"), ours);
  expect(transcriptAnswer(spec("claude"), env, since, CLAUDE_SCREEN)).toEqual({ text: ANSWER, path: ours });
  // An answer on screen that is not the transcript's: not used, the file named.
  expect(transcriptAnswer(spec("claude"), env, since, CLAUDE_SCREEN.replace("012", "013"))).toEqual({ why: `the CLI's transcript ${ours} does not agree with the screen: its last answer does not end with the text on screen`, path: ours });
  // A newer file reached through a symlink (to a file, or a directory outside) is never read.
  const outside = home();
  writeFileSync(join(outside, "evil.jsonl"), readFileSync(join(FIXTURES, "claude.jsonl")));
  symlinkSync(join(outside, "evil.jsonl"), join(project, "linked.jsonl"));
  symlinkSync(outside, join(dir, ".claude/projects/linked-dir"));
  const found = findFiles("~/.claude/projects/*/*.jsonl", env, since);
  expect(found).toEqual([{ path: ours, mtimeMs: expect.any(Number), size: expect.any(Number) }]);
  // A file of another user (here only when the test runs as root, which can give one away).
  if (process.getuid?.() === 0) {
    const foreign = join(project, "foreign.jsonl");
    copyFileSync(join(FIXTURES, "claude.jsonl"), foreign);
    chownSync(foreign, 12345, 12345);
    expect(findFiles("~/.claude/projects/*/*.jsonl", env, since)).toEqual([{ path: ours, mtimeMs: expect.any(Number), size: expect.any(Number) }]);
    expect(() => readTail(foreign)).toThrow("is not owned by this user");
    expect(() => readTail(join(project, "linked.jsonl"))).toThrow(); // O_NOFOLLOW
  }
  // The signature changes with the file (a CLI writing its answer after its end mark).
  const before = transcriptSignature(spec("claude"), env, since);
  appendFileSync(ours, '{"type":"last-prompt"}\n');
  expect(transcriptSignature(spec("claude"), env, since)).not.toBe(before);
});

test("$VAR patterns use the program's environment; ~ needs its HOME; the tail read is capped", () => {
  expect(expandPattern("$CODEX_HOME/sessions/*/*/*/rollout-*.jsonl", { CODEX_HOME: "/h/.codex" })).toEqual({ base: "/h/.codex/sessions", parts: ["*", "*", "*", "rollout-*.jsonl"] });
  expect(expandPattern("$CODEX_HOME/sessions/*.jsonl", {})).toBe("$CODEX_HOME/sessions/*.jsonl: the program's environment has no CODEX_HOME");
  expect(expandPattern("~/.claude/projects/*/*.jsonl", {})).toBe("~/.claude/projects/*/*.jsonl: the program's environment has no HOME");
  const dir = home();
  const day = join(dir, ".codex/sessions/2026/11/28");
  mkdirSync(day, { recursive: true });
  const rollout = join(day, "rollout-2026-11-28T05-22-44-01a2209b.jsonl");
  copyFileSync(join(FIXTURES, "codex.jsonl"), rollout);
  // CODEX_HOME unset: the ~/.codex pattern after it.
  expect(transcriptAnswer(spec("codex"), { HOME: dir }, 0, CODEX_SCREEN)).toEqual({ text: ANSWER, path: rollout });
  expect(transcriptAnswer(spec("codex"), { HOME: "/nowhere", CODEX_HOME: join(dir, ".codex") }, 0, CODEX_SCREEN)).toEqual({ text: ANSWER, path: rollout });
  // A file larger than the cap: only its end is read (the answer is there).
  const big = join(dir, "big.jsonl");
  writeFileSync(big, `${"x".repeat(TRANSCRIPT_MAX_BYTES)}\n${readFileSync(join(FIXTURES, "codex.jsonl"), "utf8")}`);
  const tail = readTail(big);
  expect(tail.length).toBe(TRANSCRIPT_MAX_BYTES);
  expect(lastAnswer(tail, spec("codex"))).toBe(ANSWER);
});

test("a manifest's transcript needs turns and absolute-or-home paths without ..", () => {
  const base = 'name = "chat"\n[[regions]]\nname = "input"\nrows = "-1"\n[[regions]]\nname = "done"\nrows = "0"\n';
  const refused = (source: string) => {
    const error = thrown(() => loadManifest(source, "my.toml"));
    expect(error.errorName).toBe("bad-manifest");
    return error.message;
  };
  const transcript = (files: string) => `[transcript]\nfiles = [${files}]\nentry = { type = "assistant" }\ntext = "message.text"\n`;
  expect(refused(base + transcript('"~/.chat/*.jsonl"'))).toContain("a transcript is read for turns: it needs turns = true");
  expect(refused(`turns = true\n${base}${transcript('"chat/*.jsonl"')}`)).toContain("a transcript path starts with ~/, $VAR/ or /");
  expect(refused(`turns = true\n${base}${transcript('"~/../etc/*.jsonl"')}`)).toContain("a transcript path has no . or .. components");
  expect(loadManifest(`turns = true\n${base}${transcript('"~/.chat/*.jsonl"')}`, "my.toml").transcript).toEqual({ files: ["~/.chat/*.jsonl"], entry: { type: "assistant" }, text: "message.text" });
});

/** A done turn's screen whose response start scrolled off (the manifest's scrolled alternative). */
function scrolledScreen(value: string): OutlineNode[] {
  const scrolled = [{ source: "manifest" as const, adapter: "ai", rule: `regions.1 ${SCROLLED}`, revision: 1 }];
  return [{ ref: "@ai", role: "application", name: "ai", bbox: { row: 0, col: 0, rows: 30, cols: 80 }, children: [
    { ref: "@ai.response", role: "document", name: value, value, bbox: { row: 0, col: 0, rows: 5, cols: 80 }, evidence: scrolled },
    { ref: "@ai.done", role: "status", name: "✻ done", bbox: { row: 6, col: 0, rows: 1, cols: 80 }, evidence: scrolled },
    { ref: "@ai.input", role: "input", name: ">", value: "", bbox: { row: 20, col: 0, rows: 1, cols: 80 } },
  ] }];
}

test("a done turn's scrolled answer is whole from an agreeing transcript, cited; else what is on screen and why; read again when the file changes", () => {
  let written: { text: string; path: string } | { why: string; path?: string } = { why: "the CLI's transcript /h/t.jsonl has no answer entry", path: "/h/t.jsonl" };
  let signature = "a";
  let reads = 0;
  const turns = new TurnTracker("ai", "ai", { read: () => { reads++; return written; }, signature: () => signature });
  const input = [{ ref: "@ai", role: "application", name: "ai", bbox: { row: 0, col: 0, rows: 30, cols: 80 }, children: [{ ref: "@ai.input", role: "input", name: "> long", value: "long", bbox: { row: 20, col: 0, rows: 1, cols: 80 } }] }];
  const turn = turns.open("long", 10, input, "80x30");
  turns.observe(11, [{ ...input[0]!, children: [{ ref: "@ai.busy", role: "status", name: "esc to interrupt", bbox: { row: 29, col: 0, rows: 1, cols: 80 } }, { ref: "@ai.input", role: "input", name: ">", value: "", bbox: { row: 20, col: 0, rows: 1, cols: 80 } }] }]);
  const done = scrolledScreen(CLAUDE_SCREEN);
  turns.observe(12, done);
  expect(turn.state).toBe("done");
  const response = (nodes: OutlineNode[]) => nodes[0]!.children!.find((n) => n.ref === "@ai.response")!;
  const turnEvidence = (node: OutlineNode) => node.evidence!.find((e) => e.source === "turn") as { complete: boolean; fact: string; transcript?: string };
  // Not written yet: what is on screen, complete false, the reason said; pending on the file.
  let shown = response(turns.annotate(done, 12));
  expect(shown.value).toBe(CLAUDE_SCREEN);
  expect(turnEvidence(shown)).toMatchObject({ complete: false, fact: expect.stringContaining("the text is what is on screen (the CLI's transcript /h/t.jsonl has no answer entry)") });
  expect(turns.transcriptPendingFile()).toBe("/h/t.jsonl");
  turns.annotate(done, 12);
  expect(reads).toBe(1); // the same file: not read again
  // The CLI wrote its answer: the file changed, read again, whole.
  written = { text: ANSWER, path: "/h/t.jsonl" };
  signature = "b";
  shown = response(turns.annotate(done, 12));
  expect(shown.value).toBe(ANSWER);
  expect(shown.name).toBe(CLAUDE_SCREEN); // the node's name stays what the screen shows
  expect(turnEvidence(shown)).toMatchObject({ complete: true, transcript: "/h/t.jsonl", fact: expect.stringContaining("the last answer of the CLI's own transcript /h/t.jsonl, whose end agrees with the answer on screen") });
  expect(turns.transcriptPending()).toBe("");
  signature = "c";
  turns.annotate(done, 12);
  expect(reads).toBe(2); // agreed: kept
});
