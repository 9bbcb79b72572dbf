// The CLI's verbs: how each one's words and flags become a method call, and how its result is
// shown. Plain data and functions only — the thin client must not load valibot or xterm; the
// daemon validates params against the method table and its errors come back with a path.
import { spawnEnvironment } from "../protocol/spawn-env.ts";
import { DEFAULT_SIZE } from "../protocol/spawn-size.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import type { MethodName, Result } from "../protocol/methods.ts";
import type { AwiTtyName } from "../protocol/compat/awi-tty.ts";
import type { FlagSpec, ParsedArgs } from "./flags.ts";
import { docFlag, paramFlag } from "./param-flags.ts";
import { readWordFile } from "./read-word-file.ts";
import { tableVerbNamed, tableVerbs } from "./table-verbs.ts";
import { DESKTOP_VERBS } from "./desktop-verbs.ts";

export type { OutputMode } from "../present/result-text.ts";
import type { OutputMode } from "../present/result-text.ts";

export type Verb = {
  name: string;
  summary: string;
  usage: string;
  /** A core method, or (for the AWI-TTY-style verbs) the document's alias. */
  method: MethodName | AwiTtyName;
  flags: FlagSpec[];
  /** Whether the daemon is started when it is not running. */
  autoStart?: boolean;
  /** Positional words the verb takes: [min, max] (max Infinity for lists). */
  positionals: [number, number];
  /** The verb wants `-- ARGV...`. */
  wantsRest?: boolean;
  /** Params the verb builds itself; flags with `param` and `positionalParams` set theirs as given. */
  params?(args: ParsedArgs, client: ClientEnv): Record<string, unknown>;
  /** The params the positional words set, in order. */
  positionalParams?: string[];
  /** How the result reads; default: its method's renderer (lib/present/result-text.ts). */
  show?(result: any, mode: OutputMode): string;
  /** The CLI's exit code for a successful call (exec --propagate). */
  exitCode?(result: any, args: ParsedArgs): number;
  /** For `snapshot --out`: write the result's image/text to this file instead of printing. */
  out?(args: ParsedArgs, cwd: string): string | null;
  /** For `snapshot --save`: the file the CLI writes instead of printing. */
  save?(args: ParsedArgs, cwd: string): { file: string; masks: string[]; outline: boolean } | null;
};

export type ClientEnv = { cwd: string; env: Record<string, string> };

/** A CLI process's connection closes when it exits, so its leases need a lifetime of their own. */
const CLI_LEASE_TTL_MS = 60_000;

/** Wait conditions, documented by the wait method's params (waitSpec turns them into one). */
const WAIT_FLAGS: FlagSpec[] = [
  docFlag("wait", "text", "--text", { aliases: ["--wait-text"], value: "STR" }),
  docFlag("wait", "regex", "--regex", { aliases: ["--wait-regex"], value: "RE" }),
  docFlag("wait", "gone", "--gone", { aliases: ["--wait-gone"] }),
  docFlag("wait", "inScrollback", "--in-scrollback"),
  docFlag("wait", "settledMs", "--settled", { aliases: ["--idle"] }),
  docFlag("wait", "changedSince", "--changed-since", { value: "REV" }),
  docFlag("wait", "title", "--title", { aliases: ["--wait-title"], value: "STR|/RE/" }),
  docFlag("wait", "cursor", "--cursor", { aliases: ["--wait-cursor"], value: "ROW,COL", description: "the cursor is at ROW,COL (0-based)" }),
  docFlag("wait", "altScreen", "--alt-screen", { type: "string", value: "on|off", description: "the alternate screen is on or off" }),
  docFlag("wait", "exit", "--exit", { aliases: ["--wait-exit"] }),
  docFlag("wait", "ref", "--ref", { aliases: ["--wait-ref"], value: "SEL" }),
  docFlag("wait", "refValue", "--ref-value", { value: "V|/RE/" }),
  docFlag("wait", "output", "--output", { aliases: ["--wait-output"], value: "STR|/RE/" }),
  docFlag("wait", "turn", "--turn", { aliases: ["--wait-turn"], type: "string", value: "ID|last" }),
  docFlag("wait", "turnState", "--turn-state", { value: "STATE[,STATE]" }),
  docFlag("wait", "fromCursor", "--from-cursor"),
  docFlag("wait", "maxBytes", "--max-bytes"),
  { name: "--all", type: "bool", description: "wait until every condition holds (default: any)" },
  { name: "--any", type: "bool", description: "wait until one condition holds (the default)" },
  docFlag("wait", "timeoutMs", "--timeout"),
];

const WAIT_KEYS = new Set(["--text", "--regex", "--settled", "--changed-since", "--title", "--cursor", "--alt-screen", "--exit", "--ref", "--output", "--turn"]);

const AIM_FLAGS: FlagSpec[] = [
  paramFlag("type", "to", "--to", { value: "TARGET", description: "aim at this ref (@e4, @vim.mode) or selector: clicked first with mouse input, else it must be an input or focused" }),
  paramFlag("type", "revision", "--rev", { value: "REV" }),
];

function usage(message: string, verb: string): TuiwrightError {
  return new TuiwrightError("usage", message, { hint: `run \`tuiwright help ${verb}\` for the flags` });
}

function waitSpec(args: ParsedArgs, verb: string): Record<string, unknown> | undefined {
  const f = args.flags;
  if (![...f.keys()].some((key) => WAIT_KEYS.has(key))) {
    if (f.has("--timeout") || f.has("--all") || f.has("--gone")) throw usage(`${verb}: --timeout, --all and --gone need a condition such as --text`, verb);
    return undefined;
  }
  if (f.has("--all") && f.has("--any")) throw usage("--all and --any exclude each other", verb);
  const spec: Record<string, unknown> = {};
  if (f.has("--text")) spec.text = f.get("--text");
  if (f.has("--regex")) spec.regex = f.get("--regex");
  if (f.has("--gone")) spec.gone = true;
  if (f.has("--in-scrollback")) spec.inScrollback = true;
  if (f.has("--settled")) spec.settledMs = f.get("--settled");
  if (f.has("--changed-since")) spec.changedSince = f.get("--changed-since");
  if (f.has("--title")) spec.title = f.get("--title");
  if (f.has("--cursor")) {
    const match = /^(\d+),(\d+)$/.exec(String(f.get("--cursor")));
    if (!match) throw usage(`--cursor needs ROW,COL, got ${JSON.stringify(f.get("--cursor"))}`, verb);
    spec.cursor = { row: Number(match[1]), col: Number(match[2]) };
  }
  if (f.has("--alt-screen")) {
    const value = f.get("--alt-screen");
    if (value !== "on" && value !== "off") throw usage(`--alt-screen needs on or off, got ${JSON.stringify(value)}`, verb);
    spec.altScreen = value === "on";
  }
  if (f.has("--exit")) spec.exit = true;
  if (f.has("--ref")) spec.ref = f.get("--ref");
  if (f.has("--ref-value")) {
    if (!f.has("--ref")) throw usage("--ref-value needs --ref SEL", verb);
    spec.refValue = f.get("--ref-value");
  }
  if (f.has("--output")) spec.output = f.get("--output");
  if (f.has("--turn")) {
    const turn = String(f.get("--turn"));
    if (turn !== "last" && !/^[1-9]\d*$/.test(turn)) throw usage(`--turn needs a turn id (1, 2, …) or last, got ${JSON.stringify(turn)}`, verb);
    spec.turn = turn === "last" ? turn : Number(turn);
  }
  if (f.has("--turn-state")) {
    if (!f.has("--turn")) throw usage("--turn-state needs --turn ID|last", verb);
    spec.turnState = (f.get("--turn-state") as string[]).flatMap((word) => word.split(",")).map((word) => word.trim()).filter(Boolean);
  }
  if (f.has("--from-cursor")) spec.fromCursor = f.get("--from-cursor");
  if (f.has("--max-bytes")) spec.maxBytes = f.get("--max-bytes");
  if ((f.has("--from-cursor") || f.has("--max-bytes")) && !f.has("--output")) throw usage("--from-cursor and --max-bytes go with --output", verb);
  if (f.has("--all")) spec.mode = "all";
  if (f.has("--timeout")) spec.timeoutMs = f.get("--timeout");
  return spec;
}


/** The client's environment for a new program: its own, made right for our terminal. */
function spawnEnv(client: ClientEnv, pairs: string[]): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw usage(`--env needs KEY=VALUE, got ${JSON.stringify(pair)}`, "spawn");
    overrides[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return spawnEnvironment(client.env, overrides);
}

/** `\r \n \t \e \xNN \0 \\` in send's DATA. */
function unescapeInput(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|[rnte0\\])/g, (_, code: string) => {
    if (code.startsWith("x")) return String.fromCharCode(parseInt(code.slice(1), 16));
    return ({ r: "\r", n: "\n", t: "\t", e: "\x1b", "0": "\x00", "\\": "\\" } as Record<string, string>)[code]!;
  });
}

/** COLS ROWS as numbers; `shape` says which words count as whole numbers. */
function sizeWords(args: ParsedArgs, verb: string, shape: RegExp): { cols: number; rows: number } {
  const [cols, rows] = args.positionals.map((word, i) => {
    if (!shape.test(word)) throw usage(`${i === 0 ? "COLS" : "ROWS"} must be a whole number, got ${JSON.stringify(word)}`, verb);
    return Number(word);
  });
  return { cols: cols!, rows: rows! };
}

/** What every kind of spawn takes from its flags: where, environment, size, history, recording. */
function terminalParams(args: ParsedArgs, client: ClientEnv, verb: string): Record<string, unknown> {
  const f = args.flags;
  const params: Record<string, unknown> = {
    cwd: resolvePath(client.cwd, (f.get("--cwd") as string | undefined) ?? client.cwd),
    env: spawnEnv(client, (f.get("--env") as string[] | undefined) ?? []),
  };
  if (f.has("--cols")) params.cols = f.get("--cols");
  if (f.has("--rows")) params.rows = f.get("--rows");
  if (f.has("--scrollback")) params.scrollback = f.get("--scrollback");
  if (f.has("--no-record") && f.has("--cast")) throw usage("--no-record and --cast exclude each other", verb);
  if (f.has("--no-record")) params.record = false;
  if (f.has("--cast")) params.cast = resolvePath(client.cwd, String(f.get("--cast")));
  return params;
}




const BROWSER_VERBS: Record<string, () => Verb> = {
  "browse": () => ({
    name: "browse",
    summary: `open URL in the Carbonyl terminal browser, a new session (${DEFAULT_SIZE.browser.cols}x${DEFAULT_SIZE.browser.rows}; starts the daemon if needed)`,
    usage: "browse [--session NAME] [--cols C] [--rows R] [--env K=V]... [--no-record | --cast PATH] [--no-wait | --agent-socket PATH] URL",
    method: "spawn",
    autoStart: true,
    positionals: [1, 1],
    flags: [
      { name: "--cols", type: "int", value: "C", description: `terminal width (default ${DEFAULT_SIZE.browser.cols})` },
      { name: "--rows", type: "int", value: "R", description: `terminal height (default ${DEFAULT_SIZE.browser.rows})` },
      { name: "--env", type: "list", value: "K=V", description: "set an environment variable (CARBONYL=PATH picks the binary)" },
      { name: "--no-record", type: "bool", description: "do not record the session" },
      { name: "--cast", type: "string", value: "PATH", description: "record to this file (it must not exist)" },
      paramFlag("spawn", "noWait", "--no-wait", { description: "return at once, before the browser's engine has loaded the page (default: wait until the page is loaded and drawn, at most 25 s)" }),
      { name: "--agent-socket", type: "string", value: "PATH", description: "also serve the AWI-TTY calls at PATH for this browser (e.g. /tmp/carbonyl.sock with AWI_SOCK=/tmp/carbonyl.sock awi-tty …); removed when it ends" },
    ],
    params: (args, client) => {
      const agentSocket = args.flags.get("--agent-socket") as string | undefined;
      return { browser: args.positionals[0], ...terminalParams(args, client, "browse"), ...(agentSocket === undefined ? {} : { agentSocket: resolvePath(client.cwd, agentSocket) }) };
    },
    show: (r: Result<"spawn">, mode) => (mode === "plain" ? r.name : `started browser session ${r.name} (pid ${r.pid}, ${r.cols}x${r.rows}): ${r.argv.at(-1)}`),
  }),
  "scroll": () => ({
    name: "scroll",
    summary: "turn the mouse wheel (browser pages, programs with mouse input): N > 0 scrolls down, N < 0 up",
    usage: "scroll [--session NAME] [--at ROW,COL] [--settle MS] N",
    method: "scroll",
    positionals: [1, 1],
    flags: [
      { name: "--at", type: "string", value: "ROW,COL", description: "where the wheel turns (default: the middle of the screen)" },
      paramFlag("scroll", "settleMs", "--settle"),
    ],
    params(args) {
      const word = args.positionals[0]!;
      if (!/^-?\d+$/.test(word) || Number(word) === 0) throw usage(`N must be a non-zero whole number of wheel steps, got ${JSON.stringify(word)}`, "scroll");
      const params: Record<string, unknown> = { delta: Number(word) };
      if (args.flags.has("--at")) {
        const match = /^(\d+),(\d+)$/.exec(String(args.flags.get("--at")));
        if (!match) throw usage(`--at needs ROW,COL, got ${JSON.stringify(args.flags.get("--at"))}`, "scroll");
        params.row = Number(match[1]);
        params.col = Number(match[2]);
      }
      return params;
    },
  }),
  "set-viewport": () => ({
    name: "set-viewport",
    summary: "resize the terminal, AWI-TTY style (invalid sizes: invalid-viewport, exit 65)",
    usage: "set-viewport [--session NAME] COLS ROWS",
    method: "set_viewport",
    positionals: [2, 2],
    flags: [],
    params: (args) => sizeWords(args, "set-viewport", /^-?\d+$/), // the daemon judges the size: invalid-viewport
    show: (r: { session: string; cols: number; rows: number }, mode) => (mode === "plain" ? `${r.cols}x${r.rows}` : `${r.session}: ${r.cols}x${r.rows}`),
  }),
};

function resolvePath(cwd: string, path: string): string {
  return path.startsWith("/") ? path : `${cwd.replace(/\/$/, "")}/${path}`;
}

/** The verbs written here (the method table's are in table-verbs.ts), by name, each made when first
 * asked for: a CLI start makes only its own verb. */
const WRITTEN: Record<string, () => Verb> = {
  "spawn": () => ({
    name: "spawn",
    summary: "start a program on a new terminal (starts the daemon if needed)",
    usage: "spawn [--session NAME] [--cols C] [--rows R] [--cwd DIR] [--env K=V]... [--no-record | --cast PATH] (-- PROGRAM [ARGS...] | --shell [bash|zsh|fish] | --browser URL)",
    method: "spawn",
    autoStart: true,
    positionals: [0, 1],
    wantsRest: true,
    flags: [
      { name: "--cols", type: "int", value: "C", description: `terminal width (default ${DEFAULT_SIZE.program.cols}; ${DEFAULT_SIZE.browser.cols} for --browser)` },
      { name: "--rows", type: "int", value: "R", description: `terminal height (default ${DEFAULT_SIZE.program.rows}; ${DEFAULT_SIZE.browser.rows} for --browser)` },
      { name: "--cwd", type: "string", value: "DIR", description: "working directory (default: yours)" },
      { name: "--env", type: "list", value: "K=V", description: "set an environment variable" },
      { name: "--scrollback", type: "int", value: "LINES", description: "history kept (default 1000)", default: 1000 },
      { name: "--shell", type: "bool", description: "a shell with command blocks (exec): `--shell`, `--shell bash|zsh|fish` (default: $SHELL if one of those, else bash)" },
      { name: "--no-integration", type: "bool", description: "with --shell: no OSC 133 integration (exec falls back to the prompt on screen: no exit codes)" },
      { name: "--browser", type: "string", value: "URL", description: "the Carbonyl terminal browser at URL (same as `browse URL`)" },
      { name: "--no-record", type: "bool", description: "do not record the session (default: asciicast v3 in the state directory)" },
      { name: "--cast", type: "string", value: "PATH", description: "record to this file (it must not exist)" },
      { name: "--no-wait", type: "bool", description: "return at once, before the program has drawn (default: wait for its first screen, at most 3 s)" },
    ],
    params(args, client) {
      const f = args.flags;
      if (f.has("--browser")) {
        if (f.has("--shell") || args.positionals.length > 0 || (args.rest && args.rest.length > 0)) throw usage("give one of --browser URL, --shell or a program after --", "spawn");
        return { browser: String(f.get("--browser")), ...terminalParams(args, client, "spawn") };
      }
      const shell = f.has("--shell") ? (args.positionals[0] ?? "auto") : null;
      if (shell === null && args.positionals.length > 0) throw usage(`spawn takes the program after --; got ${JSON.stringify(args.positionals[0])}`, "spawn");
      if (shell !== null && !["bash", "zsh", "fish", "auto"].includes(shell)) throw usage(`--shell takes bash, zsh, fish or nothing (auto); got ${JSON.stringify(shell)}`, "spawn");
      if (shell !== null && args.rest && args.rest.length > 0) throw usage("give --shell or a program after --, not both", "spawn");
      if (shell === null && (!args.rest || args.rest.length === 0)) throw usage("spawn needs a program after --, e.g. `tuiwright spawn -- bash`, or --shell", "spawn");
      if (f.has("--no-integration") && shell === null) throw usage("--no-integration goes with --shell", "spawn");
      return {
        ...(shell === null ? { argv: args.rest } : { shell, ...(f.has("--no-integration") ? { integration: false } : {}) }),
        ...terminalParams(args, client, "spawn"),
        ...(f.has("--no-wait") ? { noWait: true } : {}),
      };
    },
  }),
  "resize": () => ({
    name: "resize",
    summary: "resize the terminal",
    usage: "resize [--session NAME] COLS ROWS [--timeout MS]",
    method: "resize",
    positionals: [2, 2],
    flags: [paramFlag("resize", "timeoutMs", "--timeout", { value: "MS" })],
    params: (args) => sizeWords(args, "resize", /^\d+$/),
  }),
  "snapshot": () => ({
    name: "snapshot",
    summary: "print the screen (text, ansi or cells)",
    usage: "snapshot [--session NAME] [--format text|ansi|cells|outline|svg|png] [--select SEL] [--scrollback N] [--include-meta] [--raw] [--out FILE] [--annotate SEL] [--chrome TITLE] [--save FILE [--mask RE]... [--outline]]",
    method: "snapshot",
    positionals: [0, 0],
    flags: [
      paramFlag("snapshot", "format", "--format", { aliases: ["--mode"], value: "FMT" }),
      { name: "--out", type: "string", value: "FILE", description: "write the snapshot to FILE (png needs it; - = stdout); never through a symlink" },
      paramFlag("snapshot", "annotate", "--annotate", { value: "SEL" }),
      paramFlag("snapshot", "chrome", "--chrome", { value: "TITLE" }),
      paramFlag("snapshot", "select", "--select", { value: "SEL" }),
      paramFlag("snapshot", "scrollback", "--scrollback"),
      paramFlag("snapshot", "includeMeta", "--include-meta", { aliases: ["--meta"] }),
      paramFlag("snapshot", "raw", "--raw"),
      { name: "--save", type: "string", value: "FILE", description: "write a snapshot file (for replay --expect-snapshot) instead of printing" },
      { name: "--mask", type: "list", value: "RE", description: "with --save: blank RE's matches when comparing (clocks, pids)" },
      { name: "--outline", type: "bool", description: "with --save: include the outline (then it is compared too)" },
    ],
    out(args, cwd) {
      const out = args.flags.get("--out");
      return out === undefined ? null : out === "-" ? "-" : resolvePath(cwd, String(out)); // "-": standard output
    },
    save(args, cwd) {
      if (!args.flags.has("--save")) {
        if (args.flags.has("--mask") || args.flags.has("--outline")) throw usage("--mask and --outline go with --save FILE", "snapshot");
        return null;
      }
      // A snapshot file is the screen (replay compares screens): history would be dropped silently.
      if (args.flags.has("--scrollback")) throw usage("--save writes the screen only: leave out --scrollback (read history with --format text --scrollback N)", "snapshot");
      return { file: resolvePath(cwd, String(args.flags.get("--save"))), masks: (args.flags.get("--mask") as string[] | undefined) ?? [], outline: args.flags.has("--outline") };
    },
    params(args) {
      const format = args.flags.get("--format");
      if ((args.flags.has("--annotate") || args.flags.has("--chrome")) && format !== "svg" && format !== "png") throw usage("--annotate and --chrome go with --format svg or png", "snapshot");
      if (format === "png" && !args.flags.has("--out")) throw usage("--format png writes binary: give --out FILE", "snapshot");
      return {};
    },
  }),
  "type": () => ({
    name: "type",
    summary: "type text: printable characters, tab and line breaks (\\r is Enter; press keys such as C-c by name); --paste sends it as a paste",
    usage: "type [--session NAME] [--paste | --raw] [--secret] [--to TARGET] [WAIT FLAGS] TEXT",
    method: "type",
    positionals: [1, 1],
    flags: [
      paramFlag("type", "paste", "--paste"),
      paramFlag("type", "raw", "--raw"),
      paramFlag("type", "secret", "--secret"),
      ...AIM_FLAGS,
      ...WAIT_FLAGS,
    ],
    positionalParams: ["text"],
    params(args) {
      const wait = waitSpec(args, "type");
      return wait ? { wait } : {};
    },
  }),
  "press": () => ({
    name: "press",
    summary: "press keys: Enter Tab Escape Backspace Space Up Down Left Right Home End PageUp PageDown Insert Delete F1..F12, a character, with C- M- S-",
    usage: "press [--session NAME] [--to TARGET] [WAIT FLAGS] KEY...",
    method: "press",
    positionals: [1, Infinity],
    flags: [...AIM_FLAGS, ...WAIT_FLAGS],
    params(args) {
      const wait = waitSpec(args, "press");
      return { keys: args.positionals, ...(wait ? { wait } : {}) };
    },
  }),
  "click": () => ({
    name: "click",
    summary: "click a node (@e4, @vim.mode, or a selector matching one node) or a cell ROW COL",
    usage: "click [--session NAME] [--rev REV] [--button left|middle|right] [--modifier ctrl|alt|shift|meta]... [WAIT FLAGS] TARGET | ROW COL",
    method: "click",
    positionals: [1, 2],
    flags: [
      paramFlag("click", "revision", "--rev", { value: "REV" }),
      paramFlag("click", "button", "--button", { value: "B" }),
      paramFlag("click", "modifiers", "--modifier", { value: "M" }),
      ...WAIT_FLAGS,
    ],
    params(args) {
      const wait = waitSpec(args, "click");
      const params: Record<string, unknown> = {};
      if (args.positionals.length === 2) {
        const [row, col] = args.positionals.map((word, i) => {
          if (!/^\d+$/.test(word)) throw usage(`${i === 0 ? "ROW" : "COL"} must be a whole number, got ${JSON.stringify(word)}`, "click");
          return Number(word);
        });
        Object.assign(params, { row, col });
      } else {
        params.target = args.positionals[0];
      }
      const modifiers = args.flags.get("--modifier") as string[] | undefined;
      return { ...params, ...(modifiers ? { modifiers } : {}), ...(wait ? { wait } : {}) };
    },
  }),
  ...BROWSER_VERBS,
  ...Object.fromEntries(DESKTOP_VERBS.map((verb) => [verb.name, () => verb])),
  "exec": () => ({
    name: "exec",
    summary: "shell sessions: run a command at the prompt; print its output when its block ends (exit code with --propagate)",
    usage: "exec [--session NAME] [--cwd DIR] [--timeout MS] [--max-output N] [--queue] [--interactive] [--propagate] [--follow] -- COMMAND",
    method: "exec",
    positionals: [0, 1],
    wantsRest: true,
    flags: [
      docFlag("exec", "cwd", "--cwd", { value: "DIR" }), // relative to the caller's cwd: made absolute below
      paramFlag("exec", "timeoutMs", "--timeout"),
      paramFlag("exec", "maxOutput", "--max-output"),
      paramFlag("exec", "queue", "--queue"),
      paramFlag("exec", "interactive", "--interactive"),
      { name: "--propagate", type: "bool", description: "exit with the command's exit code" },
      { name: "--follow", type: "bool", description: "print the output as it comes (not when the block ends); then the footer as usual" },
    ],
    params(args, client) {
      const command = args.rest ? args.rest.join(" ") : args.positionals[0];
      if (!command) throw usage("exec needs a command: `tuiwright exec -- 'make test'`", "exec");
      if (args.rest && args.positionals.length > 0) throw usage("give the command after -- or as one argument, not both", "exec");
      const f = args.flags;
      return {
        command,
        ...(f.has("--cwd") ? { cwd: resolvePath(client.cwd, String(f.get("--cwd"))) } : {}),
      };
    },
    exitCode: (r: Result<"exec">, args) => (args.flags.has("--propagate") && "exitCode" in r ? (r.exitCode ?? 1) : 0),
  }),
  "send": () => ({
    name: "send",
    summary: "shell sessions: write raw input (\\r \\n \\t \\e \\xNN escapes) to an interactive program; prints the output cursor before it",
    usage: "send [--session NAME] [--secret] [--block N] [--enter] [--ctrl-c] [--ctrl-d] [DATA]",
    method: "send",
    positionals: [0, 1],
    flags: [
      paramFlag("send", "secret", "--secret"),
      paramFlag("send", "block", "--block"),
      { name: "--enter", type: "bool", description: "then a carriage return" },
      { name: "--ctrl-c", type: "bool", description: "then Ctrl-C" },
      { name: "--ctrl-d", type: "bool", description: "then Ctrl-D" },
    ],
    params(args) {
      let data = unescapeInput(args.positionals[0] ?? "");
      if (args.flags.has("--enter")) data += "\r";
      if (args.flags.has("--ctrl-c")) data += "\x03";
      if (args.flags.has("--ctrl-d")) data += "\x04";
      if (data === "") throw usage("send needs DATA or --enter/--ctrl-c/--ctrl-d", "send");
      return { data };
    },
  }),
  "block": () => ({
    name: "block",
    summary: "shell sessions: one block's output (and, without --plain, its facts)",
    usage: "block [--session NAME] SEQ",
    method: "block",
    positionals: [1, 1],
    flags: [],
    params(args) {
      if (!/^\d+$/.test(args.positionals[0]!)) throw usage(`SEQ must be a block number, got ${JSON.stringify(args.positionals[0])}`, "block");
      return { seq: Number(args.positionals[0]) };
    },
  }),
  "wait": () => ({
    name: "wait",
    summary: "wait until the screen meets conditions (evaluated on every write, never polled)",
    usage: "wait [--session NAME] [--text STR]... [--regex RE]... [--settled MS] [--exit] ... [--all] [--timeout MS]",
    method: "wait",
    positionals: [0, 0],
    flags: [...WAIT_FLAGS, { name: "--print", type: "bool", description: "print the screen once the wait is over" }],
    params(args) {
      const spec = waitSpec(args, "wait");
      if (!spec) throw usage("wait needs a condition: --text, --regex, --settled, --changed-since, --title, --cursor, --alt-screen or --exit", "wait");
      return { ...spec, ...(args.flags.has("--print") ? { includeText: true } : {}) };
    },
  }),
  "adapter check": () => ({
    name: "adapter check",
    summary: "validate a manifest file; errors name the line and key",
    usage: "adapter check FILE",
    method: "adapter.check",
    autoStart: true,
    positionals: [1, 1],
    flags: [],
    params(args, client) {
      return { source: readWordFile(client.cwd, args.positionals[0]!, { what: "manifest" }).text, file: args.positionals[0] };
    },
  }),
  "lease acquire": () => ({
    name: "lease acquire",
    summary: "take the session's write lease: others' input is refused (exit 75) until released or expired",
    usage: "lease acquire [--session NAME] --owner ID [--ttl MS]",
    method: "lease.acquire",
    positionals: [0, 0],
    flags: [
      paramFlag("lease.acquire", "owner", "--owner", { value: "ID" }),
      { name: "--ttl", type: "int", value: "MS", description: `expire after MS ms (default for the CLI: ${CLI_LEASE_TTL_MS}; a CLI connection closes at once)` },
    ],
    params(args) {
      if (!args.flags.has("--owner")) throw usage("lease acquire needs --owner ID", "lease acquire");
      return { ttlMs: args.flags.get("--ttl") ?? CLI_LEASE_TTL_MS };
    },
  }),
  "daemon start": () => ({
    name: "daemon start",
    summary: "start the daemon if it is not running",
    usage: "daemon start",
    method: "daemon.status",
    autoStart: true,
    positionals: [0, 0],
    flags: [],
    show: (r: Result<"daemon.status">, mode) => (mode === "plain" ? String(r.pid) : `daemon running: pid ${r.pid}, socket ${r.socket}`),
  }),
};

const madeWritten = new Map<string, Verb>();
/** The written verb with this name, or null; one object per verb however it was asked for. */
function writtenVerb(name: string): Verb | null {
  const make = Object.hasOwn(WRITTEN, name) ? WRITTEN[name] : undefined;
  return make ? (madeWritten.get(name) ?? madeWritten.set(name, make()).get(name)!) : null;
}
const writtenVerbs = (): Verb[] => Object.keys(WRITTEN).map((name) => writtenVerb(name)!);

/** The order `help` lists the verbs in. */
const HELP_ORDER = [
  "spawn", "list", "kill", "signal", "resize", "snapshot", "type", "press", "click", "get",
  "browse", "navigate", "back", "forward", "reload", "scroll", "mouse", "set-viewport",
  "desktop create", "desktop destroy", "desktop list", "desktop snapshot", "desktop exec", "desktop say", "desktop install",
  "desktop open-session", "desktop save", "desktop restore",
  "exec", "send", "end", "reset", "status", "blocks", "block", "mark", "wait", "capabilities", "ping",
  "adapter list", "adapter check", "lease acquire", "lease release", "daemon status", "daemon start", "daemon stop",
];
const HELP_RANK = new Map(HELP_ORDER.map((name, i) => [name, i]));
const rank = (verb: Verb) => HELP_RANK.get(verb.name) ?? HELP_ORDER.length; // a verb not listed: last

let all: Verb[] | null = null;
/** Every verb, in help's order (help, docs, completion): built on first call. */
export const allVerbs = (): Verb[] => (all ??= [...tableVerbs(), ...writtenVerbs()].sort((a, b) => rank(a) - rank(b)));

/** The verb the words name (one word, or two: `daemon stop`). Verb names are unique and none is the
 * first word of another (tests/unit/cli/table-verbs.test.ts), so a lookup by name is the same as the
 * first match in help's order — and builds only the one table verb it finds. */
export function findVerb(words: string[], verbs?: Verb[]): { verb: Verb; consumed: number } | null {
  if (verbs === undefined) {
    for (const consumed of [1, 2]) {
      if (words.length < consumed) break;
      const name = words.slice(0, consumed).join(" ");
      const verb = writtenVerb(name) ?? tableVerbNamed(name);
      if (verb) return { verb, consumed };
    }
    return null;
  }
  for (const verb of verbs) {
    const parts = verb.name.split(" ");
    if (parts.every((part, i) => words[i] === part)) return { verb, consumed: parts.length };
  }
  return null;
}
