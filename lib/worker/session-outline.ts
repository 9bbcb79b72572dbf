// The session's terminal DOM: the outline of the current screen (generic, or shaped by the
// manifest that fits), cached per revision, the outlines recently issued to callers, and
// resolving a target (ref or selector) without ever acting on the wrong node.
import { ManifestCatalog } from "../adapters/catalog.ts";
import { mayFit } from "../adapters/detect.ts";
import type { CompiledManifest } from "../adapters/load-manifest.ts";
import { outlineFor } from "../adapters/outline-for.ts";
import { promptMarkEvidence, type ProcessFacts } from "../adapters/process-facts.ts";
import { SessionObservations } from "../adapters/session-observations.ts";
import type { RecordedFacts } from "../record/fact-marker.ts";
import { inputTakesKeys, TurnTracker, typedText, type TranscriptReader } from "../adapters/turns.ts";
import { transcriptAnswer, transcriptSignature } from "../adapters/transcript.ts";
import { onScreen, TURN_SCROLLBACK_MAX } from "../adapters/turns-scrollback.ts";
import { refsOnScreen } from "../outline/nearest-refs.ts";
import { sameTarget, walk, type Outline, type OutlineNode } from "../outline/types.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import { foregroundGroup, processArgv } from "../runtime/process.ts";
import { select } from "../selector/match.ts";
import { parseSelector } from "../selector/parse.ts";
import type { Screen } from "../terminal/screen.ts";

const ISSUED_KEPT = 16;
/** How often the hot paths (text snapshots, every Enter) list the user's manifest directory. */
const PIXEL_CHECK_MS = 1000;
const POSITIONAL = /^@e\d+$/;

function describe(node: OutlineNode): string {
  const name = node.name.length > 60 ? `${node.name.slice(0, 59)}…` : node.name;
  return `${node.role} ${JSON.stringify(name)} at row ${node.bbox.row}, col ${node.bbox.col}`;
}

export class SessionOutline {
  readonly #screen: Screen;
  readonly #argv: string[];
  readonly #pid: number;
  readonly #catalog = new ManifestCatalog();
  #current: Outline | null = null;
  /** Pixel glyphs of the manifest that shaped #current ("" for none). */
  #currentPixels = "";
  #currentGeneration = -1;
  #currentFacts: ProcessFacts | null = null;
  #currentObserved = -1;
  /** What the session observed over time: selections its keys proved, values shown earlier. */
  readonly #observations = new SessionObservations();
  /** An integrated shell's OSC 133 state (at its prompt, no command started since), else null. */
  readonly #promptState: () => boolean | null;
  /** Whether a manifest with pixel glyphs names this session's program, and when that was checked. */
  #pixelManifest = { checkedAt: -Infinity, fits: false };
  /** Outlines handed out, by revision, newest last. */
  readonly #issued = new Map<number, Outline>();
  /** A chat program's turns (a manifest with turns = true), once a prompt was submitted. */
  #turns: TurnTracker | null = null;
  /** The manifest's own nodes of #current, before the turns had their say. */
  #currentRaw: OutlineNode[] = [];
  #currentTurnState = "";
  /** Lines in the scrollback when the latest turn was sent: what scrolled since is its own. */
  #turnTop = 0;
  /** The program's environment and start (wall clock): where its own transcript files are. */
  readonly #program: { env: Record<string, string>; startedAt: number } | null;

  /** Where the facts go each time they are looked at (the recording keeps those that change). */
  readonly #recordFacts: (facts: RecordedFacts) => void;
  /** A facet's better knowledge of the nodes (a browser's engine), applied to every outline. */
  readonly #decorate: (nodes: OutlineNode[], revision: number) => OutlineNode[];
  /** Bumped when what #decorate knows changed without the screen changing. */
  #decoration = 0;
  #currentDecoration = -1;

  constructor(screen: Screen, argv: string[], pid: number, promptState: () => boolean | null = () => null, recordFacts: (facts: RecordedFacts) => void = () => {},
    decorate: (nodes: OutlineNode[], revision: number) => OutlineNode[] = (nodes) => nodes,
    program: { env: Record<string, string>; startedAt: number } | null = null) {
    this.#program = program;
    this.#screen = screen;
    this.#decorate = decorate;
    this.#argv = argv;
    this.#pid = pid;
    this.#promptState = promptState;
    this.#recordFacts = recordFacts;
    // Every change of size (the worker's resize op, a cast's resize event) while a turn is drawn.
    screen.onResize((cols, rows) => this.#turns?.resized(`${cols}x${rows}`));
  }

  /** Records the process facts as they are now (before a marker, at a prompt mark), so a
   * replay of the cast has them where the live session had them. */
  noteFacts(): void {
    this.#recordFacts({ shellPrompt: this.#promptState(), foreground: this.#foregroundArgv() });
  }

  /** The outline of the screen as it is now (the caller synced the screen). */
  current(): Outline {
    const screen = this.#screen;
    const generation = this.#catalog.generation(); // an edited manifest applies at once
    // Process facts change without the screen changing (a command takes the terminal).
    const facts = this.processFacts();
    if (this.#current && this.#current.revision === screen.revision && this.#current.hash === screen.hash && this.#currentGeneration === generation &&
      this.#currentFacts?.shellForeground === facts.shellForeground && this.#currentObserved === this.#observations.generation && this.#currentDecoration === this.#decoration &&
      this.#currentTurnState === this.#turnState()) {
      return this.#current;
    }
    this.#currentGeneration = generation;
    this.#currentDecoration = this.#decoration;
    this.#currentFacts = facts;
    this.#currentObserved = this.#observations.generation;
    const foreground = this.#foregroundArgv();
    this.#recordFacts({ shellPrompt: facts.shellForeground, foreground });
    // A turn's answer that scrolled past the top is read from the scrollback (turns-scrollback.ts).
    const grid = screen.grid(this.#turns?.latest ? Math.min(TURN_SCROLLBACK_MAX, screen.scrolled - this.#turnTop) : 0);
    const { adapter, pixels, nodes: tall } = outlineFor(grid, this.#catalog.manifests(), this.#argv, foreground, facts, this.#observations.observed(screen.revision));
    const raw = onScreen(tall, grid.above ?? 0, screen.rows, this.#turns?.adapter === adapter ? this.#turns.root : null);
    const turns = this.#turns?.adapter === adapter ? this.#turns : null;
    turns?.observe(screen.revision, raw);
    const nodes = turns ? turns.annotate(raw, screen.revision) : raw;
    this.#currentRaw = raw;
    this.#currentTurnState = this.#turnState();
    this.#current = { revision: screen.revision, hash: screen.hash, adapter, nodes: this.#decorate(nodes, screen.revision) };
    this.#currentPixels = pixels;
    this.#observations.remember(nodes);
    return this.#current;
  }

  /** Input the session is about to send (a navigation key may prove a selection; `:set
   * noshowmode` makes an earlier "-- INSERT --" prove nothing; Enter in a chat program's input
   * submits a prompt: a turn opens). */
  sending(input: string): void {
    this.#screen.sync();
    this.#observe(input);
    this.#openTurn(input);
    this.#trackTyped(input);
  }

  /** Text this session typed into a chat program's input since its last Enter: the prompt an
   * Enter submits even when the CLI has not echoed it yet (it may take longer than a settle). */
  #typed = "";

  #trackTyped(input: string): void {
    const adapter = this.#current?.adapter;
    const manifest = this.#manifest(adapter);
    if (!manifest?.turns) { this.#typed = ""; return; }
    this.current();
    // Keys for an approval or a question (a digit, y) are not the prompt.
    if (!inputTakesKeys(this.#currentRaw, manifest.root)) { this.#typed = ""; return; }
    const last = input.lastIndexOf("\r");
    this.#typed = last >= 0 ? typedText("", input.slice(last + 1)) : typedText(this.#typed, input);
  }

  /** Enter sent into a turns manifest's input opens a turn on the screen as it is now. */
  #openTurn(input: string): void {
    if (!input.includes("\r") || !this.#turnsMayFit()) return;
    const submission = this.submission(input);
    if (typeof submission === "string") return;
    if (this.#turns?.adapter !== submission.adapter) this.#turns = new TurnTracker(submission.adapter, submission.root, this.#transcriptReader(submission.adapter));
    // The screen the prompt is sent on, read as the new turn's screens will be: without the
    // lines the turn before scrolled (else its end mark reads longer now than it will later,
    // and a changed text would pass for one drawn anew).
    this.#turnTop = this.#screen.scrolled;
    this.#current = null;
    this.current();
    this.#turns.open(submission.prompt, this.#screen.revision, this.#currentRaw, `${this.#screen.cols}x${this.#screen.rows}`);
    this.#current = null; // the outline now reads the new turn
  }

  /** Whether a manifest with turns could shape the outline now (its command, title and screen
   * kind): an Enter into any other program opens no turn, and building the outline to learn so
   * cost ~0.8 ms of every Enter typed into a shell or a REPL. The catalog is listed at most once
   * a second here, as for pixels (a new chat manifest applies within it). */
  #turnsMayFit(): boolean {
    const now = performance.now();
    if (now - this.#chatManifests.checkedAt >= PIXEL_CHECK_MS) {
      this.#chatManifests = { checkedAt: now, manifests: this.#catalog.manifests().filter((manifest) => manifest.turns) };
    }
    const chats = this.#chatManifests.manifests;
    if (chats.length === 0) return false;
    const context = { argv: this.#argv, foreground: this.#foregroundArgv(), title: this.#screen.title, altScreen: this.#screen.altScreen };
    return chats.some((manifest) => mayFit(manifest, context));
  }

  /** Reads the program's own transcript (its manifest's `transcript`), or null: none named. */
  #transcriptReader(adapter: string): TranscriptReader | null {
    const spec = this.#manifest(adapter)?.transcript;
    const program = this.#program;
    if (!spec || !program) return null;
    return {
      read: (screen) => transcriptAnswer(spec, program.env, program.startedAt, screen),
      signature: () => transcriptSignature(spec, program.env, program.startedAt),
    };
  }

  /** The loaded manifest named `adapter`, if any. */
  #manifest(adapter: string | null | undefined) {
    return adapter ? this.#catalog.manifests().find((m) => m.name === adapter) : undefined;
  }

  /** The chat program (a turns manifest) this session's screen is, or null. */
  chat(): { adapter: string; root: string } | null {
    const outline = this.current();
    const manifest = this.#manifest(outline.adapter);
    return manifest?.turns ? { adapter: manifest.name, root: manifest.root } : null;
  }

  /** Whether this input submits a prompt on the screen as it is now: the prompt, or why not. */
  submission(input: string): { adapter: string; root: string; prompt: string } | string {
    const enter = input.indexOf("\r");
    if (enter < 0) return "the input has no Enter";
    this.#screen.sync();
    const outline = this.current();
    const manifest = this.#manifest(outline.adapter);
    if (!manifest?.turns) return `the screen is not a chat program's (${outline.adapter ? `adapter ${outline.adapter} has no turns` : "no adapter"})`;
    // What this session typed since the last Enter, this input's text before its Enter included.
    const typed = typedText(this.#typed, input.slice(0, enter));
    const tracker = this.#turns?.adapter === manifest.name ? this.#turns : new TurnTracker(manifest.name, manifest.root);
    const prompt = tracker.promptOf(this.#currentRaw, typed);
    if (prompt === null) return `@${manifest.root}.input is not on screen, holds no prompt, or an approval or question takes the keys`;
    return { adapter: manifest.name, root: manifest.root, prompt };
  }

  /** The session's turns, when it runs a chat program and a prompt was submitted. */
  get turns(): TurnTracker | null {
    return this.#turns;
  }

  /** Changes of the latest turn the cached outline must follow. */
  #turnState(): string {
    const latest = this.#turns?.latest;
    // A done answer whose transcript did not agree yet is read again when the files change.
    return latest ? `${latest.id}:${latest.state}:${latest.taken}:${this.#turns!.transcriptPending()}` : "";
  }

  /** The observations see the input before it goes. */
  #observe(input: string): void {
    const adapter = this.#current?.adapter;
    const manifest = this.#manifest(adapter) ?? null;
    // A manifest that learns from values shown earlier sees the screen before every input, as a
    // replay does at each input event: live and replay remember the same values.
    if (manifest?.values.some((entry) => entry.defaultOnceSeen)) this.current();
    this.#observations.sent(input, () => this.#screen.grid(), performance.now(), manifest);
  }

  /** The screen changed: a key waiting for its effect looks at it. */
  changed(): void {
    // An open turn sees every screen: an old end mark must be seen gone before a new one counts.
    if (this.#turns?.watching) this.current();
    if (this.#observations.waiting) this.#observations.changed(this.#screen.grid(), this.#screen.revision, performance.now());
  }

  /** The process facts the outline rests on now, with their evidence (process-facts.ts says
   * why a shell without integration has none). */
  processFacts(): ProcessFacts {
    const atPrompt = this.#promptState();
    return {
      shellForeground: atPrompt,
      ...(atPrompt ? { shellForegroundEvidence: promptMarkEvidence(this.#screen.revision) } : {}),
      seenValues: this.#observations.seenValues,
      turn: this.#turns?.latest != null,
    };
  }

  /** What the decoration knows changed: the next outline is made again. */
  redecorate(): void {
    this.#decoration++;
  }

  /** The argv of the terminal's foreground process group leader when it is not the session's
   * own program, else null. Read once per turn of the event loop: an input's marker, outline
   * and turn check all ask within one call, and each read of /proc costs ~20-30 µs. */
  #foregroundArgv(): string[] | null {
    if (this.#foregroundNow) return this.#foregroundNow.argv;
    const group = foregroundGroup(this.#pid);
    const argv = group !== null && group !== this.#pid ? processArgv(group) : null;
    this.#foregroundNow = { argv };
    queueMicrotask(() => { this.#foregroundNow = null; });
    return argv;
  }

  #foregroundNow: { argv: string[] | null } | null = null;
  #chatManifests: { checkedAt: number; manifests: CompiledManifest[] } = { checkedAt: -Infinity, manifests: [] };

  /** The terminal's foreground process group leader, `{pid, argv0}`, or null when unknown. */
  foreground(): { pid: number; argv0: string } | null {
    const group = foregroundGroup(this.#pid);
    if (group === null) return null;
    const argv0 = processArgv(group)?.[0];
    return argv0 === undefined ? null : { pid: group, argv0: argv0.slice(argv0.lastIndexOf("/") + 1) };
  }

  /** The glyphs text snapshots blank out: the fitting manifest's pixels. Only a session whose
   * own program a pixel manifest names pays for detection (a browser); others answer at once. */
  pixels(): string {
    // Reading the catalog lists the user's manifest directory: on the hot path of every text
    // snapshot, so look again at most once a second (a new pixel manifest applies within it).
    const now = performance.now();
    if (now - this.#pixelManifest.checkedAt >= PIXEL_CHECK_MS) {
      const program = this.#argv[0]?.slice(this.#argv[0].lastIndexOf("/") + 1) ?? "";
      const fits = this.#catalog.manifests().some((m) => m.pixels !== "" && m.detect.argv0.includes(program));
      this.#pixelManifest = { checkedAt: now, fits };
    }
    if (!this.#pixelManifest.fits) return "";
    this.current();
    return this.#currentPixels;
  }

  /** The current outline, remembered so positional refs from it can be checked later. */
  issue(): Outline {
    const outline = this.current();
    this.#issued.delete(outline.revision);
    this.#issued.set(outline.revision, outline);
    while (this.#issued.size > ISSUED_KEPT) this.#issued.delete(this.#issued.keys().next().value!);
    return outline;
  }

  /** Nodes matching a selector on the current screen; bad selectors throw with a caret, and a
   * selector that matches nothing is an error listing the refs that are there. */
  select(selector: string, flag = "--select"): OutlineNode[] {
    const now = this.current();
    const matches = select(now.nodes, parseSelector(selector));
    if (matches.length === 0) {
      throw new TuiwrightError("bad-selector", `${flag} ${JSON.stringify(selector)} matches nothing on the screen (${now.adapter ? `adapter ${now.adapter}` : "generic outline, no adapter"}, revision ${now.revision}); ${refsOnScreen(now.nodes, selector)}`, {
        hint: "pick one of the refs listed, or take a snapshot --format outline",
        details: { selector, revision: now.revision },
      });
    }
    return matches;
  }

  /**
   * The node a target names, on the current screen. A positional ref is checked against the
   * outline it was issued in: the node must still be there with the same role, name and box
   * (anywhere in today's numbering), or this is a stale-ref error showing what is there now.
   */
  resolve(target: string, revision: number | undefined): OutlineNode {
    const now = this.current();
    if (POSITIONAL.test(target)) return this.#resolvePositional(target, revision, now);
    if (/^@[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(target)) {
      const node = [...walk(now.nodes)].find((n) => n.ref === target);
      if (!node) {
        throw new TuiwrightError("stale-ref", `${target} is not on the screen now (${now.adapter ? `adapter ${now.adapter}` : "generic outline, no adapter"}, revision ${now.revision}); ${refsOnScreen(now.nodes, target)}`, {
          details: { ref: target, revision: now.revision },
        });
      }
      return node;
    }
    const matches = select(now.nodes, parseSelector(target));
    if (matches.length !== 1) {
      const listing = matches.length === 0 ? `; ${refsOnScreen(now.nodes, target)}` : "";
      throw new TuiwrightError("bad-selector", `${JSON.stringify(target)} matches ${matches.length} nodes; a target must match exactly one${listing}`, {
        hint: matches.length ? `be more specific, e.g. ${matches.slice(0, 3).map((m) => m.ref).join(", ")}` : "take a snapshot --format outline to see the nodes",
        details: { matches: matches.slice(0, 10).map((m) => m.ref) },
      });
    }
    return matches[0]!;
  }

  /** A keyed item (a process by PID) is wherever the item with its key is now. */
  #resolveKeyed(ref: string, was: OutlineNode, issued: Outline, now: Outline): OutlineNode {
    const same = [...walk(now.nodes)].filter((n) => n.key === was.key && n.role === was.role);
    if (same.length === 1) return same[0]!;
    const why = same.length === 0 ? `no ${was.role} with key ${JSON.stringify(was.key)} is on the screen now` : `${same.length} ${was.role}s have key ${JSON.stringify(was.key)} now`;
    throw new TuiwrightError("stale-ref", `${ref} is stale: it was ${describe(was)} (key ${JSON.stringify(was.key)}) at revision ${issued.revision}; at revision ${now.revision} ${why}`, {
      details: { ref, was, key: was.key, issuedRevision: issued.revision, revision: now.revision },
    });
  }

  #resolvePositional(ref: string, revision: number | undefined, now: Outline): OutlineNode {
    const issued = revision === undefined ? [...this.#issued.values()].at(-1) : this.#issued.get(revision);
    if (!issued) {
      const why = revision === undefined ? "no outline has been issued for this session yet" : `the outline of revision ${revision} is not kept (the last ${ISSUED_KEPT} are)`;
      throw new TuiwrightError("stale-ref", `cannot check ${ref}: ${why}`, { hint: "take a new snapshot --format outline and use its refs" });
    }
    const was = [...walk(issued.nodes)].find((n) => n.ref === ref);
    if (!was) throw new TuiwrightError("stale-ref", `there is no ${ref} in the outline of revision ${issued.revision}`, { details: { ref, revision: issued.revision } });
    if (issued.revision === now.revision && issued.hash === now.hash) return was;
    if (was.key !== undefined) return this.#resolveKeyed(ref, was, issued, now);
    const same = [...walk(now.nodes)].filter((n) => sameTarget(n, was));
    if (same.length === 1) return same[0]!;
    const current = [...walk(now.nodes)].find((n) => n.ref === ref);
    throw new TuiwrightError("stale-ref", `${ref} is stale: it was ${describe(was)} at revision ${issued.revision}; at revision ${now.revision} ${current ? `${ref} is ${describe(current)}` : `there is no ${ref}`}`, {
      details: { ref, was, now: current ?? null, issuedRevision: issued.revision, revision: now.revision },
    });
  }
}
