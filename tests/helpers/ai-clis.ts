// What the AI-CLI end-to-end files (tests/e2e/ai-clis/) share: one World and one scripted
// model server per file, and the steps every CLI goes through (start in a fresh home, type a
// prompt, approve through @X.approval). One file per CLI, so the suite's parallel runner can
// start them side by side; each file's World and model server are its own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type AiCli, aiClisBin, installed, setupCli, type CliSetup } from "../model-server/cli-setup.ts";
import type { Script } from "../model-server/script.ts";
import { type ModelServer, startModelServer } from "../model-server/server.ts";
import { World } from "./harness.ts";

/** Six turns in a row, each with its own answer: a stale done would show the answer before. */
export const COUNTS = ["one", "two", "three", "four", "five", "six"] as const;
export const countAnswer = (word: string) => `${word}: the answer to turn ${word}, streamed in small chunks.`;

/** A 100-line answer (taller than the 30-row screen), each line numbered, then an end line. */
export const LONG_ANSWER = `${Array.from({ length: 100 }, (_, i) => `- line ${String(i + 1).padStart(3, "0")} of the long answer`).join("\n")}\n\nEND OF THE LONG ANSWER.`;
/** The numbers of the long answer's lines found in a text, in order. */
export const longLines = (text: string) => [...text.matchAll(/line (\d{3}) of the long answer/g)].map((m) => Number(m[1]));

/** Characters whose widths a terminal must agree on with the CLI: a skin-tone emoji, a ZWJ
 * family, a flag, CJK, a letter with a combining mark (e + U+0301), streamed in small chunks
 * (a cluster split across deltas), several times so that the row wraps. */
export const WIDE_ANSWER = `Widths: ${"👍🏽 👨‍👩‍👧 🇫🇷 漢字 caf\u0301e ".repeat(6)}end of the wide answer.`;

/** An answer in two messages, a markdown table and then a list: a CLI draws each message with
 * its own mark ("• " in Codex), and its table with rules ("───") between the rows. */
export const TABLE_MESSAGE = "Table first:\n\n| Name | Count |\n|------|-------|\n| alpha | 1 |\n| beta | 2 |";
export const LIST_MESSAGE = "- first bullet of the list\n- second bullet of the list";

export const SCRIPT: Script = {
  delayMs: 20,
  rules: [
    { match: "wide answer please", turns: [[{ text: WIDE_ANSWER }]] },
    { match: "long answer please", turns: [[{ text: LONG_ANSWER }]] },
    { match: "table and list please", turns: [[{ text: TABLE_MESSAGE }, { text: LIST_MESSAGE }]] },
    ...COUNTS.map((word) => ({ match: `\\bcount ${word}\\b`, turns: [[{ text: countAnswer(word) }]] })),
    { match: "INNER.*AGENT.*OK", turns: [[{ text: "INNER_AGENT_OK" }]] },
    { match: "say pong", turns: [[{ text: "pong: the answer streamed in small chunks, done." }]] },
    { match: "make the file", turns: [[{ run: "echo tool-ran > made-by-tool.txt" }], [{ text: "Created made-by-tool.txt for you." }]] },
    // The ways a turn ends without an answer (endTests).
    // retryAfterMs 0: opencode retries a failed request 5 times, backing off 2 s, 4 s, … 32 s
    // (100 s in all) unless the server says when to retry; told, it retries at once.
    { match: "fail five hundred", turns: [[{ error: { status: 500, message: "tuiwright model server: internal failure", retryAfterMs: 0 } }]] },
    { match: "fail too many", turns: [[{ error: { status: 429, message: "tuiwright model server: rate limited", retryAfterMs: 0 } }]] },
    { match: "stall now", turns: [[{ text: "starting to answer and then" }, { stall: true }]] },
    { match: "make another file", turns: [[{ run: "echo denied > denied.txt" }], [{ text: "I will not make it then." }]] },
    // opencode's "Allow always" asks again in a second panel (opencode.test.ts).
    { match: "make a file always", turns: [[{ run: "echo always > always.txt" }], [{ text: "Made always.txt for you." }]] },
    { match: "ask me a question", turns: [[{ question: { question: "Which colour should the file be?", header: "Colour", options: ["Red", "Blue"] } }], [{ text: "You chose a colour." }]] },
  ],
};

export const LONG = 120_000; // a CLI's first start (module loading) on a loaded 2-core machine

export const skipReason = (cli: AiCli) => (installed(cli) ? null : `${cli} is not installed in ${aiClisBin()} (run scripts/install-ai-clis.sh)`);

type Node = { ref: string; name: string; value?: string; focused?: boolean; children?: Node[] };

/** The file's World and model server (started before its first test), and the steps. */
export type AiClis = ReturnType<typeof useAiClis>;

export function useAiClis() {
  let world!: World;
  let server!: ModelServer;
  beforeAll(async () => {
    world = await World.start();
    server = startModelServer({ script: SCRIPT });
  });
  afterAll(async () => {
    await server?.stop();
    await world?.[Symbol.asyncDispose]();
  });

  async function tw(args: string[], setup: CliSetup): Promise<any> {
    const result = await world.run(["--json", ...args], { env: setup.env, cwd: setup.cwd });
    if (result.code !== 0) throw new Error(`tuiwright ${args.join(" ")} exited ${result.code}: ${result.stdout}${result.stderr}`);
    return JSON.parse(result.stdout);
  }

  async function node(session: string, ref: string, setup: CliSetup): Promise<Node | undefined> {
    const snap = await tw(["snapshot", "--session", session, "--format", "outline", "--select", ref], setup);
    return snap.outline.nodes[0];
  }

  /** Start the CLI in a fresh home and wait until its prompt takes input. */
  async function start(cli: AiCli, name: string): Promise<CliSetup> {
    const setup = setupCli(cli, server.url, mkdtempSync(join(world.dir, `${cli}-`)));
    await tw(["spawn", "--session", name, "--cols", "100", "--rows", "30", "--", ...setup.argv], setup);
    await tw(["wait", "--session", name, "--ref", `@${cli}.input[focused]`, "--timeout", String(LONG)], setup);
    return setup;
  }

  async function prompt(cli: AiCli, name: string, setup: CliSetup, text: string): Promise<void> {
    await tw(["type", "--session", name, text], setup);
    await tw(["wait", "--session", name, "--ref", `@${cli}.input[name~=/${text.split(" ")[0]}/]`], setup);
    // Codex and Gemini CLI take keys that arrive in a burst for a paste, where Enter inserts a
    // newline instead of sending: let the screen be still for a moment after the typing first.
    await tw(["wait", "--session", name, "--settled", "150"], setup);
    await tw(["press", "--session", name, "Enter"], setup);
    if (cli !== "codex" && cli !== "gemini") return;
    // Under load Codex and Gemini CLI can still count that Enter into the burst (the prompt stays
    // in the input, Gemini CLI adds a line under it; nothing is sent): once the input has held
    // the text a while after Enter, press it again. The input clears when the CLI takes the
    // prompt; a second Enter on a cleared input sends nothing.
    for (let round = 1; round < 3; round++) {
      const taken = await tw(["wait", "--session", name, "--ref", `@${cli}.input[name~=/${text.split(" ")[0]}/]`, "--gone", "--timeout", "5000"], setup).then(() => true, () => false);
      if (taken) return;
      await tw(["press", "--session", name, "Enter"], setup);
    }
  }

  /** Approve through the @X.approval item: the option says which key chooses it, e.g. "1. Yes, proceed (y)",
   * or its number ("1. Yes" in Claude Code, where the digit picks the option). */
  async function approve(cli: AiCli, name: string, setup: CliSetup): Promise<string> {
    await tw(["wait", "--session", name, "--ref", `@${cli}.approval`, "--timeout", String(LONG)], setup);
    const dialog = await node(name, `@${cli}.approval`, setup);
    const options = dialog?.children ?? [];
    expect(options.length).toBeGreaterThanOrEqual(2);
    const yes = options.find((o) => /^(1\. Yes\b|1\. Allow once$|Allow once$)/.test(o.name));
    // The key the option names, its digit, or Enter when it is the highlighted button (opencode).
    const key = /\((\w+)\)$/.exec(yes?.name ?? "")?.[1] ?? /^(\d)\./.exec(yes?.name ?? "")?.[1] ?? ((yes as { selected?: boolean } | undefined)?.selected ? "Enter" : undefined);
    if (!yes || !key) throw new Error(`no approve option with a key among ${JSON.stringify(options.map((o) => o.name))}`);
    expect((yes as { selected?: boolean }).selected).toBe(true); // each CLI highlights its first option
    await choose(name, setup, key, `@${cli}.approval`);
    return yes.name;
  }

  /** Presses the key that answers a dialog until the dialog is gone. Claude Code ignores keys for
   * a moment after it shows one (a guard against typing ahead into an approval), with nothing on
   * screen marking the end of it: press again while the dialog stays. Each round waits on the
   * screen (the dialog gone), not on a clock. */
  async function choose(name: string, setup: CliSetup, key: string, dialog: string): Promise<void> {
    for (let round = 1; ; round++) {
      await tw(["press", "--session", name, key], setup);
      const gone = await world.run(["--json", "wait", "--session", name, "--ref", dialog, "--gone", "--timeout", "2000"], { env: setup.env, cwd: setup.cwd });
      if (gone.code === 0) return;
      if (gone.code !== 124 || round === 10) throw new Error(`${dialog} stayed after ${round} presses of ${key}: ${gone.stdout}`);
    }
  }

  /** The README's raw recipe after `press Enter`: wait for @X.done. A wait that fails because
   * the CLI did not take the Enter (expectation-failed, the prompt still in @X.input: Gemini CLI
   * under load counts it into a paste) is answered as the docs say: Enter again (the same
   * turn), wait again; at most two more Enters. Returns the wait's result and those Enters. */
  async function waitDone(cli: AiCli, name: string, setup: CliSetup): Promise<{ done: any; resent: number }> {
    for (let resent = 0; ; resent++) {
      const result = await world.run(["--json", "wait", "--session", name, "--ref", `@${cli}.done`, "--timeout", String(LONG)], { env: setup.env, cwd: setup.cwd });
      if (result.code === 0) return { done: JSON.parse(result.stdout), resent };
      if (result.code !== 1 || !/was not taken: its prompt stays in @/.test(result.stdout) || resent === 2) throw new Error(`wait --ref @${cli}.done exited ${result.code} after ${resent} more Enters: ${result.stdout}${result.stderr}`);
      console.log(`${cli}: Enter not taken (${JSON.parse(result.stdout).error.message.slice(0, 120)}…): Enter again`);
      await tw(["press", "--session", name, "Enter"], setup);
    }
  }

  return {
    get world(): World { return world; },
    get server(): ModelServer { return server; },
    tw, node, start, prompt, approve, choose, waitDone,
  };
}

/** Six consecutive turns with the README recipe over the CLI, then six over JSON-RPC, each
 * answer distinct: a `done` left over from the turn before would come with the answer before.
 * Over the CLI: `turn PROMPT`, and the raw steps (type, wait --settled, press Enter, wait --ref
 * @X.done) in turn. Over JSON-RPC: type, wait settled, press Enter, then a wait sent at once
 * (where the old answer's done fired), press Enter with its own wait, and the turn method. */
export function turnTests(ai: AiClis, cli: AiCli): void {
  test.skipIf(skipReason(cli) !== null)(`${cli}: six turns over the CLI and six over JSON-RPC each end on their own answer, never a stale done`, async () => {
    const name = `${cli}-turns`;
    const setup = await ai.start(cli, name);
    const rpc = await ai.world.rpc();
    const response = async () => (await ai.node(name, `@${cli}.response`, setup))?.value;
    try {
      for (const [i, word] of COUNTS.entries()) {
        const prompt = `count ${word} please`;
        if (i % 2 === 0) {
          const turn = await ai.tw(["turn", "--session", name, prompt, "--timeout", String(LONG)], setup);
          expect(turn.turn).toMatchObject({ prompt, state: "done" });
          expect(turn.response).toEqual({ text: countAnswer(word), complete: true });
        } else {
          await ai.tw(["type", "--session", name, prompt], setup);
          await ai.tw(["wait", "--session", name, "--settled", "150"], setup);
          await ai.tw(["press", "--session", name, "Enter"], setup);
          const { done } = await ai.waitDone(cli, name, setup);
          expect(done.fired).toEqual([`ref @${cli}.done`]);
          expect(await response()).toBe(countAnswer(word));
        }
      }
      for (const [i, word] of COUNTS.entries()) {
        const prompt = `count ${word} again`;
        const call = (method: string, params: Record<string, unknown>) => rpc.call(method, { session: name, ...params }) as Promise<any>;
        // A wait that fails on an Enter the CLI did not take: Enter again, wait again (the docs' recipe).
        const orAgain = async (first: Promise<any>, wait: Record<string, unknown>) => {
          for (let resent = 0; ; resent++) {
            try {
              return resent === 0 ? await first : await call("press", { keys: ["Enter"], wait });
            } catch (error) {
              if (resent === 2 || !/was not taken: its prompt stays in @/.test(String((error as Error).message))) throw error;
              console.log(`${cli}: Enter not taken over JSON-RPC: Enter again`);
            }
          }
        };
        if (i % 3 === 2) {
          const turn = await call("turn", { text: prompt, timeoutMs: LONG });
          expect(turn.turn.state).toBe("done");
          expect(turn.response.text).toBe(countAnswer(word));
          continue;
        }
        await call("type", { text: prompt });
        await call("wait", { settledMs: 150 });
        const done = { ref: `@${cli}.done`, timeoutMs: LONG };
        if (i % 3 === 0) {
          await call("press", { keys: ["Enter"] });
          await orAgain(call("wait", done), done);
        } else {
          const pressed = await orAgain(call("press", { keys: ["Enter"], wait: done }), done);
          expect(pressed.wait.fired).toEqual([`ref @${cli}.done`]);
        }
        expect(await response()).toBe(countAnswer(word));
      }
    } finally {
      rpc.close();
      await ai.tw(["kill", "--session", name], setup);
    }
  }, LONG * 4);
}

/** What each CLI can do to end a turn besides done and error: deny a command at its approval,
 * ask the user a question with its own tool (Codex offers its question tool outside plan mode
 * with features.default_mode_request_user_input, set by cli-setup.ts; Pi has neither), stop
 * with Esc. And how each shows a failed request. */
const ENDS: Record<AiCli, { deny: boolean; question: boolean; error500: RegExp; error429: RegExp; noError?: string; escapes?: number }> = {
  claude: { deny: true, question: true, error500: /API Error: 500 tuiwright model server: internal failure/, error429: /API Error: Request rejected \(429\)/ },
  codex: { deny: true, question: true, error500: /high demand/, error429: /429 Too Many Requests/ },
  pi: { deny: false, question: false, error500: /^Error: 500 tuiwright model server: internal failure$/, error429: /^Error: 429 tuiwright model server: rate limited$/ },
  // One Esc in opencode arms the interrupt ("esc again to interrupt"); the second stops the turn.
  opencode: { deny: true, question: true, error500: /^tuiwright model server: internal failure$/, error429: /^tuiwright model server: rate limited$/, escapes: 2 },
  // Gemini CLI 0.61 shows no failed request: it retries a 500 and a 429 without end, tens of
  // requests a second with the spinner on and no message, whatever general.maxAttempts says
  // (4,336 requests in 90 s against the model server). Its retryWithBackoff (bundled from
  // packages/core/src/utils/retry.ts), once the attempts for a 500 or a retryable 429 are used
  // up, asks onPersistent429 for a fallback model and, given one (here the same model), sets
  // attempt = 0 and starts over. Esc ends such a turn (interrupted).
  gemini: { deny: true, question: true, error500: /internal failure|500/, error429: /rate limited|429|quota/i, noError: "Gemini CLI 0.61 retries a failed request (500, 429) without end and draws no error: there is no error state to read" },
};

/** The key that chooses an option: the one it names ("(esc)", "(n)"), or its digit. */
function keyOf(option: string): string | undefined {
  const named = /\((\w+)\)$/.exec(option)?.[1];
  if (named) return named === "esc" ? "Escape" : named;
  return /^(\d)\./.exec(option)?.[1];
}

/** Every way a turn ends has a state, from the CLI's own screen, each after a `turn` call (or a
 * key this test sends): error for a 500 and a 429 (the CLI's message), interrupted by Esc
 * during a stalled stream, denied at the approval, question with its options (answered, the
 * turn goes on to done). One conversation for all of them. */
export function endTests(ai: AiClis, cli: AiCli): void {
  const ends = ENDS[cli];
  const name = `${cli}-ends`;
  let started: Promise<CliSetup> | null = null;
  const conversation = () => (started ??= ai.start(cli, name));
  const turn = async (setup: CliSetup, prompt: string) => ai.tw(["turn", "--session", name, prompt, "--timeout", String(LONG)], setup);
  if (ends.noError) console.log(`${cli} error end: skipped — ${ends.noError}`);
  describe.skipIf(skipReason(cli) !== null)(`${cli} turn ends`, () => {
    afterAll(async () => { if (started) await ai.tw(["kill", "--session", name], await started); });

    test.skipIf(ends.noError !== undefined)(`${cli}: a request that fails with 500, then with 429, ends its turn in error with the CLI's message`, async () => {
      const setup = await conversation();
      const failed = await turn(setup, "fail five hundred");
      expect(failed.turn).toMatchObject({ state: "error", ref: `@${cli}.error` });
      expect(failed.message).toMatch(ends.error500);
      expect(failed.response).toBeUndefined();
      // The input after an error holds no value: a hint drawn in it ("Resend your message to try
      // again") is a placeholder, not text.
      const input = await ai.node(name, `@${cli}.input`, setup);
      expect(input?.value ?? "").toBe("");
      expect(input?.name ?? "").not.toMatch(/Resend your message|Type your message|Ask anything|Ask Codex/);
      const limited = await turn(setup, "fail too many");
      expect(limited.turn).toMatchObject({ id: failed.turn.id + 1, state: "error" });
      expect(limited.message).toMatch(ends.error429);
      // The outline says so too, citing the turn.
      const node = await ai.node(name, `@${cli}.error`, setup) as any;
      expect(node.evidence.some((e: any) => e.source === "turn" && e.turn === limited.turn.id)).toBe(true);
    }, LONG * 3); // the CLI's start (90 s for opencode on a loaded machine), then two failed requests with the CLI's retries

    test(`${cli}: Esc while the answer stalls ends the turn interrupted`, async () => {
      const setup = await conversation();
      const stalled = ai.server.next((e) => /stall now/.test(e.prompt));
      await ai.prompt(cli, name, setup, "stall now");
      const pressed = { wait: await ai.tw(["wait", "--session", name, "--turn", "last", "--turn-state", "running", "--timeout", String(LONG)], setup) };
      await stalled;
      await ai.tw(["wait", "--session", name, "--ref", `@${cli}.response`, "--ref-value", "/starting to answer/", "--timeout", String(LONG)], setup);
      for (let armed = 1; armed < (ends.escapes ?? 1); armed++) {
        await ai.tw(["press", "--session", name, "Escape"], setup);
        await ai.tw(["wait", "--session", name, "--ref", `@${cli}.busy[name~=/esc again/]`, "--timeout", String(LONG)], setup);
      }
      await ai.tw(["press", "--session", name, "Escape"], setup);
      const ended = await ai.tw(["wait", "--session", name, "--turn", String(pressed.wait.turn.id), "--timeout", String(LONG)], setup);
      expect(ended.turn).toMatchObject({ state: "interrupted", ref: `@${cli}.interrupted` });
    }, LONG * 2);

    test.skipIf(!ends.deny)(`${cli}: a command denied at its approval ends the turn denied; the command did not run`, async () => {
      const setup = await conversation();
      const asked = await turn(setup, "make another file");
      expect(asked.turn.state).toBe("approval");
      const choices = asked.choices as { name: string; selected?: boolean }[];
      const no = choices.find((c) => /^(\d\. )?(No\b|Reject)/.test(c.name));
      if (!no) throw new Error(`no deny option among ${JSON.stringify(choices)}`);
      const key = keyOf(no.name);
      if (key) await ai.choose(name, setup, key, `@${cli}.approval`);
      else {
        // opencode's buttons sit on one row and name no key: Right moves the highlight (its
        // "⇆ select"), Enter confirms the highlighted one.
        const moves = choices.indexOf(no) - choices.findIndex((c) => c.selected);
        if (moves <= 0) throw new Error(`no way to the deny option from the highlighted one among ${JSON.stringify(choices)}`);
        await ai.tw(["press", "--session", name, ...Array<string>(moves).fill("Right")], setup);
        await ai.tw(["wait", "--session", name, "--ref", `@${cli}.approval > [selected][name~=/^${no.name}$/]`], setup);
        await ai.choose(name, setup, "Enter", `@${cli}.approval`);
      }
      // Wait for an end: a dialog drawn in parts under load can look gone for a frame (choose
      // returns) and the turn be back at approval when a plain `wait --turn` looks.
      const ended = await ai.tw(["wait", "--session", name, "--turn", String(asked.turn.id), "--turn-state", "done,error,interrupted,denied", "--timeout", String(LONG)], setup);
      expect(ended.turn).toMatchObject({ state: "denied", ref: `@${cli}.denied` });
      expect(existsSync(join(setup.cwd, "denied.txt"))).toBe(false);
    }, LONG * 2);

    test.skipIf(!ends.question)(`${cli}: the CLI's own question waits as a question with its options; answered, the turn goes on to done`, async () => {
      const setup = await conversation();
      const asked = await turn(setup, "ask me a question");
      expect(asked.turn).toMatchObject({ state: "question", ref: `@${cli}.question` });
      expect(asked.message).toContain("Which colour should the file be?");
      const names = (asked.choices as { name: string }[]).map((c) => c.name);
      expect(names.some((n) => /Red/.test(n))).toBe(true);
      expect(names.some((n) => /Blue/.test(n))).toBe(true);
      await ai.choose(name, setup, "Enter", `@${cli}.question`); // the highlighted first option
      const ended = await ai.tw(["wait", "--session", name, "--turn", String(asked.turn.id), "--turn-state", "done,error,interrupted,denied", "--timeout", String(LONG)], setup);
      expect(ended.turn.state).toBe("done");
      expect((await ai.node(name, `@${cli}.response`, setup))?.value).toBe("You chose a colour.");
    }, LONG * 2);
  });
}

/** Which CLIs draw on the alternate screen, which keeps no scrollback: an answer taller than
 * the screen loses its start there (the text on screen is all there is, complete: false). */
const ALT_SCREEN: Record<AiCli, boolean> = { pi: false, gemini: false, codex: true, claude: true, opencode: true };
/** Where the CLIs on the alternate screen write their own transcript (their manifest's
 * `transcript`): an answer whose start scrolled off is whole from it (complete: true, the
 * file cited). opencode keeps its sessions in SQLite (`transcript.sqlite`). */
const TRANSCRIPT: Partial<Record<AiCli, RegExp>> = {
  claude: /\/home\/\.claude\/projects\/[^/]+\/[0-9a-f-]+\.jsonl$/,
  codex: /\/home\/\.codex\/sessions\/\d{4}\/\d{2}\/\d{2}\/rollout-[^/]+\.jsonl$/,
  opencode: /\/home\/\.local\/share\/opencode\/opencode\.db$/,
};

/** A 100-line answer on a 30-row screen: `done` fires on the CLI's end mark wherever the answer
 * pushed the prompt, and the response is whole (read across the scrollback) with complete:
 * true — or, on an alternate screen, what is on screen with complete: false and why. Over
 * `turn` and over the raw steps (wait --ref @X.done), one conversation. */
/** Known gaps in whole answers (issue 28 stays open), said rather than hidden: CLIs whose own
 * drawing loses rows of the second long answer, so the screen (and any terminal) lacks them. */
const SECOND_LONG_ANSWER_DRAWN_WRONG: Partial<Record<AiCli, string>> = {
  // Gemini CLI 0.61 ends each frame with the cursor moved up to its input ("\x1b[3A\x1b[4G").
  // Its incremental redraw first moves back down ("\x1b[4B…"), but the first one after a
  // full redraw ("\x1b[2J\x1b[3J\x1b[H…", used while the answer is taller than the screen)
  // does not: it erases its 11 old rows upward from the input row, 3 rows too high, and
  // rewrites from there. Lines 098-100 of the second answer are erased on the screen itself
  // and a stale copy of the footer stays below (seen in the test's cast, event by event, with
  // a plain xterm; the first answer is drawn whole).
  gemini: "Gemini CLI 0.61 erases lines 098-100 of a 100-line answer itself (its redraw after a full-screen redraw starts 3 rows too high; seen on the second answer every run, on the first in one CI run)",
};

export function longAnswerTests(ai: AiClis, cli: AiCli): void {
  const drawnWrong = SECOND_LONG_ANSWER_DRAWN_WRONG[cli];
  if (drawnWrong) console.log(`${cli} second 100-line answer: its lines are not checked — ${drawnWrong}`);
  const transcript = TRANSCRIPT[cli];
  const partial = ALT_SCREEN[cli] && !transcript;
  test.skipIf(skipReason(cli) !== null)(`${cli}: a 100-line answer ends done; the response is ${partial ? "what is on screen, complete: false" : transcript ? "whole from the CLI's transcript (agreeing with the screen), complete: true" : "whole across the scrollback, complete: true"}`, async () => {
    const name = `${cli}-long`;
    const setup = await ai.start(cli, name);
    const all = Array.from({ length: 100 }, (_, i) => i + 1);
    try {
      const turn = await ai.tw(["turn", "--session", name, "long answer please", "--timeout", String(LONG)], setup);
      expect(turn.turn.state).toBe("done");
      expect(turn.response.text).toContain("END OF THE LONG ANSWER.");
      if (partial) {
        expect(turn.response.complete).toBe(false);
        expect(turn.response.why).toMatch(/scrolled above/);
        expect(longLines(turn.response.text).at(-1)).toBe(100);
      } else if (transcript) {
        expect(longLines(turn.response.text)).toEqual(all);
        expect(turn.response.complete).toBe(true);
      } else {
        // A CLI that erases rows of its own answer (see SECOND_LONG_ANSWER_DRAWN_WRONG) may do so
        // on the first answer too (Gemini CLI did in one CI run): the rows it kept are in order.
        const lines = longLines(turn.response.text);
        if (drawnWrong) expect(lines).toEqual(all.slice(0, lines.length));
        else expect(lines).toEqual(all);
        expect(turn.response.complete).toBe(true);
      }
      // The raw steps: a second long answer, `wait --ref @X.done` fires on its end mark.
      await ai.tw(["type", "--session", name, "another long answer please"], setup);
      await ai.tw(["wait", "--session", name, "--settled", "150"], setup);
      await ai.tw(["press", "--session", name, "Enter"], setup);
      const { done } = await ai.waitDone(cli, name, setup);
      expect(done.fired).toEqual([`ref @${cli}.done`]);
      const response = await ai.node(name, `@${cli}.response`, setup) as any;
      const evidence = response.evidence.find((e: any) => e.source === "turn");
      expect(evidence).toMatchObject({ turn: turn.turn.id + 1 });
      if (drawnWrong) return;
      expect(evidence.complete).toBe(!partial);
      if (!partial) expect(longLines(response.value)).toEqual(all);
      if (transcript) {
        expect(evidence.transcript).toMatch(transcript);
        expect(evidence.transcript.startsWith(setup.env.HOME!)).toBe(true);
        expect(evidence.fact).toMatch(/agrees with the answer on screen/);
      }
    } finally {
      await ai.tw(["kill", "--session", name], setup);
    }
  }, LONG * 3);
}

/** A resize while a long answer streams: the turn still ends done with its answer read from its
 * start. Widened, the rows Gemini CLI drew before keep their width: its prompt's background bar
 * covered 50 of 120 columns, was not "mostly" that background, and the answer anchored after it
 * was never found (the turn stayed running; 2 of 8 rounds, each time 50→120 columns). Narrow
 * first, so that the prompt is drawn narrow. */
export function resizeTests(ai: AiClis, cli: AiCli): void {
  test.skipIf(skipReason(cli) !== null)(`${cli}: widened while a 100-line answer streams, the turn ends done with the answer from its first line`, async () => {
    const name = `${cli}-resize`;
    const setup = await ai.start(cli, name);
    try {
      await ai.tw(["resize", "--session", name, "50", "20"], setup);
      const first = await ai.tw(["turn", "--session", name, "long answer please", "--timeout", String(LONG)], setup);
      expect(first.turn.state).toBe("done");
      await ai.tw(["type", "--session", name, "another long answer please"], setup);
      await ai.tw(["wait", "--session", name, "--settled", "150"], setup);
      await ai.tw(["press", "--session", name, "Enter"], setup);
      await ai.tw(["wait", "--session", name, "--ref", `@${cli}.response`, "--ref-value", "/line 00[2-9]/", "--timeout", String(LONG)], setup);
      await ai.tw(["resize", "--session", name, "120", "35"], setup);
      const ended = await ai.tw(["wait", "--session", name, "--turn", String(first.turn.id + 1), "--turn-state", "done,error,interrupted,denied", "--timeout", "60000"], setup);
      expect(ended.turn.state).toBe("done");
      const response = await ai.node(name, `@${cli}.response`, setup);
      expect(longLines(response?.value ?? "")[0]).toBe(1);
      expect(response?.value).toContain("END OF THE LONG ANSWER.");
    } finally {
      await ai.tw(["kill", "--session", name], setup);
    }
  }, LONG * 3);
}

/** Emoji sequences, flags, CJK and combining marks: the turn ends done only with the whole
 * answer drawn (a done fired early comes with a cut answer), and no character is lost in the
 * response or the screen's text. Text is compared in NFC (a CLI may compose é; that loses
 * nothing) and across line breaks (a CLI wraps long rows). */
export function widthTests(ai: AiClis, cli: AiCli): void {
  test.skipIf(skipReason(cli) !== null)(`${cli}: 👍🏽 👨‍👩‍👧 🇫🇷 漢字 and combining marks: done with the whole answer, no character lost`, async () => {
    const name = `${cli}-wide`;
    const setup = await ai.start(cli, name);
    const flat = (text: string) => text.normalize("NFC").replace(/\s+/g, " ").trim();
    try {
      const turn = await ai.tw(["turn", "--session", name, "wide answer please", "--timeout", String(LONG)], setup);
      expect(turn.turn.state).toBe("done");
      expect(flat(turn.response.text)).toBe(flat(WIDE_ANSWER));
      const text = await ai.tw(["snapshot", "--session", name], setup);
      expect(flat(text.text)).toContain(flat(WIDE_ANSWER).slice(-60));
    } finally {
      await ai.tw(["kill", "--session", name], setup);
    }
  }, LONG * 2);
}

/** An answer in two messages (a markdown table, then two bullets): @X.response holds both
 * whole — the table's rows across its rules and both bullets — not only the last message.
 * (For the CLIs on the chat-completions and Gemini APIs the server's two text parts are one
 * message, joined without a break: garbled markdown, so only Codex and Claude Code run it.) */
export function tableAndListTests(ai: AiClis, cli: AiCli): void {
  test.skipIf(skipReason(cli) !== null)(`${cli}: an answer of a table and two bullets in two messages is whole in @${cli}.response`, async () => {
    const name = `${cli}-table`;
    const setup = await ai.start(cli, name);
    try {
      const turn = await ai.tw(["turn", "--session", name, "table and list please", "--timeout", String(LONG)], setup);
      expect(turn.turn.state).toBe("done");
      const response = await ai.node(name, `@${cli}.response`, setup);
      for (const text of [turn.response.text as string, response?.value ?? ""]) {
        const rows = text.split("\n").map((row) => row.trim());
        expect(rows[0]).toBe("Table first:");
        // Drawn with rules between the rows (Codex) or in a box (Claude Code): "│ alpha │ 1 │".
        for (const cells of [/^\W*Name\W+Count\W*$/, /^\W*alpha\W+1\W*$/, /^\W*beta\W+2\W*$/]) expect(rows.some((row) => cells.test(row))).toBe(true);
        expect(text).toContain("first bullet of the list");
        expect(text.trimEnd().endsWith("second bullet of the list")).toBe(true);
      }
    } finally {
      await ai.tw(["kill", "--session", name], setup);
    }
  }, LONG * 2);
}

/** Which CLIs ask before running a command (Pi runs tools without asking, by design). */
const ASKS_APPROVAL: Record<AiCli, boolean> = { pi: false, codex: true, claude: true, opencode: true, gemini: true };

/** Each CLI's three tests: a chat through its manifest, then a tool call with its effect on
 * disk in the same conversation (one start of the CLI for both: a start is seconds of CPU, and
 * some CLIs keep a core busy while they run), and `ask` over its non-interactive mode. Skipped
 * with the reason when the CLI is not installed. */
export function cliTests(ai: AiClis, cli: AiCli): void {
  const reason = skipReason(cli);
  if (reason) console.log(`skipping ${cli}: ${reason}`);
  const name = `${cli}-chat`;
  let started: Promise<CliSetup> | null = null;
  /** The conversation both interactive tests use, started by whichever runs first. */
  const conversation = () => (started ??= ai.start(cli, name));
  describe.skipIf(reason !== null)(cli, () => {
    test(`${cli}: input focused, a streamed answer, @${cli}.done, the answer read from @${cli}.response`, async () => {
      const setup = await conversation();
      await ai.prompt(cli, name, setup, "say pong please");
      await ai.tw(["wait", "--session", name, "--ref", `@${cli}.done[name~=/done\\./]`, "--timeout", String(LONG)], setup);
      const response = await ai.node(name, `@${cli}.response`, setup);
      expect(response?.value).toBe("pong: the answer streamed in small chunks, done.");
      expect(ai.server.log.some((e) => e.prompt.includes("say pong please"))).toBe(true);
      expect((await ai.node(name, `@${cli}.input`, setup))?.focused).toBe(true);
    }, LONG * 2);

    test(`${cli}: a scripted tool call runs a command${ASKS_APPROVAL[cli] ? " after approval through @" + cli + ".approval" : ""}; its effect is on disk`, async () => {
      const setup = await conversation();
      try {
        await ai.prompt(cli, name, setup, "make the file");
        if (ASKS_APPROVAL[cli]) {
          expect(await ai.approve(cli, name, setup)).toMatch(/^(1\. Yes|1\. Allow once|Allow once)/);
        }
        await ai.tw(["wait", "--session", name, "--ref", `@${cli}.done[name~=/Created made-by-tool/]`, "--timeout", String(LONG)], setup);
        expect(readFileSync(join(setup.cwd, "made-by-tool.txt"), "utf8")).toBe("tool-ran\n");
      } finally {
        await ai.tw(["kill", "--session", name], setup);
      }
    }, LONG * 2);

    test(`ask --via ${cli}`, async () => {
      const setup = setupCli(cli, ai.server.url, mkdtempSync(join(ai.world.dir, `${cli}-ask-`)));
      const result = await ai.tw(["ask", "--via", cli, "say pong now"], setup);
      expect(result).toMatchObject({ via: cli, exitCode: 0, text: "pong: the answer streamed in small chunks, done." });
      expect(result.elapsedMs).toBeGreaterThan(0);
      expect(existsSync(setup.cwd)).toBe(true);
    }, LONG);
  });
}
