// One live session's core: a program on a PTY feeding a headless screen, with flow control, the
// recorder, the wait engine and input. What only some sessions have comes from facets
// (shell-facet.ts, browser-facet.ts; snapshots: snapshot-facet.ts) through the Facet hooks below;
// the core knows none of them. A session worker hosts exactly one core (ops.ts assembles it).
import { DEFAULT_FLOW, FlowControl } from "../pty/flow-control.ts";
import { spawnPty, type Pty } from "../pty/pty.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import type { ExitStatusValue, MetaValue, WaitSpec } from "../protocol/methods.ts";
import { encodeKeys } from "../terminal/keys.ts";
import { bracketed, pasteText } from "../terminal/paste-guard.ts";
import { requireText } from "../protocol/text-input.ts";
import { encodeClick, encodeWheel, type MouseButton, type MouseModes } from "../terminal/mouse.ts";
import { ReplyGate } from "../terminal/query-replies.ts";
import { Screen } from "../terminal/screen.ts";
import { LIVE_WIDTHS } from "../terminal/widths.ts";
import { WaitEngine, type WaitState } from "../waits/wait-engine.ts";
import type { SessionEvent, StartSpec, WorkerOps } from "../link/messages.ts";
import type { OutlineNode } from "../outline/types.ts";
import type { FdChannel } from "../pty/fd-channel.ts";
import { SessionOutline } from "./session-outline.ts";
import { BellThrottle } from "./bell-throttle.ts";
import { CastRecorder } from "../record/cast-recorder.ts";
import { SecretMask } from "../record/secret-mask.ts";
import { foregroundSleeping, waitingForInput } from "../runtime/input-wait.ts";
import { flushTerminalInput } from "../runtime/tty-input-flush.ts";
import { foregroundGroup } from "../runtime/process.ts";
import { FAILED_MARKER, markerLabel } from "../record/marker-label.ts";

// After the program exits, output may still be in flight from its PTY; we wait for EOF, but a
// background child holding the PTY open must not delay "ended" for ever.
const EOF_GRACE_MS = 250;
/** spawn returns once the program has drawn and then been still this long. */
const FIRST_STILL_MS = 50;
/** …or has drawn nothing and been in a timed sleep this long. */
const FIRST_IDLE_MS = 300;
/** The first screen is looked for after each output, then every 1 ms for the next FAST_CHECKS
 * (a shell goes to read its terminal a moment after its prompt is out: measured 0.3-3 ms under
 * load, and doubling intervals overshot it by up to 3 ms), then at intervals doubling up to 5 ms. */
const CHECK_FIRST_MS = 1;
const FAST_CHECKS = 8;
const CHECK_MAX_MS = 5;
/** What the session reports to its host. */
export type SessionEvents = (event: SessionEvent) => void;

export type ActionReply = WorkerOps["press"][1];
/** Where a wheel left the screen (the scroll method's result without its `ok`). */
export type Scrolled = Omit<WorkerOps["scroll"][1], "ok">;
type Aim = { data: string; target: { ref: string; row: number; col: number; via?: "click" | "focus" } };
type GetWhat = WorkerOps["get"][0]["what"];

/** What a facet adds to the core; every hook is optional and called in the order facets attached. */
export type Facet = {
  /** Program output, exactly as the screen is fed it (after flow control). */
  output?(bytes: Uint8Array): void;
  /** The screen changed: called before waits are checked again and the host is told. */
  changed?(): void;
  /** Input about to be sent, before anything happens: throws to refuse it. */
  refuse?(data: string): void;
  /** Input being sent now (the aim's bytes and the data together). */
  sending?(input: string): void;
  /** A --secret is about to be typed or sent. */
  secretTyped?(): void;
  /** What the facet adds to `meta`. */
  meta?(): Partial<MetaValue>;
  /** The facet's answer to `get`, or undefined to leave it to the core. */
  get?(what: GetWhat): { value: unknown } | undefined;
  /** An integrated shell: whether it sits at its prompt (the outline reads it); null: unknown. */
  atPrompt?(): boolean | null;
  /** Asked while a terminal query is parsed: false when no program would read the reply now
   * (query-replies.ts); undefined to leave it to the others. */
  answersQuery?(): boolean | undefined;
  /** The outline as this facet knows it better (a browser: the engine's accessibility nodes). */
  decorate?(nodes: OutlineNode[], revision: number): OutlineNode[];
  /** An integrated shell's output stream, for waits on output. */
  waitOutput?(): WaitState["output"];
  /** The program exited and all its output is parsed, before the recording closes. */
  ended?(exit: ExitStatusValue): void;
  dispose?(): void;
};

export class SessionCore {
  readonly pid: number;
  readonly argv: string[];
  /** Resolves when the program has exited (its output may still be in flight). */
  readonly whenExited: Promise<ExitStatusValue>;
  readonly #pty: Pty;
  readonly screen: Screen;
  readonly #flow: FlowControl;
  readonly #waits: WaitEngine;
  readonly outline: SessionOutline;
  readonly recorder: CastRecorder | null;
  #bells!: BellThrottle;
  readonly #facets: Facet[] = [];
  #replies!: ReplyGate;
  readonly #events: SessionEvents;
  #exit: ExitStatusValue | null = null;
  #ptyClosed = false;
  #eofGraceOver = false;
  #ended = false;
  #lastOutputAt: number | null = null;
  /** When input was last sent: "settled" counts from it too (a typed text's echo is on its way). */
  #lastInputAt = 0;
  #dropping = false;
  /** When anything was last written to the program (input, a query's reply). */
  #lastWriteAt: number | null = null;
  /** Told each time output has been parsed (the first-screen check listens while it runs). */
  #parsedListener: (() => void) | null = null;
  /** Secrets typed or sent with --secret (here or in another session of the daemon): masked in
   * the cast, the shell transcript and whatever leaves the session. */
  readonly mask = new SecretMask();

  constructor(spec: StartSpec, events: SessionEvents) {
    // Before the program starts: files it writes are modified after this (its transcript).
    const startedAt = Date.now();
    this.#events = events;
    for (const secret of spec.secrets) this.mask.add(secret);
    this.recorder = spec.cast === null ? null : CastRecorder.create(spec.cast, {
      cols: spec.cols,
      rows: spec.rows,
      command: spec.argv.join(" "),
      title: spec.name,
      env: { TERM: spec.env.TERM, SHELL: spec.env.SHELL },
      widths: LIVE_WIDTHS,
    }, this.mask, spec.maxCastBytes);
    this.#pty = spawnPty({
      argv: spec.argv,
      cwd: spec.cwd,
      env: spec.env,
      cols: spec.cols,
      rows: spec.rows,
      onData: (bytes) => this.#output(bytes),
      onClose: () => { this.#ptyClosed = true; this.#checkEnded(); },
      cgroup: spec.cgroup,
      taskLimit: spec.taskLimit,
      channel: spec.browser,
    });
    // Made while the program starts: its output is read on a later turn of the loop.
    this.screen = new Screen({
      cols: spec.cols,
      rows: spec.rows,
      scrollback: spec.scrollback,
      widths: LIVE_WIDTHS,
      reply: (data) => this.#write(data),
      // Query replies only to a program that reads them (query-replies.ts).
      queryReply: (data) => this.#replies.offer(data),
    });
    this.#replies = new ReplyGate({
      verdict: () => (this.#ask((facet) => (facet.answersQuery?.() === false ? false : undefined)) === false ? "drop" : this.#pty.canonicalEcho ? "cooked" : "answer"),
      owner: () => foregroundGroup(this.pid),
      send: (data) => this.#write(data),
    });
    this.pid = this.#pty.pid;
    this.argv = spec.argv;
    this.whenExited = this.#pty.exited;
    this.#flow = new FlowControl(this.#pty, DEFAULT_FLOW);
    this.outline = new SessionOutline(this.screen, spec.argv, this.pid, () => this.#ask((facet) => facet.atPrompt?.()) ?? null, (facts) => this.recorder?.facts(facts),
      (nodes, revision) => this.#facets.reduce((decorated, facet) => facet.decorate?.(decorated, revision) ?? decorated, nodes),
      { env: spec.env, startedAt: startedAt });
    if (this.recorder) this.recorder.beforeMarker = () => this.outline.noteFacts();
    this.#waits = new WaitEngine(() => ({
      screen: this.screen,
      exit: this.#exit,
      ended: this.#ended,
      outline: () => this.outline.current().nodes,
      output: this.#ask((facet) => facet.waitOutput?.() ?? undefined) ?? null,
      turns: this.#turnsForWaits,
      lastInputAt: this.#lastInputAt,
    }));
    this.screen.onChange(() => {
      this.outline.changed();
      for (const facet of this.#facets) facet.changed?.();
      this.#waits.notify();
      this.#events({ kind: "changed", revision: this.screen.revision, hash: this.screen.hash, title: this.screen.title });
    });
    this.screen.onFrameEnd(() => this.#waits.notify());
    const bells = new BellThrottle(() => this.#events({ kind: "bell", revision: this.screen.revision, hash: this.screen.hash }));
    this.#bells = bells;
    this.screen.onBell(() => bells.ring());
    void this.#pty.exited.then((exit) => {
      this.#exit = exit;
      setTimeout(() => { this.#eofGraceOver = true; this.#checkEnded(); }, EOF_GRACE_MS);
      this.#checkEnded();
    });
  }

  /** The program's private channel on its fds 3/4 (browser sessions: the engine's pipe), or null. */
  get channel(): FdChannel | null {
    return this.#pty.channel;
  }
  readonly #turnsForWaits = {
    get: (id: number) => { const turns = this.outline.turns; const turn = turns?.get(id); return turn ? turns!.info(turn) : null; },
    latestId: () => this.outline.turns?.latest?.id ?? 0,
    root: () => this.outline.turns?.root ?? null,
    notTaken: () => {
      const turns = this.outline.turns;
      if (turns?.latest?.state !== "submitted") return null;
      const stuck = turns.notTaken(this.outline.current().nodes);
      return stuck ? { turn: turns.info(stuck.turn), input: stuck.input } : null;
    },
  };

  /** Adds a facet's hooks; facets attach right after the core is made, before any output is read. */
  attach<F extends Facet>(facet: F): F {
    this.#facets.push(facet);
    return facet;
  }

  /** The first facet's answer that is not undefined. */
  #ask<T>(question: (facet: Facet) => T | undefined): T | undefined {
    for (const facet of this.#facets) {
      const answer = question(facet);
      if (answer !== undefined) return answer;
    }
    return undefined;
  }

  get exit(): ExitStatusValue | null {
    return this.#exit;
  }

  /** The program exited and all its output has been parsed. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Something a wait may be waiting for changed without the screen changing (shell output). */
  notify(): void {
    this.#waits.notify();
  }

  /** Waits, for facets that wait on the session's behalf (exec without integration). */
  waitFor(...args: Parameters<WaitEngine["wait"]>): ReturnType<WaitEngine["wait"]> {
    return this.#waits.wait(...args);
  }

  /** A secret typed or sent here: masked from now on, here and (the daemon passes it on) in
   * the daemon's other sessions, which may draw it too (fish suggests it from history). */
  keepSecret(secret: string): void {
    this.mask.add(secret);
    for (const facet of this.#facets) facet.secretTyped?.();
    this.#events({ kind: "secret", secret });
  }

  /** Discards input nobody has read yet (before a command is typed into a shell); false when
   * it cannot be done here. */
  flushInput(): Promise<boolean> {
    return Promise.resolve(flushTerminalInput(this.pid));
  }

  /** Text typed into the program as is, recorded as `recorded` (a secret as ***). */
  input(text: string, recorded: string = text): void {
    this.recorder?.input(recorded);
    this.#lastInputAt = performance.now();
    this.screen.input(text); // reaches the PTY through the screen's reply channel
  }

  #output(bytes: Uint8Array): void {
    this.#lastOutputAt = performance.now();
    if (!this.#flow.received(bytes.length)) {
      if (!this.#dropping) {
        this.#dropping = true;
        const gap = "\r\n\x1b[7m[tuiwright: output dropped: the program ignores flow control]\x1b[0m\r\n";
        this.recorder?.output(new TextEncoder().encode(gap));
        void this.screen.write(gap);
      }
      return;
    }
    this.#dropping = false;
    this.recorder?.output(bytes); // exactly what the screen is fed
    for (const facet of this.#facets) facet.output?.(bytes);
    void this.screen.write(bytes).then(() => {
      this.#flow.parsed(bytes.length);
      if (this.#exit) this.#checkEnded();
      this.#parsedListener?.();
    });
  }

  #write(data: string | Uint8Array): void {
    this.#lastWriteAt = performance.now();
    this.#pty.write(data);
  }

  #checkEnded(): void {
    if (this.#ended || !this.#exit) return;
    if (!this.#ptyClosed && !this.#eofGraceOver) return;
    if (this.#flow.backlog > 0) return;
    this.#ended = true;
    for (const facet of this.#facets) facet.ended?.(this.#exit);
    this.recorder?.exit(this.#exit.code, this.#exit.signal);
    this.recorder?.close();
    this.#pty.close();
    this.#waits.notify();
    this.#events({ kind: "ended", exit: this.#exit });
  }

  requireRunning(action: string): void {
    if (this.#exit) {
      throw new TuiwrightError("session-exited", `cannot ${action}: the program has exited (${describeExit(this.#exit)})`);
    }
  }

  meta(): MetaValue {
    const screen = this.screen;
    const added: Partial<MetaValue> = {};
    for (const facet of this.#facets) Object.assign(added, facet.meta?.());
    return {
      cols: screen.cols,
      rows: screen.rows,
      cursor: screen.cursor,
      title: screen.title,
      cwd: screen.cwd,
      altScreen: screen.altScreen,
      revision: screen.revision,
      hash: screen.hash,
      exit: this.#exit,
      lastOutputAgeMs: this.#lastOutputAt === null ? null : Math.round(performance.now() - this.#lastOutputAt),
      modes: screen.modes,
      droppedBytes: this.#flow.dropped,
      flowPauses: this.#flow.pauses,
      recording: this.recorder ? { path: this.recorder.path, error: this.recorder.error, bytes: this.recorder.bytes, maxBytes: this.recorder.maxBytes || null, full: this.recorder.full } : null,
      foreground: this.#exit ? null : this.outline.foreground(),
      ...added,
    };
  }

  async scroll(params: WorkerOps["scroll"][0]): Promise<Scrolled> {
    this.requireRunning("scroll");
    const row = params.row ?? Math.floor(this.screen.rows / 2);
    const col = params.col ?? Math.floor(this.screen.cols / 2);
    const data = encodeWheel(row, col, params.delta, this.#mouseAt(row, col));
    // Settled is measured from the wheel: the page has stopped moving (or never moved).
    const wait: WaitSpec | undefined = params.settleMs > 0 ? { settledMs: params.settleMs, mode: "any", timeoutMs: params.settleMs + 30_000 } : undefined;
    const { revisionBefore, revisionAfter } = await this.act(data, wait, undefined, { label: `scroll ${params.delta}` });
    return { revisionBefore, revisionAfter };
  }

  /** Text is inert unless a key is named (text-input.ts); a paste leaves controls out (paste-guard.ts). */
  async type(params: WorkerOps["type"][0]): Promise<ActionReply> {
    if (params.paste && params.raw) throw new TuiwrightError("usage", "paste and raw do not go together: a paste leaves control characters out, raw sends them");
    if (!params.paste && !params.raw) requireText(params.text);
    this.requireRunning("type");
    const pasted = params.paste ? pasteText(params.text) : null;
    const text = pasted?.text ?? params.text;
    const inBrackets = pasted !== null && this.screen.modes.bracketedPaste;
    const data = inBrackets ? bracketed(text) : text;
    const shown = params.secret ? "***" : params.text;
    if (params.secret) this.keepSecret(text);
    const reply = await this.act(data, params.wait, this.#aimInput(params.to, params.revision), { label: markerLabel("type", shown, params.wait), secret: params.secret });
    return pasted ? { ...reply, controlsRemoved: pasted.removed, bracketed: inBrackets } : reply;
  }

  async press(params: WorkerOps["press"][0]): Promise<ActionReply> {
    const data = encodeKeys(params.keys, this.screen.modes);
    this.requireRunning("press keys");
    return this.act(data, params.wait, this.#aimInput(params.to, params.revision), { label: markerLabel("press", params.keys.join(" "), params.wait) });
  }

  async click(params: WorkerOps["click"][0]): Promise<ActionReply> {
    this.requireRunning("click");
    if (params.target === undefined && (params.row === undefined || params.col === undefined)) {
      throw new TuiwrightError("usage", "click needs a target (ref or selector) or both row and col");
    }
    const aim = params.target !== undefined ? this.#aim(params.target, params.revision, params.button)! : this.#clickAt(params.row!, params.col!, "cell", params.button);
    const where = params.target ?? `${params.row},${params.col}`;
    return this.act("", params.wait, aim, { label: markerLabel("click", where, params.wait) });
  }

  /** A click on the target's centre (checked, so a stale ref never clicks the wrong thing). */
  #aim(target: string | undefined, revision: number | undefined, button: MouseButton = "left"): Aim | undefined {
    if (target === undefined) return undefined;
    this.screen.sync();
    const node = this.outline.resolve(target, revision);
    const row = node.bbox.row + Math.floor((node.bbox.rows - 1) / 2);
    const col = node.bbox.col + Math.floor((Math.max(1, node.bbox.cols) - 1) / 2);
    return this.#clickAt(row, col, node.ref, button);
  }

  /**
   * Input aimed at a node (`--to`). With mouse input the node is clicked first, as a click
   * would; without it nothing can move the focus, so the node must already take the keys: an
   * input, or focused. The target says which happened (`via`).
   */
  #aimInput(target: string | undefined, revision: number | undefined): Aim | undefined {
    if (target === undefined) return undefined;
    if (this.screen.modes.mouseTracking !== "none") {
      const aim = this.#aim(target, revision)!;
      return { data: aim.data, target: { ...aim.target, via: "click" } };
    }
    this.screen.sync();
    const node = this.outline.resolve(target, revision);
    if (node.role !== "input" && !node.focused) {
      throw new TuiwrightError("bad-data", `${target} (${node.ref}, ${node.role} ${JSON.stringify(node.name.length > 40 ? `${node.name.slice(0, 39)}…` : node.name)}) is not an input and not focused, and the program has not turned on mouse input, so nothing can move the keyboard there`, {
        hint: "aim at the focused node ([focused]) or an input, or send the keys without --to",
        details: { ref: node.ref, role: node.role },
      });
    }
    return { data: "", target: { ref: node.ref, row: node.bbox.row, col: node.bbox.col, via: "focus" } };
  }

  #clickAt(row: number, col: number, ref: string, button: MouseButton): Aim {
    const data = encodeClick(row, col, button, this.#mouseAt(row, col));
    return { data, target: { ref, row, col } };
  }

  /** The mouse protocol the program asked for, once the cell is known to be on the screen. */
  #mouseAt(row: number, col: number): MouseModes {
    if (row >= this.screen.rows || col >= this.screen.cols) {
      throw new TuiwrightError("bad-data", `cell ${row},${col} is outside the ${this.screen.cols}x${this.screen.rows} screen`);
    }
    return { tracking: this.screen.modes.mouseTracking, encoding: this.screen.mouseEncoding };
  }

  /** Sends input (an aimed click first), records it, and waits if asked: every input path ends here. */
  async act(data: string, wait: WaitSpec | undefined, aim: Aim | undefined, record: { label: string; secret?: boolean }): Promise<ActionReply> {
    // A facet may refuse the input before anything happens (a browser: bytes Carbonyl cannot take).
    for (const facet of this.#facets) facet.refuse?.(data);
    const revisionBefore = this.screen.revision;
    if (wait?.turn === "last") {
      const submission = this.outline.submission((aim?.data ?? "") + data);
      if (typeof submission === "string") throw new TuiwrightError("usage", `waiting for the turn this input opens, but it submits no prompt: ${submission}`, { hint: "type the prompt first (or use `turn TEXT`), then press Enter with --wait-turn last" });
    }
    // Compile the wait first so a bad condition fails before anything is sent.
    const waiting = wait ? this.#waits.wait(wait, { revision: revisionBefore, at: performance.now() }) : undefined;
    const input = (aim?.data ?? "") + data;
    this.recorder?.marker(record.label);
    this.recorder?.input(record.secret ? (aim?.data ?? "") + "***" : input);
    for (const facet of this.#facets) facet.sending?.(input);
    this.outline.sending(input);
    this.#lastInputAt = performance.now();
    this.screen.input(input); // reaches the PTY through the screen's reply channel
    const bytes = Buffer.byteLength(input);
    const target = aim ? { target: aim.target } : {};
    if (!waiting) return { bytes, revisionBefore, revisionAfter: this.screen.revision, ...target };
    const result = await this.markFailure(waiting, record.label);
    return { bytes, revisionBefore, revisionAfter: result.revision, wait: result, ...target };
  }

  /** Input the PTY does not carry (a browser engine's input events): recorded as `recorded`
   * (the text typed, or nothing for keys and clicks: the marker names them), delivered by `send`,
   * then waited on like any action. */
  async actVia(send: () => Promise<void>, wait: WaitSpec | undefined, record: { label: string; recorded: string }, target?: Aim["target"]): Promise<ActionReply> {
    const revisionBefore = this.screen.revision;
    const waiting = wait ? this.#waits.wait(wait, { revision: revisionBefore, at: performance.now() }) : undefined;
    this.recorder?.marker(record.label);
    if (record.recorded !== "") this.recorder?.input(record.recorded);
    try {
      await send();
    } catch (error) {
      waiting?.catch(() => undefined); // the action failed; its wait is moot
      throw error;
    }
    const bytes = Buffer.byteLength(record.recorded);
    const aimed = target ? { target } : {};
    if (!waiting) return { bytes, revisionBefore, revisionAfter: this.screen.revision, ...aimed };
    const result = await this.markFailure(waiting, record.label);
    return { bytes, revisionBefore, revisionAfter: result.revision, wait: result, ...aimed };
  }

  /** A wait that times out (or outlives its program) gets a `failed: LABEL (…)` marker after its
   * own, so a report shows it as a failure rather than an ordinary step. */
  markFailure<T>(waiting: Promise<T>, label: string): Promise<T> {
    return waiting.catch((error: unknown) => {
      const name = error instanceof TuiwrightError ? error.errorName : null;
      if (name === "timeout" || name === "session-exited") this.recorder?.marker(`${FAILED_MARKER}${label} (${name === "timeout" ? "timed out" : "the program exited"})`);
      throw error;
    });
  }

  resize(size: { cols: number; rows: number }): { cols: number; rows: number; revision: number } {
    this.screen.resize(size.cols, size.rows);
    if (!this.#exit) this.#pty.resize(size.cols, size.rows);
    this.recorder?.resize(this.screen.cols, this.screen.rows);
    this.#events({ kind: "resized", cols: this.screen.cols, rows: this.screen.rows, revision: this.screen.revision, hash: this.screen.hash });
    return { cols: this.screen.cols, rows: this.screen.rows, revision: this.screen.revision };
  }

  get(what: GetWhat): unknown {
    const screen = this.screen;
    screen.sync();
    const answer = this.#ask((facet) => facet.get?.(what));
    if (answer) return answer.value;
    switch (what) {
      case "title": return screen.title;
      case "cwd": return screen.cwd;
      case "size": return { cols: screen.cols, rows: screen.rows };
      case "cursor": return screen.cursor;
      case "exit": return this.#exit;
      case "cast": return this.recorder?.path ?? null;
      // Answered by the browser facet; the daemon asks browser sessions only.
      case "url":
      case "nav": throw new TuiwrightError("not-a-browser", `get ${what} needs a browser session`);
    }
  }

  /** Resolves once the program is ready for input: it drew and was still FIRST_STILL_MS, or
   * its foreground process blocks reading the terminal (a program that draws nothing, such
   * as cat), or it exited, or `boundMs` passed. Checked each time output has been parsed and
   * then at growing intervals up to CHECK_MAX_MS: /proc has no event for "blocked in read". */
  firstScreen(boundMs: number): Promise<WorkerOps["firstScreen"][1]> {
    const started = performance.now();
    // Blocked reading is believed at once when the PTY's master shows nothing unread and
    // nothing was written to the program since its last output (it would be reading our reply,
    // not waiting: a query's answer). Otherwise — or where the master cannot be asked — only
    // once it has held over several checks with no output in between: the program may have
    // written its prompt and gone to read before that output reached us (seen under load).
    let readingSince: number | null = null;
    let readingChecks = 0;
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let delay = CHECK_FIRST_MS;
      let sinceOutput = 0;
      const check = (): boolean => {
        const now = performance.now();
        const quietMs = now - (this.#lastOutputAt ?? started);
        this.screen.sync(); // the revision of what has been parsed, not of the last batch's end
        const drew = this.screen.revision > 0;
        const parsed = this.#flow.backlog === 0;
        // A warm start's shell reads its command as fd 0: not the program waiting for input.
        const blocked = parsed && !this.#pty.launching() && waitingForInput(this.pid);
        const answered = this.#lastWriteAt !== null && this.#lastWriteAt >= (this.#lastOutputAt ?? started);
        const delivered = blocked && !answered && this.#pty.unreadOutput() === false;
        if (!blocked || (this.#lastOutputAt !== null && readingSince !== null && this.#lastOutputAt >= readingSince)) { readingSince = blocked ? now : null; readingChecks = 0; }
        else { readingSince ??= now; readingChecks++; }
        const reading = delivered || (readingSince !== null && readingChecks >= 3 && now - readingSince >= 20 && quietMs >= 20);
        // In a timed sleep and silent: it is not starting up (`sleep 1000`).
        const idle = !reading && parsed && quietMs >= FIRST_IDLE_MS && foregroundSleeping(this.pid);
        const timedOut = now - started >= boundMs;
        // Still: nothing came for a while — and nothing waits unread either (a worker busy parsing
        // a flood reads nothing meanwhile, which looks like silence).
        const still = drew && parsed && quietMs >= FIRST_STILL_MS && this.#pty.unreadOutput() !== true;
        if (!(this.#exit || still || reading || idle || timedOut)) return false;
        resolve({ drew, waitingForInput: reading, idle, timedOut: timedOut && !reading && !idle && !drew, ms: Math.round(now - started) });
        return true;
      };
      const tick = () => {
        if (check()) {
          this.#parsedListener = null;
          return;
        }
        timer = setTimeout(tick, delay);
        if (++sinceOutput >= FAST_CHECKS) delay = Math.min(delay * 2, CHECK_MAX_MS);
      };
      // New output: look again as soon as it is parsed, then back off again.
      this.#parsedListener = () => {
        clearTimeout(timer);
        delay = CHECK_FIRST_MS;
        sinceOutput = 0;
        tick();
      };
      tick();
    });
  }

  mark(label: string): { label: string } {
    this.recorder?.marker(label);
    return { label };
  }

  wait(params: WorkerOps["wait"][0], signal?: AbortSignal): Promise<WorkerOps["wait"][1]> {
    this.screen.sync();
    const { fromNow, ...spec } = params;
    const waiting = this.#waits.wait(spec, fromNow ? { revision: this.screen.revision, at: performance.now() } : undefined, signal);
    const label = markerLabel("wait", "", params);
    this.recorder?.marker(label);
    return this.markFailure(waiting, label);
  }

  dispose(): void {
    this.#bells.dispose();
    this.#replies.dispose();
    for (const facet of this.#facets) facet.dispose?.();
    this.recorder?.close();
    this.#waits.cancelAll(new TuiwrightError("no-such-session", "the session was removed while waiting"));
    this.#pty.close();
    this.#pty.channel?.close();
    this.screen.dispose();
  }
}

export function describeExit(exit: ExitStatusValue): string {
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}
