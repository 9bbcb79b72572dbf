// The method table: every JSON-RPC method is defined here once. Types, the daemon's handler
// table, `capabilities` and (later) MCP tools and docs are derived from it.
import * as v from "valibot";
// Event is the payload of `event` notifications (not a method); exported for docs and clients.
export { Event } from "./schemas.ts";
import { DESKTOP_METHODS } from "./desktop-methods.ts";
import {
  ActionResult, CellRun, Cols, doc, Event, EventType, ExitStatus, Hash, Lease, LeaseToken, LostSession, Meta, Outline, Revision, Rows,
  BlockResult, FirstScreen, SessionInfo, SessionName, ShellMode, SnapshotFormat, Target, WaitConditions, WaitResult,
} from "./schemas.ts";

type MethodDef = {
  title: string;
  readOnly: boolean;
  destructive?: boolean;
  /** An AWI-TTY name for this tuiwright method (same work, the document's shapes); not an MCP tool. */
  aliasOf?: string;
  params: v.GenericSchema;
  result: v.GenericSchema;
};

const target = { session: v.optional(SessionName) };
/** A screen cell, 0-based, for the browser's mouse methods. */
const cell = { row: doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "0-based row"), col: doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "0-based column") };
/** AWI-TTY methods (the Carbonyl agent-socket document) keep its snake_case names and
 * `{ok: true}` results; they act on the named session, else the most recent one. */
const ok = { ok: v.literal(true), session: v.string() };
const NavSettle = doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(60_000)), "the page counts as loaded once it drew and then was still this long (or, with its title announced, only a quarter of its rows kept changing: an animation); default 100 ms once the page announced its title, else 300");
const NavTimeout = doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000)), "give up (navigation-timeout, exit 124) after this long; default 30000");
/** A page's title, or null with title_reason when Carbonyl announced none for the page shown. */
const PageTitle = {
  title: v.nullable(v.string()),
  title_source: v.optional(doc(v.picklist(["announced", "remembered"]), "announced for this page, or remembered from an earlier visit in this session")),
  title_reason: v.optional(doc(v.string(), "why title is null")),
};
const Navigated = v.object({ ...ok, url: v.string(), ...PageTitle, revision: Revision });
const NavState = { can_go_back: v.boolean(), can_go_forward: v.boolean() };
/** One JS thread's heap, as JavaScriptCore counts it. */
const HeapReport = v.object({
  heapSize: v.number(),
  heapCapacity: v.number(),
  extraMemorySize: v.number(),
  objectCount: v.number(),
  types: v.record(v.string(), v.number()),
});
/** Input methods: refused (busy, exit 75) while another owner holds the session's write lease. */
const writer = { session: v.optional(SessionName), lease: v.optional(LeaseToken) };
const WaitSpec = v.strictObject(WaitConditions);
/** Input aimed at a node: click it first when the program takes mouse input; without mouse input
 * the node must be an input or focused, and the keys go there without a click. */
const aimed = {
  to: v.optional(Target),
  revision: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "the revision the ref was issued at; default: the last outline issued")),
};

export const METHODS = {
  ping: {
    title: "Check that the daemon answers",
    readOnly: true,
    params: v.strictObject({}),
    result: v.object({ pong: v.literal(true), version: v.string(), pid: v.number() }),
  },
  capabilities: {
    title: "Version, methods with JSON Schemas, snapshot formats and the error table",
    readOnly: true,
    params: v.strictObject({}),
    result: v.object({
      version: v.string(),
      methods: v.array(v.object({ name: v.string(), title: v.string(), readOnly: v.boolean(), aliasOf: v.optional(v.string()), params: v.unknown(), result: v.unknown() })),
      formats: v.array(v.string()),
      keys: v.array(v.string()),
      errors: v.array(v.object({ name: v.string(), code: v.number(), exit: v.number(), hint: v.string() })),
    }),
  },
  "daemon.status": {
    title: "The daemon's pid, version, socket, uptime, sessions and memory",
    readOnly: true,
    params: v.strictObject({}),
    result: v.object({
      pid: v.number(),
      version: v.string(),
      namespace: v.string(),
      socket: v.string(),
      startedAt: v.string(),
      uptimeMs: v.number(),
      idleTimeoutMs: v.number(),
      sessions: v.number(),
      pendingCalls: doc(v.number(), "calls in flight to session workers (waits, mostly); a client that hangs up takes its own with it"),
      rssBytes: v.number(),
    }),
  },
  "daemon.stop": {
    title: "Kill every session's processes and stop the daemon",
    readOnly: false,
    destructive: true,
    params: v.strictObject({}),
    result: v.object({ stopped: v.literal(true), sessionsKilled: v.number() }),
  },
  spawn: {
    title: "Start a program on a new pseudo-terminal",
    readOnly: false,
    params: v.strictObject({
      session: v.optional(doc(SessionName, "name for the new session; default derived from the program name")),
      argv: v.optional(doc(v.pipe(v.array(v.string()), v.minLength(1, "argv needs the program to run")), "program and arguments (or give shell)")),
      shell: v.optional(doc(v.picklist(["bash", "zsh", "fish", "auto"]), "start a shell with command-block integration (auto: $SHELL if bash, zsh or fish, else bash)")),
      integration: v.optional(doc(v.boolean(), "with shell: inject the OSC 133 integration (default true)"), true),
      cwd: v.optional(doc(v.pipe(v.string(), v.startsWith("/", "cwd must be an absolute path")), "working directory; the CLI sends its own (default: $HOME)")),
      env: v.optional(doc(v.record(v.string(), v.string()), "the complete environment; the CLI sends its own plus --env (default: PATH, HOME, LANG only)")),
      browser: v.optional(doc(v.string(), "start the Carbonyl terminal browser at this URL (a browser session, 140x45 unless cols/rows say otherwise); returns once the browser has drawn its URL bar and been still 300 ms")),
      cols: v.optional(doc(Cols, "default 120 (140 for a browser)")),
      rows: v.optional(doc(Rows, "default 40 (45 for a browser)")),
      scrollback: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000)), "lines of history kept"), 1000),
      record: v.optional(doc(v.boolean(), "record the session as asciicast v3 (default true)"), true),
      cast: v.optional(doc(v.pipe(v.string(), v.startsWith("/", "cast must be an absolute path")), "where to write the recording (default: the state directory)")),
      noWait: v.optional(doc(v.boolean(), "return at once; by default spawn returns once the program has drawn its first screen and been still briefly, or waits for input (at most 3 s), so nothing is typed ahead of it"), false),
    }),
    result: v.object({ ...SessionInfo.entries, firstScreen: v.optional(FirstScreen) }),
  },
  list: {
    title: "List the sessions",
    readOnly: true,
    params: v.strictObject({}),
    result: v.object({
      sessions: v.array(SessionInfo),
      current: v.nullable(v.string()),
      lost: doc(v.array(LostSession), "sessions of a previous daemon that died without shutting down (their leftover programs were killed)"),
    }),
  },
  kill: {
    title: "Kill a session's process groups (escalating to SIGKILL) and remove the session",
    readOnly: false,
    destructive: true,
    params: v.strictObject({
      ...writer,
      signal: v.optional(doc(v.string(), "first signal to send (default SIGHUP, as when a terminal closes: interactive shells ignore SIGTERM)"), "SIGHUP"),
      graceMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(600_000)), "how long to wait before SIGKILL"), 2000),
    }),
    result: v.object({ session: v.string(), exit: v.nullable(ExitStatus) }),
  },
  signal: {
    title: "Send a signal to the session's foreground process group",
    readOnly: false,
    params: v.strictObject({ ...writer, signal: doc(v.string(), "signal name, e.g. SIGINT or INT") }),
    result: v.object({ session: v.string(), signal: v.string(), pgid: v.number() }),
  },
  resize: {
    title: "Resize the terminal",
    readOnly: false,
    params: v.strictObject({ ...writer, cols: doc(Cols, "terminal width in cells"), rows: doc(Rows, "terminal height in rows") }),
    result: v.object({ session: v.string(), cols: v.number(), rows: v.number(), revision: Revision }),
  },
  snapshot: {
    title: "Read the screen as text, ANSI or cells",
    readOnly: true,
    params: v.strictObject({
      ...target,
      format: v.optional(doc(SnapshotFormat, "text (rows right-trimmed), ansi (SGR kept), cells (styled runs), outline (the node tree with refs), svg or png"), "text"),
      scrollback: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "lines of history above the screen to include"), 0),
      includeMeta: v.optional(doc(v.boolean(), "add meta: cursor, title, cwd, alternate screen, modes, foreground program, recording, exit"), false),
      include_meta: v.optional(doc(v.boolean(), "AWI-TTY spelling of includeMeta")),
      raw: v.optional(doc(v.boolean(), "text: keep the glyphs a manifest marks as pixels (a browser's ▄ half-blocks)"), false),
      select: v.optional(doc(v.string(), "a selector: outline → only the matched nodes; text → only their boxes")),
      annotate: v.optional(doc(v.string(), "svg/png: draw labelled boxes around the nodes this selector matches")),
      chrome: v.optional(doc(v.string(), "svg/png: a window frame with this title")),
    }),
    result: v.object({
      session: v.string(),
      format: SnapshotFormat,
      revision: Revision,
      hash: Hash,
      cols: v.number(),
      rows: v.number(),
      text: v.optional(v.string()),
      ansi: v.optional(v.string()),
      width: v.optional(doc(v.number(), "text/ansi: AWI-TTY name of cols")),
      height: v.optional(doc(v.number(), "text/ansi: AWI-TTY name of rows")),
      lines: v.optional(doc(v.array(v.string()), "text/ansi: every row of the screen (AWI-TTY)")),
      cells: v.optional(v.array(v.array(CellRun))),
      outline: v.optional(Outline),
      svg: v.optional(v.string()),
      png: v.optional(doc(v.string(), "base64")),
      meta: v.optional(Meta),
    }),
  },
  type: {
    title: "Type literal text (bracketed paste with paste: true when the program enabled it)",
    readOnly: false,
    params: v.strictObject({
      ...writer,
      text: doc(v.string(), "the text, typed as is (\r is Enter); long text is sent in pieces"),
      paste: v.optional(doc(v.boolean(), "send as a bracketed paste when the program enabled it (its markers can never end the paste early)"), false),
      secret: v.optional(doc(v.boolean(), "recorded as *** in the cast and markers"), false),
      ...aimed,
      wait: v.optional(doc(WaitSpec, "after acting, wait for these conditions (screen conditions count only screens after the action)")),
    }),
    result: ActionResult,
  },
  press: {
    title: "Press named keys, e.g. Enter, C-c, S-Tab, M-Left, F5",
    readOnly: false,
    params: v.strictObject({ ...writer, keys: doc(v.pipe(v.array(v.string()), v.minLength(1, "name at least one key")), "key names: Enter, Tab, Escape, Up, F5, C-c, M-x, S-Tab, a character, or vim notation like ':wq<cr>'"), ...aimed, wait: v.optional(doc(WaitSpec, "after acting, wait for these conditions (screen conditions count only screens after the action)")) }),
    result: ActionResult,
  },
  click: {
    title: "Click a node (by ref or selector) or a cell, with the mouse protocol the program enabled",
    readOnly: false,
    params: v.strictObject({
      ...writer,
      target: v.optional(Target),
      revision: aimed.revision,
      row: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "with col: click this cell (0-based) instead of a target")),
      col: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "with row: the cell's 0-based column")),
      button: v.optional(doc(v.picklist(["left", "middle", "right"]), "mouse button"), "left"),
      wait: v.optional(doc(WaitSpec, "after acting, wait for these conditions (screen conditions count only screens after the action)")),
    }),
    result: ActionResult,
  },
  mark: {
    title: "Add a marker to the session's recording",
    readOnly: false,
    params: v.strictObject({ ...target, label: doc(v.pipe(v.string(), v.maxLength(1000)), "the marker's label in the recording (replay --at-marker finds it)") }),
    result: v.object({ session: v.string(), label: v.string() }),
  },
  get: {
    title: "Read one property: title, cwd, size, cursor, exit, cast (the recording's path); browsers: url, nav",
    readOnly: true,
    params: v.strictObject({ ...target, what: doc(v.picklist(["title", "cwd", "size", "cursor", "exit", "cast", "url", "nav"]), "which value to read") }),
    result: v.object({
      session: v.string(),
      what: v.string(),
      value: v.unknown(),
      // AWI-TTY field names beside value, so `get nav --json | jq .can_go_back` works.
      title: v.optional(v.string()),
      url: v.optional(v.string()),
      can_go_back: v.optional(v.boolean()),
      can_go_forward: v.optional(v.boolean()),
    }),
  },
  wait: {
    title: "Wait until screen conditions hold, evaluated on every parsed write (no polling)",
    readOnly: true,
    params: v.strictObject({ ...target, ...WaitConditions, includeText: v.optional(doc(v.boolean(), "return the screen text with the result"), false) }),
    result: WaitResult,
  },
  subscribe: {
    title: "Receive events (screen, title, bell, exit, resize, lease) as `event` notifications on this connection",
    readOnly: true,
    params: v.strictObject({
      session: v.optional(doc(SessionName, "only this session's events; default: every session, present and future")),
      types: v.optional(v.pipe(v.array(EventType), v.minLength(1, "name at least one event type"))),
      debounceMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000)), "coalesce screen events per session: at most one per window, the latest"), 0),
    }),
    result: v.object({ subscription: v.string() }),
  },
  unsubscribe: {
    title: "Stop a subscription",
    readOnly: true,
    params: v.strictObject({ subscription: v.string() }),
    result: v.object({ subscription: v.string(), unsubscribed: v.literal(true) }),
  },
  "lease.acquire": {
    title: "Take the session's write lease: other callers' input is refused (exit 75) until it is released or expires",
    readOnly: false,
    params: v.strictObject({
      ...target,
      owner: doc(v.pipe(v.string(), v.minLength(1), v.maxLength(200)), "who holds it (shown to refused writers)"),
      ttlMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(24 * 3600_000)), "expire after this long; without it the lease lasts as long as this connection")),
      lease: v.optional(doc(LeaseToken, "renew the lease you hold")),
    }),
    result: Lease,
  },
  "lease.release": {
    title: "Release the session's write lease",
    readOnly: false,
    params: v.strictObject({ ...target, lease: LeaseToken }),
    result: v.object({ session: v.string(), released: v.literal(true) }),
  },
  exec: {
    title: "Shell sessions: run a command at the prompt and return its block (output, exit code, cwd) when it ends",
    readOnly: false,
    params: v.strictObject({
      ...writer,
      command: doc(v.pipe(v.string(), v.minLength(1)), "the command line, as typed at the prompt (multi-line: one block)"),
      cwd: v.optional(doc(v.pipe(v.string(), v.startsWith("/", "cwd must be an absolute path")), "run it in this directory (in a subshell: the shell's own cwd does not move)")),
      timeoutMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(24 * 3600_000)), "give up waiting for the block to end after this long (the command keeps running)"), 60_000),
      maxOutput: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "characters of output returned (the transcript keeps all)"), 65_536),
      queue: v.optional(doc(v.boolean(), "wait for a running block instead of failing busy"), false),
      interactive: v.optional(doc(v.boolean(), "start it and return the output cursor at once (then send / wait --output)"), false),
    }),
    result: v.union([BlockResult, v.object({ session: v.string(), cursor: doc(v.number(), "the output cursor just after the command's echo"), mode: ShellMode, block: v.optional(doc(v.number(), "the interactive session's block")), startedAt: v.optional(v.string()) })]),
  },
  send: {
    title: "Shell sessions: write raw input (to an interactive program) and return the output cursor before it",
    readOnly: false,
    params: v.strictObject({ ...writer, data: doc(v.string(), "raw input for the program (\r is Enter, \x03 is Ctrl-C)"), secret: v.optional(doc(v.boolean(), "a password or token: masked (as `*`) in the cast, the transcript, blocks and results from now on"), false) }),
    result: v.object({ session: v.string(), bytes: v.number(), cursor: v.number() }),
  },
  end: {
    title: "Shell sessions: end the running program — its own exit line for a known shell/REPL (exit, exit(), .exit, \\q …), then Ctrl-C, then SIGTERM, then SIGKILL to the foreground group",
    readOnly: false,
    destructive: true,
    params: v.strictObject({ ...writer, graceMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000)), "how long each step gets before the next, harder one"), 2000) }),
    result: v.object({
      session: v.string(),
      how: doc(v.picklist(["exit", "interrupt", "SIGTERM", "SIGKILL"]), "the step that ended it: exit (the known shell/REPL's own exit line), interrupt (Ctrl-C), or a signal"),
      program: v.optional(doc(v.nullable(v.string()), "the foreground program it found (null: the shell itself was running a builtin)")),
      mode: ShellMode,
    }),
  },
  reset: {
    title: "Kill the session's programs and start it again with the same name and settings",
    readOnly: false,
    destructive: true,
    params: v.strictObject({ ...writer }),
    result: SessionInfo,
  },
  status: {
    title: "Shell sessions: mode (starting, idle, block_running, interactive, continuation, exited), the open block, the output cursor",
    readOnly: true,
    params: v.strictObject({ ...target }),
    result: v.object({
      session: v.string(),
      integration: v.boolean(),
      mode: ShellMode,
      exitCode: v.optional(doc(v.nullable(v.number()), "mode exited: the shell's exit code (null when a signal ended it)")),
      pid: v.optional(doc(v.number(), "the shell's process id")),
      signal: v.optional(v.nullable(v.string())),
      block: v.nullable(v.object({ seq: v.number(), command: v.string(), interactive: v.boolean(), cursor: v.number() })),
      blocks: v.number(),
      cursor: v.number(),
      cwd: v.nullable(v.string()),
    }),
  },
  blocks: {
    title: "Shell sessions: past blocks (command, exit code, times, cwd), newest last; the last 1000 (older ones: `block SEQ`, or blocks.jsonl in the transcript)",
    readOnly: true,
    params: v.strictObject({ ...target, last: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1)), "only the newest N blocks")), grep: v.optional(doc(v.string(), "only blocks whose command or output matches")) }),
    result: v.object({ session: v.string(), blocks: v.array(v.object({ seq: v.number(), command: v.string(), exitCode: v.nullable(v.number()), startedAt: v.string(), endedAt: v.nullable(v.string()), cwd: v.nullable(v.string()), outputChars: v.number() })) }),
  },
  block: {
    title: "Shell sessions: one block with its output",
    readOnly: true,
    params: v.strictObject({ ...target, seq: doc(v.pipe(v.number(), v.integer(), v.minValue(1)), "the block's number"), maxOutput: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "bytes of output returned"), 1_048_576) }),
    result: BlockResult,
  },
  "adapter.list": {
    title: "The manifests in force (built-in and user), and user manifests that failed to load",
    readOnly: true,
    params: v.strictObject({}),
    result: v.object({
      dir: doc(v.string(), "where user manifests are read from"),
      adapters: v.array(v.object({ name: v.string(), root: v.string(), origin: v.picklist(["builtin", "user"]), file: v.string(), description: v.string(), tested: v.optional(doc(v.string(), "the program version the manifest was tested against")) })),
      errors: v.array(v.object({ file: v.string(), message: v.string() })),
    }),
  },
  "adapter.check": {
    title: "Validate a manifest's source",
    readOnly: true,
    params: v.strictObject({ source: doc(v.string(), "the manifest's TOML text"), file: doc(v.string(), "the name used in error messages") }),
    result: v.object({ name: v.string(), root: v.string(), regions: v.array(v.string()) }),
  },
  scroll: {
    title: "Turn the mouse wheel over the screen (a browser's page, any program with mouse input): delta > 0 scrolls down",
    readOnly: false,
    params: v.strictObject({
      ...writer,
      delta: doc(v.pipe(v.number(), v.integer(), v.minValue(-1000), v.maxValue(1000), v.check((n) => n !== 0, "delta must not be 0")), "wheel steps; negative scrolls up"),
      row: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "where the wheel turns; default the middle of the screen")),
      col: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "with row: where the wheel turns")),
      settle_ms: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000)), "return once the screen has been still this long after the wheel (0: at once)"), 200),
    }),
    result: v.object({ ...ok, revisionBefore: Revision, revisionAfter: Revision }),
  },
  navigate: {
    title: "Browsers: load a URL from the URL bar and wait until the page has loaded and settled",
    readOnly: false,
    params: v.strictObject({ ...writer, url: doc(v.pipe(v.string(), v.minLength(1)), "an absolute http(s), file, data or about URL"), timeout_ms: v.optional(NavTimeout, 30_000), settle_ms: v.optional(NavSettle) }),
    result: Navigated,
  },
  go_back: {
    title: "Browsers: the back button, then wait until the page has settled",
    readOnly: false,
    params: v.strictObject({ ...writer, timeout_ms: v.optional(NavTimeout, 30_000), settle_ms: v.optional(NavSettle) }),
    result: Navigated,
  },
  go_forward: {
    title: "Browsers: the forward button, then wait until the page has settled",
    readOnly: false,
    params: v.strictObject({ ...writer, timeout_ms: v.optional(NavTimeout, 30_000), settle_ms: v.optional(NavSettle) }),
    result: Navigated,
  },
  reload: {
    title: "Browsers: the reload button, then wait until the page has settled",
    readOnly: false,
    params: v.strictObject({ ...writer, timeout_ms: v.optional(NavTimeout, 30_000), settle_ms: v.optional(NavSettle) }),
    result: Navigated,
  },
  get_url: {
    title: "Browsers: the URL in the URL bar",
    readOnly: true,
    params: v.strictObject({ ...target }),
    result: v.object({ session: v.string(), url: v.string() }),
  },
  get_nav_state: {
    title: "Browsers: whether back and forward can be used (read from the buttons' colours)",
    readOnly: true,
    params: v.strictObject({ ...target }),
    result: v.object({ session: v.string(), ...NavState }),
  },
  get_title: {
    title: "The terminal title (a browser's page title)",
    readOnly: true,
    aliasOf: "get",
    params: v.strictObject({ ...target }),
    result: v.object({ session: v.string(), ...PageTitle }),
  },
  send_key: {
    title: "Press one key: Tab, Enter, Up, … or Char with char, with modifiers",
    readOnly: false,
    aliasOf: "press",
    params: v.strictObject({
      ...writer,
      key: doc(v.pipe(v.string(), v.minLength(1)), "a key name (see capabilities.keys), or Char"),
      char: v.optional(doc(v.pipe(v.string(), v.length(1, "char is one character")), "with key Char: the character")),
      modifiers: v.optional(v.union([
        v.array(v.picklist(["ctrl", "alt", "shift", "meta"])),
        v.strictObject({ ctrl: v.optional(v.boolean()), alt: v.optional(v.boolean()), shift: v.optional(v.boolean()), meta: v.optional(v.boolean()) }),
      ], 'modifiers is a list like ["ctrl"] or an object like {"ctrl": true}')),
    }),
    result: v.object({ ...ok, revision: Revision }),
  },
  type_text: {
    title: "Type literal text",
    readOnly: false,
    aliasOf: "type",
    params: v.strictObject({ ...writer, text: v.string() }),
    result: v.object({ ...ok, revision: Revision }),
  },
  paste: {
    title: "Paste text (bracketed paste when the program enabled it)",
    readOnly: false,
    aliasOf: "type",
    params: v.strictObject({ ...writer, text: v.string() }),
    result: v.object({ ...ok, revision: Revision }),
  },
  set_viewport: {
    title: "Resize the terminal (invalid-viewport on sizes out of range)",
    readOnly: false,
    aliasOf: "resize",
    params: v.strictObject({ ...writer, cols: v.number(), rows: v.number() }),
    result: v.object({ ...ok, cols: v.number(), rows: v.number() }),
  },
  wait_for_frame_quiescence: {
    title: "Wait until the screen has not changed for idle_ms",
    readOnly: true,
    aliasOf: "wait",
    params: v.strictObject({
      ...target,
      idle_ms: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000)),
      timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 3600_000)), 10_000),
    }),
    result: v.object({ ...ok, revision: Revision, elapsed_ms: v.number() }),
  },
  wait_for_title_contains: {
    title: "Wait until the title contains a substring",
    readOnly: true,
    aliasOf: "wait",
    params: v.strictObject({
      ...target,
      substring: v.pipe(v.string(), v.minLength(1)),
      timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 3600_000)), 10_000),
    }),
    result: v.object({ ...ok, title: v.string(), revision: Revision, elapsed_ms: v.number() }),
  },
  mouse_move: {
    title: "Browsers: move the mouse to a cell (SGR mouse; a drag while mouse_down holds the button)",
    readOnly: false,
    params: v.strictObject({ ...writer, ...cell }),
    result: v.object({ ...ok, held: v.boolean(), revision: Revision }),
  },
  mouse_down: {
    title: "Browsers: press the left mouse button at a cell (held until mouse_up)",
    readOnly: false,
    params: v.strictObject({ ...writer, ...cell }),
    result: v.object({ ...ok, held: v.boolean(), revision: Revision }),
  },
  mouse_up: {
    title: "Browsers: release the left mouse button at a cell",
    readOnly: false,
    params: v.strictObject({ ...writer, ...cell }),
    result: v.object({ ...ok, held: v.boolean(), revision: Revision }),
  },
  get_capabilities: {
    title: "AWI-TTY capabilities: version, features, snapshot formats, platform, the session",
    readOnly: true,
    aliasOf: "capabilities",
    params: v.strictObject({ ...target }),
    result: v.object({
      version: v.string(),
      features: v.array(v.string()),
      snapshot_formats: v.array(v.string()),
      platform: v.literal("unix"),
      session_id: v.nullable(v.string()),
    }),
  },
  subscribe_events: {
    title: "Receive events as `event` notifications on this connection",
    readOnly: true,
    aliasOf: "subscribe",
    params: v.strictObject({
      session: v.optional(SessionName),
      types: v.optional(v.pipe(v.array(EventType), v.minLength(1, "name at least one event type"))),
      debounce_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000)), 0),
    }),
    result: v.object({ ok: v.literal(true), subscription: v.string() }),
  },
  "debug.memory": {
    title: "Memory of the daemon thread and of each session's worker (leak hunting; needs TUIWRIGHT_DEBUG=1 on the daemon)",
    readOnly: true,
    params: v.strictObject({
      gc: v.optional(doc(v.boolean(), "run a full garbage collection in each thread first"), false),
      types: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "how many of the most numerous object types to list per thread"), 0),
    }),
    result: v.object({
      rssBytes: v.number(),
      daemon: HeapReport,
      sessions: v.array(v.object({ session: v.string(), heap: v.nullable(HeapReport) })),
    }),
  },
  "debug.crashWorker": {
    title: "Make a session's worker crash (fault testing; needs TUIWRIGHT_DEBUG=1 on the daemon)",
    readOnly: false,
    destructive: true,
    params: v.strictObject({ ...target }),
    result: v.object({ session: v.string() }),
  },
  ...DESKTOP_METHODS,
} as const satisfies Record<string, MethodDef>;

export type Methods = typeof METHODS;
export type MethodName = keyof Methods;
export type Params<M extends MethodName> = v.InferOutput<Methods[M]["params"]>;
export type ParamsInput<M extends MethodName> = v.InferInput<Methods[M]["params"]>;
export type Result<M extends MethodName> = v.InferOutput<Methods[M]["result"]>;
export type WaitSpec = v.InferOutput<typeof WaitSpec>;
export type SessionInfoValue = v.InferOutput<typeof SessionInfo>;
export type MetaValue = v.InferOutput<typeof Meta>;
export type CellRunValue = v.InferOutput<typeof CellRun>;
export type ExitStatusValue = v.InferOutput<typeof ExitStatus>;
export type WaitResultValue = v.InferOutput<typeof WaitResult>;
export type EventValue = v.InferOutput<typeof Event>;
export type EventTypeValue = v.InferOutput<typeof EventType>;
export type LeaseValue = v.InferOutput<typeof Lease>;

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(METHODS, name);
}
