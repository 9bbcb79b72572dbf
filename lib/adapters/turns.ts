// Turns of a chat program (an AI coding CLI whose manifest says `turns = true`): submitting a
// prompt opens a turn, and the turn's end — done, error, interrupted, denied — or its need of
// the user — approval, question — belong to it only when drawn after the submission. The
// manifest names its regions in one vocabulary (TURN_REGIONS); this file decides, screen by
// screen, which of the regions on screen are the latest turn's and which are left over from
// the turn before (the last answer's end mark stays on screen until the CLI redraws).
//
// The rule: a turn region counts for the turn only once it is new since the submission: seen
// absent on a screen at or after it, or drawn starting with another row than on the screen the
// prompt was sent on (its place is no evidence: a redrawn history moves the old answer) (under load one parsed batch can hold a whole turn: the old end
// mark gone and the new one drawn). A region as it was when the prompt was sent is the old
// turn's. An end counts only after the CLI showed it took the prompt ("taken"): a new live
// region (busy, approval, question), or the prompt left the input while every end region on
// screen is new. Ends are final. This is as precise as the manifest: each CLI's regions end
// before the next prompt it draws, so a turn's marks never stretch over the next prompt A
// region whose start scrolled off the screen (no anchor on it) must be seen absent first.
import { shownText } from "../outline/container-name.ts";
import type { BBox, Evidence, OutlineNode } from "../outline/types.ts";
import type { TurnInfoValue, TurnStateValue } from "../protocol/methods.ts";
import { SCROLLED } from "./manifest-outline.ts";
import type { TranscriptAnswer } from "./transcript.ts";

export type TurnState = TurnStateValue;
/** Ways a turn ends, the first on screen wins: a denial is also drawn as an interruption by
 * some CLIs, and an error or an interruption can sit under a partial answer. */
export const TURN_END_STATES = ["denied", "interrupted", "error", "done"] as const satisfies readonly TurnState[];
export const TURN_WAITING_STATES = ["approval", "question"] as const satisfies readonly TurnState[];
/** Regions whose meaning the turn vocabulary fixes (besides `input`). */
const LIVE = ["busy", ...TURN_WAITING_STATES] as const;
/** Regions that belong to one turn: what a turn shows. */
export const TURN_REGIONS = ["response", "busy", ...TURN_WAITING_STATES, ...TURN_END_STATES] as const;
type TurnRegion = (typeof TURN_REGIONS)[number];

export function isEnded(state: TurnState): boolean {
  return (TURN_END_STATES as readonly string[]).includes(state);
}

/** The turn needs the caller: it ended, or it waits for an approval or an answer. */
export function needsCaller(state: TurnState): boolean {
  return isEnded(state) || (TURN_WAITING_STATES as readonly string[]).includes(state);
}

export type Turn = {
  id: number;
  /** The prompt as submitted (the input's text, or the text typed before Enter). */
  prompt: string;
  state: TurnState;
  /** The screen revision when the prompt was sent. */
  submitted: number;
  /** The revision at which the CLI showed it took the prompt, and what showed it. */
  taken: number | null;
  takenBy: string | null;
  /** The revision of the last state change, and the region that caused it (null: none). */
  changed: number;
  region: { ref: string; bbox: BBox } | null;
};

type Seen = { regions: Map<string, OutlineNode>; input: OutlineNode | undefined };

function regionsOf(nodes: OutlineNode[], root: string): Seen {
  const app = nodes.find((node) => node.ref === `@${root}`);
  const regions = new Map<string, OutlineNode>();
  // A region drawn blank (an answer's place before its first word) shows nothing yet: absent.
  for (const child of app?.children ?? []) if (child.ref.startsWith(`@${root}.`) && (child.name.trim() !== "" || child.ref === `@${root}.input`)) regions.set(child.ref.slice(root.length + 2), child);
  return { regions, input: regions.get("input") };
}

/** Keys sent now reach the prompt's input: it is on screen and no approval or question takes them. */
export function inputTakesKeys(nodes: OutlineNode[], root: string): boolean {
  const { regions, input } = regionsOf(nodes, root);
  return input !== undefined && !regions.has("approval") && !regions.has("question");
}

/** `before` with the keys of `data` applied as an input line takes them: escape sequences (keys,
 * paste marks) add nothing, Backspace removes a character, Ctrl-U clears, newlines stay. */
export function typedText(before: string, data: string): string {
  let text = before;
  for (const ch of data.replace(/\x1b\[[0-9;?]*[~A-Za-z]|\x1b[O\]]?./g, "")) {
    if (ch === "\x7f" || ch === "\b") text = [...text].slice(0, -1).join("");
    else if (ch === "\x15") text = "";
    else if (ch === "\n" || ch >= " ") text += ch;
  }
  return text.length > 100_000 ? text.slice(-100_000) : text;
}

/** A prompt is the input's text: what the manifest says the input holds (its value). */
function inputHolds(input: OutlineNode | undefined, prompt: string): boolean {
  if (!input) return false;
  const value = (input.value ?? "").trim();
  if (value === "") return false;
  const start = prompt.trim().split("\n")[0]!.slice(0, 40);
  return value.includes(start) || start.includes(value);
}

/** What identifies a region's content: its first row (an answer's start, an end mark's line).
 * Not its place: a CLI that redraws its history (Ink on a loaded machine draws a frame in
 * parts) shows the turn before's answer in another row, and that must not read as new. The
 * same first row on a later screen means not drawn anew; a turn whose answer starts exactly as
 * the one before counts once it was seen absent (the CLI's busy mark hides it while it works). */
function shape(node: OutlineNode): string {
  return shownText(node).split("\n").map((row) => row.trim()).find((row) => row !== "") ?? "";
}

const TURNS_KEPT = 100;

/** Whether a response node read from a manifest alternative whose start scrolled away. */
export function scrolledAway(node: OutlineNode): boolean {
  return (node.evidence ?? []).some((e) => e.source === "manifest" && e.rule.endsWith(SCROLLED));
}

/** Whether the turn's response is whole, and why not: the turn is done and the answer's start
 * was read (on screen or in the scrollback), and the terminal kept its size while the answer was
 * drawn (`resized`: the sizes since the submission, "100x30 → 80x24") — a CLI that redraws at a
 * new size may count its rows at the old one, so its erase falls short and rows of its earlier
 * frame stay inside the answer (Gemini CLI narrowed while it streams). Where the start scrolled
 * off a screen that keeps no scrollback, or the size changed, only the CLI's own transcript
 * agreeing with what is on screen (`transcript`) makes it whole. */
export function responseWhole(turn: Turn | TurnInfoValue, response: OutlineNode, transcript?: TranscriptAnswer, resized: string | null = null): { complete: boolean; fact: string; transcript?: { text: string; path: string } } {
  const base = `the response of turn ${turn.id}`;
  if (turn.state !== "done") return { complete: false, fact: `${base}: not complete, the turn is ${turn.state}${isEnded(turn.state) ? "" : " (not ended)"}` };
  const doubts = [
    ...(scrolledAway(response) ? [`its start scrolled above the CLI's screen, which keeps no scrollback (its alternate screen)`] : []),
    ...(resized ? [`the terminal was resized while the answer was drawn (${resized}); rows of the CLI's earlier frame may remain in it`] : []),
  ].join("; ");
  if (doubts) {
    if (transcript && "text" in transcript) {
      return { complete: true, fact: `${base}: complete, ${doubts}; the text is the last answer of the CLI's own transcript ${transcript.path}, whose end agrees with the answer on screen (whitespace, bullets and markdown marks aside)`, transcript };
    }
    return { complete: false, fact: `${base}: not complete, ${doubts}; the text is what is on screen${transcript ? ` (${transcript.why})` : ""}` };
  }
  const above = response.evidence?.find((e) => e.source === "manifest" && e.cells && e.cells.row < 0);
  const rows = above && above.source === "manifest" ? -above.cells!.row : 0;
  return { complete: true, fact: `${base}: complete, the turn is done and the answer is read from its first row${rows > 0 ? ` (${rows} of its rows from the scrollback)` : ""}` };
}

/** Whether a response node of an annotated outline is whole, as its turn evidence says. */
export function statedWhole(response: OutlineNode): { complete: boolean; fact: string } | null {
  const evidence = response.evidence?.find((e) => e.source === "turn" && e.complete !== undefined);
  return evidence && evidence.source === "turn" ? { complete: evidence.complete!, fact: evidence.fact } : null;
}

/** Reads the CLI's transcript for an answer whose start scrolled off, given the text on screen;
 * `signature` changes when its files do (a CLI may write the answer after drawing its end). */
export type TranscriptReader = { read: (screen: string) => TranscriptAnswer; signature: () => string };

/** One session's turns with one turns manifest; fed every screen while a turn is open. */
export class TurnTracker {
  readonly root: string;
  readonly adapter: string;
  readonly #turns: Turn[] = [];
  /** Per region of the latest turn: seen absent at or after the submission (so it may count). */
  #fresh = new Set<TurnRegion>();
  /** The turn regions on the screen the prompt was sent on: their text and place. */
  #atSubmission = new Map<string, string>();
  #lastObserved = -1;
  /** The prompt was seen in the input (its echo) on a screen at or after the submission. */
  #echoSeen = false;
  readonly #transcript: TranscriptReader | null;
  /** The transcript's say on the latest scrolled answer: per turn, text on screen and (until it
   * agreed) the files' signature. */
  #transcriptRead: { key: string; signature: string; answer: TranscriptAnswer } | null = null;
  /** The terminal's sizes ("COLSxROWS") from the latest turn's submission until it ended. */
  #sizes: string[] = [];

  constructor(adapter: string, root: string, transcript: TranscriptReader | null = null) {
    this.adapter = adapter;
    this.root = root;
    this.#transcript = transcript;
  }

  /** The transcript's answer for a done turn whose response start scrolled off, or that was
   * resized while drawn (read once per turn and screen text; one that did not agree is read
   * again when the files change). */
  #transcriptFor(turn: Turn, response: OutlineNode): TranscriptAnswer | undefined {
    if (!this.#transcript || turn.state !== "done" || (!scrolledAway(response) && this.resizedWhileDrawn(turn) === null)) return undefined;
    const screen = response.value ?? shownText(response);
    const key = `${turn.id}\n${screen}`;
    const read = this.#transcriptRead;
    if (read?.key === key && "text" in read.answer) return read.answer;
    const signature = this.#transcript.signature();
    if (read?.key !== key || read.signature !== signature) this.#transcriptRead = { key, signature, answer: this.#transcript.read(screen) };
    return this.#transcriptRead!.answer;
  }

  /** The transcript file read for the latest done answer while it did not agree yet, or null. */
  transcriptPendingFile(): string | null {
    const read = this.#transcriptRead;
    return this.transcriptPending() !== "" && read && "why" in read.answer ? read.answer.path ?? null : null;
  }

  /** While the latest answer waits for its transcript to agree: the files' signature (an
   * outline made again when it changes), else "". */
  transcriptPending(): string {
    const read = this.#transcriptRead;
    const turn = this.latest;
    if (!read || !turn || !this.#transcript || turn.state !== "done" || !read.key.startsWith(`${turn.id}\n`) || "text" in read.answer) return "";
    return this.#transcript.signature();
  }

  /** The terminal was resized to `size` ("COLSxROWS"): while the latest turn is drawn, its
   * answer may keep rows of the CLI's frame at the old size (responseWhole). */
  resized(size: string): void {
    const turn = this.latest;
    if (turn && !isEnded(turn.state) && this.#sizes.at(-1) !== size) this.#sizes.push(size);
  }

  /** The sizes the latest turn's answer was drawn at ("100x30 → 80x24"), or null: one size. */
  resizedWhileDrawn(turn: Turn): string | null {
    return turn === this.latest && this.#sizes.length > 1 ? this.#sizes.join(" → ") : null;
  }

  get latest(): Turn | null {
    return this.#turns.at(-1) ?? null;
  }

  get(id: number): Turn | null {
    return this.#turns.find((turn) => turn.id === id) ?? null;
  }

  get list(): readonly Turn[] {
    return this.#turns;
  }

  /** A turn is open and its screens must be watched. */
  get watching(): boolean {
    const latest = this.latest;
    return latest !== null && !isEnded(latest.state);
  }

  /** Whether sending Enter with these nodes on screen submits a prompt: the input is there (no
   * approval or question takes the key) and holds text, or `typed` (what this session typed
   * since its last Enter). Returns the prompt, or null. Slash commands (`/clear`) are the CLI's
   * own, not turns. */
  promptOf(nodes: OutlineNode[], typed: string): string | null {
    if (!inputTakesKeys(nodes, this.root)) return null;
    // What this session typed is the prompt while the input shows it or has not echoed it yet;
    // else the input's own text (typed by someone else, or left there).
    const value = (regionsOf(nodes, this.root).input!.value ?? "").trim();
    const prompt = (typed.trim() !== "" && (value === "" || typed.includes(value)) ? typed : value).trim();
    if (prompt === "" || prompt.startsWith("/")) return null;
    return prompt;
  }

  /** Opens a turn: the screen at `revision` (with `nodes`, `size` "COLSxROWS") is the one the
   * prompt was sent on. */
  open(prompt: string, revision: number, nodes: OutlineNode[], size: string): Turn {
    // Enter again on a prompt the CLI has not taken (it took the first Enter into a paste) is
    // the same submission, not a second turn.
    const latest = this.latest;
    if (latest && latest.state === "submitted" && latest.prompt === prompt) return latest;
    const turn: Turn = { id: (this.latest?.id ?? 0) + 1, prompt, state: "submitted", submitted: revision, taken: null, takenBy: null, changed: revision, region: null };
    this.#turns.push(turn);
    if (this.#turns.length > TURNS_KEPT) this.#turns.shift();
    this.#fresh = new Set();
    this.#sizes = [size];
    this.#atSubmission = new Map([...regionsOf(nodes, this.root).regions].map(([name, node]) => [name, shape(node)]));
    this.#lastObserved = revision - 1;
    this.#echoSeen = false;
    this.observe(revision, nodes);
    return turn;
  }

  /** Looks at one screen (each revision once). Returns whether the latest turn's state changed. */
  observe(revision: number, nodes: OutlineNode[]): boolean {
    const turn = this.latest;
    if (!turn || isEnded(turn.state) || revision <= this.#lastObserved) return false;
    this.#lastObserved = revision;
    const { regions, input } = regionsOf(nodes, this.root);
    for (const name of TURN_REGIONS) {
      const node = regions.get(name);
      // A region read with its start scrolled away has no anchor that ties it to this turn: the
      // turn before's end mark moves up as the next prompt is drawn below it. It counts only
      // once seen absent since the submission (the CLI's busy mark hides it while it works).
      if (!node || (shape(node) !== this.#atSubmission.get(name) && !scrolledAway(node))) this.#fresh.add(name);
    }
    const counts = (name: TurnRegion) => regions.has(name) && this.#fresh.has(name);
    if (revision <= turn.submitted) {
      // The screen the prompt was sent on.
      if (inputHolds(input, turn.prompt)) this.#echoSeen = true;
      return false;
    }
    const before = turn.state;
    if (turn.taken === null) {
      const live = LIVE.find(counts);
      const endsNew = TURN_END_STATES.every((name) => !regions.has(name) || this.#fresh.has(name));
      const newEnd = TURN_END_STATES.find(counts);
      const inInput = inputHolds(input, turn.prompt);
      if (live) this.#take(turn, revision, `@${this.root}.${live} appeared`);
      else if (endsNew && this.#echoSeen && input && !inInput) this.#take(turn, revision, `the prompt left @${this.root}.input and no end of a turn from before it is on screen`);
      else if (endsNew && newEnd && !inInput) this.#take(turn, revision, `a new @${this.root}.${newEnd} was drawn and the prompt is not in @${this.root}.input`);
      else {
        if (inInput) this.#echoSeen = true;
        return false;
      }
    }
    const end = TURN_END_STATES.find(counts);
    const waiting = TURN_WAITING_STATES.find(counts);
    const state: TurnState = waiting ?? end ?? "running";
    const region = regions.get(waiting ?? end ?? (counts("busy") ? "busy" : "")) ?? null;
    if (state !== before || (region && turn.region?.ref !== region.ref)) {
      turn.state = state;
      turn.changed = revision;
      turn.region = region ? { ref: region.ref, bbox: region.bbox } : null;
    }
    return turn.state !== before;
  }

  /** The latest turn when the CLI has not taken it and its prompt is still the input's value
   * on these nodes (Enter missed: counted into a paste, or lost), with that value; else null. */
  notTaken(nodes: OutlineNode[]): { turn: Turn; input: string } | null {
    const turn = this.latest;
    if (!turn || turn.state !== "submitted") return null;
    const { input } = regionsOf(nodes, this.root);
    return inputHolds(input, turn.prompt) ? { turn, input: (input!.value ?? "").trim() } : null;
  }

  /** The turn as the protocol states it (TurnInfo). */
  info(turn: Turn): TurnInfoValue {
    const { region, ...rest } = turn;
    return { ...rest, ref: region?.ref ?? null };
  }

  #take(turn: Turn, revision: number, why: string): void {
    turn.taken = revision;
    turn.takenBy = why;
    turn.state = "running";
    turn.changed = revision;
  }

  /** The evidence that ties a region on screen to the latest turn. */
  evidence(turn: Turn, region: string, revision: number): Extract<Evidence, { source: "turn" }> {
    const fact = turn.taken === null
      ? `turn ${turn.id} was sent at revision ${turn.submitted}; the CLI has not shown it took it`
      : `drawn after turn ${turn.id} was sent (revision ${turn.submitted}) and taken (revision ${turn.taken}: ${turn.takenBy}); @${this.root}.${region} is not the one on screen when the prompt was sent`;
    return { source: "turn", turn: turn.id, submitted: turn.submitted, taken: turn.taken, fact, revision };
  }

  /** The outline as the latest turn sees it: turn regions left over from before the submission
   * are dropped (they are not facts about this turn), the others cite the turn; a `@root.turn`
   * node states the turn's state. Outlines before any turn are returned as they are. The nodes
   * given are not changed (the session keeps them to observe). */
  annotate(nodes: OutlineNode[], revision: number): OutlineNode[] {
    const turn = this.latest;
    const index = nodes.findIndex((node) => node.ref === `@${this.root}`);
    const app = nodes[index];
    if (!turn || !app) return nodes;
    const children: OutlineNode[] = [];
    for (const child of app.children ?? []) {
      const name = child.ref.slice(this.root.length + 2) as TurnRegion;
      if (!child.ref.startsWith(`@${this.root}.`) || !(TURN_REGIONS as readonly string[]).includes(name)) { children.push(child); continue; }
      const ours = this.#fresh.has(name) && child.name.trim() !== "" && (turn.taken !== null || (LIVE as readonly string[]).includes(name));
      if (!ours) continue;
      const evidence = this.evidence(turn, name, revision);
      let value = child.value;
      if (name === "response") {
        const whole = responseWhole(turn, child, this.#transcriptFor(turn, child), this.resizedWhileDrawn(turn));
        Object.assign(evidence, { complete: whole.complete, fact: `${evidence.fact}; ${whole.fact}` }, whole.transcript ? { transcript: whole.transcript.path } : {});
        if (whole.transcript) value = whole.transcript.text;
      }
      children.push({ ...child, ...(value !== undefined ? { value } : {}), evidence: [...(child.evidence ?? []), evidence] });
    }
    children.push({
      ref: `@${this.root}.turn`, role: "status", name: turn.prompt.length > 200 ? `${turn.prompt.slice(0, 199)}…` : turn.prompt, value: turn.state,
      bbox: turn.region?.bbox ?? app.bbox,
      evidence: [{ source: "turn", turn: turn.id, submitted: turn.submitted, taken: turn.taken, revision,
        fact: `turn ${turn.id}: ${turn.state} since revision ${turn.changed}${turn.region ? ` (${turn.region.ref})` : ""}${turn.taken === null ? "; not yet taken by the CLI" : `; taken at revision ${turn.taken}: ${turn.takenBy}`}` }],
    });
    children.sort((a, b) => a.bbox.row - b.bbox.row || a.bbox.col - b.bbox.col);
    return nodes.map((node, i) => (i === index ? { ...app, children } : node));
  }
}
