// Input: text, keys, clicks, the mouse and its wheel. Every one is a writer (refused while another owner holds the lease).
import * as v from "valibot";
import { ActionResult, doc, Revision, Target } from "../schemas.ts";
import { AfterWait, aimed, cell, type MethodDef, ok, Recovered, writer } from "./common.ts";

/** Modifier keys held during a browser's mouse event (the engine carries them; a terminal cannot). */
export const MouseModifiers = doc(v.array(v.picklist(["ctrl", "alt", "shift", "meta"])), "browsers: modifier keys held during the mouse event");
const MouseButton = doc(v.picklist(["left", "middle", "right"]), "mouse button");

export const INPUT_METHODS = {
  type: {
    tool: "core",
    forward: true,
    title: "Type text: printable characters, tab and line breaks (keys such as Ctrl-C are pressed by name; paste: true sends a bracketed paste when the program enabled it)",
    cli: {
      verb: "type",
      summary: "type text: printable characters, tab and line breaks (\\r is Enter; press keys such as C-c by name); --paste sends it as a paste",
      usage: "type [--session NAME] [--paste | --raw] [--secret] [--to TARGET] [WAIT FLAGS] TEXT",
      words: ["text"],
      flags: { paste: "--paste", raw: "--raw", secret: "--secret", "@aim": "", "@wait": "" },
    },
    readOnly: false,
    params: v.strictObject({
      ...writer,
      text: doc(v.string(), "the text (\\r is Enter; tab and \\n go as they are); any other control character is refused (press it by name) unless raw; long text is sent in pieces"),
      paste: v.optional(doc(v.boolean(), "send as a paste: control characters other than tab and line breaks are left out (so nothing in it acts as a key or ends the paste early), line breaks go as \\r, and it is bracketed when the program enabled bracketed paste"), false),
      raw: v.optional(doc(v.boolean(), "send control characters as they are (Ctrl-C, Escape, sequences), as a keyboard would (attach does); not with paste"), false),
      secret: v.optional(doc(v.boolean(), "a password or token: recorded as ***, and masked (as `*`) wherever it shows from now on — the cast, results, every session of the daemon; kept out of a --shell shell's history file"), false),
      ...aimed,
      wait: v.optional(AfterWait),
    }),
    result: ActionResult,
  },
  press: {
    tool: "core",
    forward: true,
    title: "Press named keys, e.g. Enter, C-c, S-Tab, M-Left, F5",
    cli: {
      verb: "press",
      summary: "press keys: Enter Tab Escape Backspace Space Up Down Left Right Home End PageUp PageDown Insert Delete F1..F12, a character, with C- M- S-",
      usage: "press [--session NAME] [--to TARGET] [WAIT FLAGS] KEY...",
      words: ["keys..."],
      arity: [1, "many"],
      flags: { "@aim": "", "@wait": "" },
    },
    readOnly: false,
    params: v.strictObject({ ...writer, keys: doc(v.pipe(v.array(v.string()), v.minLength(1, "name at least one key")), "key names: Enter, Tab, Escape, Up, F5, C-c, M-x, S-Tab, a character, or vim notation like ':wq<cr>'"), ...aimed, wait: v.optional(AfterWait) }),
    result: ActionResult,
  },
  click: {
    tool: "core",
    title: "Click a node (by ref or selector) or a cell, with the mouse protocol the program enabled",
    cli: {
      verb: "click",
      summary: "click a node (@e4, @vim.mode, or a selector matching one node) or a cell ROW COL",
      usage: "click [--session NAME] [--rev REV] [--button left|middle|right] [--modifier ctrl|alt|shift|meta]... [WAIT FLAGS] TARGET | ROW COL",
      arity: [1, 2], // TARGET, or ROW COL: lib/cli/verb-hooks.ts
      flags: { revision: { names: "--rev", value: "REV" }, button: { names: "--button", value: "B" }, modifiers: { names: "--modifier", value: "M" }, "@wait": "" },
    },
    forward: true,
    readOnly: false,
    params: v.strictObject({
      ...writer,
      target: v.optional(Target),
      revision: aimed.revision,
      row: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "with col: click this cell (0-based) instead of a target")),
      col: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "with row: the cell's 0-based column")),
      button: v.optional(MouseButton, "left"),
      modifiers: v.optional(MouseModifiers),
      wait: v.optional(AfterWait),
    }),
    result: ActionResult,
  },
  scroll: {
    tool: "core",
    forward: true,
    title: "Turn the mouse wheel over the screen (a browser's page, any program with mouse input): delta > 0 scrolls down",
    cli: {
      verb: "scroll",
      summary: "turn the mouse wheel (browser pages, programs with mouse input): N > 0 scrolls down, N < 0 up",
      usage: "scroll [--session NAME] [--at ROW,COL] [--settle MS] N",
      arity: [1, 1],
      flags: { "--at": { type: "string", value: "ROW,COL", description: "where the wheel turns (default: the middle of the screen)" }, settleMs: "--settle" },
    },
    readOnly: false,
    params: v.strictObject({
      ...writer,
      delta: doc(v.pipe(v.number(), v.integer(), v.minValue(-1000), v.maxValue(1000), v.check((n) => n !== 0, "delta must not be 0")), "wheel steps; negative scrolls up"),
      row: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "where the wheel turns; default the middle of the screen")),
      col: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "with row: where the wheel turns")),
      settleMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000)), "return once the screen has been still this long after the wheel (0: at once)"), 200),
    }),
    result: v.object({ ...ok, revisionBefore: Revision, revisionAfter: Revision, recovered: v.optional(Recovered) }),
  },
  mouse: {
    tool: "browser",
    forward: true,
    title: "Browsers: move the mouse to a cell, or press or release a button there, with modifiers (the engine's mouse events; a move while a button is down drags)",
    cli: { verb: "mouse", summary: "browsers: move the mouse to a cell (ROW COL, 0-based), or press or release a button there, with modifiers; a move while it is down drags", words: ["action", "row", "col"], flags: { button: "--button", modifiers: "--modifier" } },
    readOnly: false,
    params: v.strictObject({
      ...writer,
      action: doc(v.picklist(["move", "down", "up"]), "move the pointer, press a button (held until up), or release it"),
      ...cell,
      button: v.optional(MouseButton, "left"),
      modifiers: v.optional(MouseModifiers, []),
    }),
    result: v.object({ ...ok, held: doc(v.boolean(), "whether a button is down after this"), revision: Revision }),
  },
} as const satisfies Record<string, MethodDef>;
