// The shell facet: command blocks of an integrated shell (exec, send, blocks, block, status,
// closing), exec by prompt for a shell started without integration, and the status every
// session answers (a program's is "starting" until it exits). The core feeds it the output.
import { writeFileSync } from "node:fs";
import { TuiwrightError } from "../protocol/errors.ts";
import { foregroundGroup, processArgv } from "../runtime/process.ts";
import type { ExitStatusValue, MetaValue } from "../protocol/methods.ts";
import { linearPattern } from "../terminal/linear-pattern.ts";
import type { WaitState } from "../waits/wait-engine.ts";
import type { StartSpec, WorkerOps } from "../link/messages.ts";
import { MaskedFeed } from "../record/secret-mask.ts";
import { requireInteractive } from "../shell/require-interactive.ts";
import { ShellSession } from "../shell/shell-session.ts";
import { execByPrompt, SCROLLBACK_TEXT } from "../shell/prompt-exec.ts";
import type { Facet, SessionCore } from "./session-core.ts";

/** How long output that could begin a secret waits for the rest of it. */
const SECRET_HOLD_MS = 30;
/** Keys the terminal turns into signals for its foreground group: Ctrl-C, Ctrl-Z, Ctrl-\. */
const SIGNAL_KEYS = /[\x03\x1a\x1c]/;
/** How long such a key waits for a just-started program to own the terminal (a builtin such
 * as `read` never does: then the key goes to the shell after this). */
const HANDOVER_BOUND_MS = 2000;

/** How long exec gives a moved cursor to come back to the prompt's end (a Ctrl-C in flight: 1.5 s was too short for zsh on a loaded machine in one CI run). */
const LINE_CLEAR_MS = 3000;

export class ShellFacet implements Facet {
  readonly #core: SessionCore;
  /** Integrated shells only: command blocks. */
  readonly #shell: ShellSession | null;
  /** A shell started without integration: exec falls back to the prompt regex. */
  readonly #plainShell: boolean;
  #plainExecs = 0;
  readonly #streamDecoder = new TextDecoder();
  readonly #shellFeed: MaskedFeed;
  #heldTimer: ReturnType<typeof setTimeout> | null = null;
  /** The shell's state at the screen's parse position (OSC 133 in parse order), which can be
   * behind the tracker (which reads each chunk whole before the screen parses it). */
  readonly #parsed = { inBlock: false, atPrompt: false };
  /** Where the cursor was when the screen parsed the last prompt's end (OSC 133;B), and the
   * screen's size then: while the command line is empty, the cursor is still there. */
  #promptEnd: { line: number; col: number; cols: number; rows: number } | null = null;

  /** Created while the command line holds a secret: the rc keeps that line out of the history file. */
  readonly #historyFlag: string | null;

  constructor(core: SessionCore, shell: StartSpec["shell"]) {
    this.#core = core;
    this.#historyFlag = shell?.nonce ? (shell.historyFlag ?? null) : null;
    this.#shellFeed = new MaskedFeed(core.mask);
    this.#shell = shell?.nonce ? new ShellSession({
      nonce: shell.nonce,
      transcriptDir: shell.transcriptDir,
      fish: shell.kind === "fish",
      kind: shell.kind === "zsh" || shell.kind === "fish" ? shell.kind : "bash",
      ...(shell.continues === undefined ? {} : { continues: shell.continues }),
      type: (text, secret) => core.input(text, secret ? "***" : text),
      flushInput: () => core.flushInput(),
      commandLineEmpty: () => this.#commandLineEmpty(),
      redact: (text) => core.mask.redact(text),
      changed: () => core.notify(),
    }) : null;
    this.#plainShell = shell !== null && shell.nonce === null;
    const nonce = shell?.nonce;
    if (nonce) core.screen.observeOsc(133, (data) => this.#markParsed(data, nonce));
  }

  /** OSC 133 as the screen parses it: whether a command runs, or the shell reads one, there. */
  #markParsed(data: string, nonce: string): void {
    if (!data.endsWith(`;tw=${nonce}`)) return;
    const kind = data.slice(0, data.indexOf(";"));
    if (kind === "C") Object.assign(this.#parsed, { inBlock: true, atPrompt: false });
    else if (kind === "D" || kind === "A") Object.assign(this.#parsed, { inBlock: false, atPrompt: false });
    else if (kind === "B") {
      Object.assign(this.#parsed, { inBlock: false, atPrompt: true });
      const { cols, rows } = this.#core.screen;
      this.#promptEnd = { ...this.#core.screen.cursorInBuffer, cols, rows };
    }
  }

  /** Whether the command line is empty: the screen has parsed the prompt's end and the cursor
   * has not moved from it. A shell still handling a Ctrl-C redraws its prompt a moment later,
   * so a moved cursor is given LINE_CLEAR_MS (each screen change looked at) to come back. */
  #commandLineEmpty(): Promise<boolean | null> {
    const empty = (): boolean | null => {
      // A resize since may have moved the line (reflow), and not every shell draws its prompt's
      // mark again (zsh sends B once per line): no evidence either way.
      const end = this.#promptEnd;
      if (end === null || end.cols !== this.#core.screen.cols || end.rows !== this.#core.screen.rows) return null;
      const at = this.#core.screen.cursorInBuffer;
      return this.#parsed.atPrompt && at.line === end.line && at.col === end.col;
    };
    const now = empty();
    if (now !== false) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (result: boolean | null) => { clearTimeout(timer); stop(); resolve(result); };
      const stop = this.#core.screen.onChange(() => { const seen = empty(); if (seen !== false) done(seen); });
      const timer = setTimeout(() => done(empty()), LINE_CLEAR_MS);
    });
  }

  /** A terminal query is being parsed: whether a program of this shell would read the reply.
   * We parse output a moment after the shell wrote it, so by now the command that asked may
   * have ended and the shell's line editor be reading; a reply then would become part of the
   * next command line. So: never at the prompt (the line editor reads, but it asked nothing);
   * never once the asking command's block is seen to end; and inside a command only while an
   * external program owns the terminal — not the shell itself running a builtin (`printf
   * '\e[6n'`), which may be done already. A reply the program then leaves unread is dropped by
   * the shell itself when its prompt comes back (shell-rc.ts). Else the core's rule decides
   * (query-replies.ts). */
  answersQuery(): boolean | undefined {
    const shell = this.#shell;
    if (!shell) return undefined;
    if (this.#parsed.atPrompt) return false;
    if (this.#parsed.inBlock && (shell.tracker.open === null || foregroundGroup(this.#core.pid) === this.#core.pid)) return false;
    return undefined;
  }

  output(bytes: Uint8Array): void {
    if (!this.#shell) return;
    this.#push(this.#shellFeed.push(this.#streamDecoder.decode(bytes, { stream: true })));
    this.#releaseHeldSoon();
  }

  #push(text: string): void {
    const shell = this.#shell!;
    const wasAtPrompt = shell.tracker.atPrompt;
    shell.push(text);
    // A prompt came or went: the recording gets the fact right after the output that changed it.
    if (shell.tracker.atPrompt !== wasAtPrompt) this.#core.outline.noteFacts();
  }

  /** What the mask holds back (a possible start of a secret) is released if nothing follows
   * within SECRET_HOLD_MS: a secret split across reads arrives at once, and an output wait
   * must not stall on a prompt that happens to end like a secret begins. */
  #releaseHeldSoon(): void {
    if (this.#heldTimer) clearTimeout(this.#heldTimer);
    this.#heldTimer = null;
    if (!this.#shellFeed.holding) return;
    this.#heldTimer = setTimeout(() => {
      this.#heldTimer = null;
      if (!this.#core.ended && this.#shell) this.#push(this.#shellFeed.flush());
    }, SECRET_HOLD_MS);
  }

  ended(exit: ExitStatusValue): void {
    if (this.#shell) this.#shell.push(this.#shellFeed.flush());
    this.#shell?.ended(exit.code);
  }

  dispose(): void {
    if (this.#heldTimer) clearTimeout(this.#heldTimer);
    this.#shell?.dispose();
  }

  atPrompt(): boolean | null {
    return this.#shell?.tracker.atPrompt ?? null;
  }

  /** A secret typed at the prompt goes into the command line, and so into the history. */
  secretTyped(): void {
    const mode = this.#shell?.tracker.mode();
    if (mode === "idle" || mode === "continuation") this.#keepLineOutOfHistory();
  }

  #keepLineOutOfHistory(): void {
    if (!this.#historyFlag) return;
    try {
      writeFileSync(this.#historyFlag, "", { mode: 0o600 });
    } catch {
      // The rc directory is gone (a crashed predecessor's clean-up): the line may be kept.
    }
  }

  waitOutput(): WaitState["output"] {
    const shell = this.#shell;
    return shell ? {
      end: shell.stream.end,
      start: shell.earliest,
      slice: (from, to) => shell.slice(from, to),
      promptAfter: (cursor) => shell.tracker.promptAfter(cursor),
      interactiveEndAfter: (cursor) => shell.tracker.interactiveEndAfter(cursor),
    } : null;
  }

  meta(): Partial<MetaValue> {
    return this.#shell?.transcript ? { transcript: this.#shell.transcript } : {};
  }

  #requireShell(what: string): ShellSession {
    if (!this.#shell) {
      throw new TuiwrightError("usage", `${what} needs a shell session with integration: start one with \`spawn --shell\``, {
        hint: "without integration, type the command and wait for the prompt with --regex",
      });
    }
    return this.#shell;
  }

  async exec(params: WorkerOps["exec"][0]): Promise<WorkerOps["exec"][1]> {
    const core = this.#core;
    core.requireRunning("exec");
    if (!this.#shell && this.#plainShell) {
      if (params.interactive || params.cwd !== undefined) throw new TuiwrightError("usage", "--interactive and --cwd need shell integration (this shell was started with --no-integration)");
      core.recorder?.marker(`exec ${JSON.stringify(params.command)} (no integration)`);
      return execByPrompt({
        wait: (spec, anchor) => core.waitFor(spec, anchor),
        revision: () => core.screen.revision,
        type: (text) => core.input(text),
        flushInput: () => core.flushInput(),
        text: () => core.screen.text(SCROLLBACK_TEXT),
      }, params.command, { timeoutMs: params.timeoutMs, maxOutput: params.maxOutput, seq: ++this.#plainExecs, cwd: core.screen.cwd });
    }
    const shell = this.#requireShell("exec");
    // A command line naming a secret is kept out of the history like one it was typed into.
    if (core.mask.redact(params.command) !== params.command) this.#keepLineOutOfHistory();
    core.recorder?.marker(`exec ${JSON.stringify(params.command)}${params.interactive ? " (interactive)" : ""}`);
    return shell.exec({
      command: params.command, timeoutMs: params.timeoutMs, maxOutput: params.maxOutput, queue: params.queue, interactive: params.interactive,
      ...(params.cwd === undefined ? {} : { cwd: params.cwd }),
    });
  }

  async send(data: string, secret = false, block?: number): Promise<WorkerOps["send"][1]> {
    const shell = this.#requireShell("send");
    this.#core.requireRunning("send");
    if (block !== undefined) requireInteractive(shell.tracker.open, shell.tracker.count, block, "nothing was sent");
    if (SIGNAL_KEYS.test(data)) await this.#untilProgramOwnsTerminal(shell);
    if (secret) this.#core.keepSecret(data);
    const shown = secret ? "***" : data.length > 40 ? `${data.slice(0, 39)}…` : data;
    this.#core.recorder?.marker(`send ${JSON.stringify(shown)}`);
    const cursor = shell.send(data, secret);
    return { bytes: Buffer.byteLength(data), cursor };
  }

  /** A signal key goes to the terminal's foreground group as it is when the key arrives. Right
   * after a block begins the shell may not have handed the terminal to the program yet, and
   * the program would never see the key (a Ctrl-C sent the moment exec --interactive answers
   * reached the shell, or the shell's child before it became `cat`, and `cat` ran on): wait
   * until the program owns it, the block ends, or the bound passes. Read from the process
   * table: the terminal announces no such change. */
  async #untilProgramOwnsTerminal(shell: ShellSession): Promise<void> {
    const deadline = performance.now() + HANDOVER_BOUND_MS;
    const shellArgv = processArgv(this.#core.pid)?.join("\0");
    while (shell.tracker.open !== null && !this.#programOwnsTerminal(shellArgv) && performance.now() < deadline) await Bun.sleep(2);
  }

  /** The terminal's foreground group is another than the shell's and its leader has exec'd its
   * program (a forked shell child still carries the shell's argv, and ignores the key). */
  #programOwnsTerminal(shellArgv: string | undefined): boolean {
    const shellPid = this.#core.pid;
    const group = foregroundGroup(shellPid);
    if (group === null || group === shellPid) return false;
    const leader = processArgv(group);
    return leader !== null && leader.join("\0") !== shellArgv;
  }

  /** The open block is about to end because of `end` (cancelled) or `reset`. */
  closing(reason: WorkerOps["closing"][0]["reason"]): WorkerOps["closing"][1] {
    this.#shell?.endingBecause(reason);
    return { reason, ...(reason === "reset" && this.#shell ? { continues: this.#shell.continuation() } : {}) };
  }

  status(): WorkerOps["status"][1] {
    const core = this.#core;
    const exit = core.exit;
    const open = this.#shell?.tracker.open ?? null;
    return {
      integration: this.#shell !== null,
      mode: exit ? "exited" : this.#shell?.mode() ?? (this.#plainShell && /[$#%>]$/.test(core.screen.text()) ? "idle" : "starting"),
      ...(exit ? { exitCode: exit.code, signal: exit.signal } : {}),
      pid: core.pid,
      block: open ? { seq: open.seq, command: open.command, interactive: open.interactive, cursor: open.startOffset } : null,
      blocks: this.#shell?.tracker.count ?? 0,
      cursor: this.#shell?.stream.end ?? 0,
      cwd: this.#shell?.cwd ?? core.screen.cwd,
    };
  }

  blocks(params: WorkerOps["blocks"][0]): WorkerOps["blocks"][1] {
    const shell = this.#requireShell("blocks");
    const grep = params.grep === undefined ? null : linearPattern(params.grep); // over whole outputs: linear time
    let list = shell.tracker.blocks.filter((b) => b.endOffset !== null || b === shell.tracker.open);
    if (grep) list = list.filter((b) => grep.test(b.command) || grep.test(shell.stream.slice(b.startOffset, b.endOffset ?? shell.stream.end)));
    if (params.last !== undefined) list = list.slice(-params.last);
    return {
      blocks: list.map((b) => ({ seq: b.seq, command: b.command, exitCode: b.exitCode, startedAt: b.startedAt, endedAt: b.endedAt, cwd: b.cwd, outputChars: (b.endOffset ?? shell.stream.end) - b.startOffset })),
    };
  }

  block(params: WorkerOps["block"][0]): WorkerOps["block"][1] {
    const shell = this.#requireShell("block");
    const block = shell.block(params.seq);
    if (!block) throw new TuiwrightError("no-such-file", `there is no block ${params.seq} (this session has ${shell.tracker.count})`);
    return shell.result(block, params.maxOutput);
  }
}
