// The one error table: every failure tuiwright reports has a name here, which fixes its
// JSON-RPC code, the CLI's exit code (sysexits, 124 for timeouts as timeout(1)) and a default
// hint. Codes -32010..-32014 follow the AWI-TTY document. Never renumber: agents depend on it.
// This file is plain data (no valibot) so the thin CLI can import it for free.

export const ERRORS = {
  "expectation-failed": { code: -32001, exit: 1, hint: "the screen differs from what was expected; see the diff" },
  "parse-error": { code: -32700, exit: 65, hint: "send one JSON-RPC 2.0 object (or batch array) per line" },
  "invalid-request": { code: -32600, exit: 65, hint: "a request needs jsonrpc \"2.0\", a string method and an id" },
  "method-not-found": { code: -32601, exit: 64, hint: "run `tuiwright capabilities` to list the methods" },
  usage: { code: -32602, exit: 64, hint: "run `tuiwright help VERB` for the flags" },
  "daemon-unavailable": { code: -32003, exit: 69, hint: "start it with `tuiwright daemon start`" },
  "version-mismatch": { code: -32003, exit: 69, hint: "restart the daemon: `tuiwright daemon stop` (the next command starts the new one)" },
  "session-exited": { code: -32003, exit: 69, hint: "the program has exited; read it with `snapshot`, remove it with `kill`" },
  "no-such-session": { code: -32004, exit: 66, hint: "run `tuiwright list` to see the sessions" },
  "no-such-file": { code: -32004, exit: 66, hint: "check the path (relative paths resolve against your cwd)" },
  "no-such-program": { code: -32004, exit: 66, hint: "check the program name and your PATH" },
  io: { code: -32005, exit: 74, hint: "check disk space and permissions" },
  permission: { code: -32006, exit: 77, hint: "the socket directory must be yours, mode 0700 and not a symlink" },
  timeout: { code: -32010, exit: 124, hint: "raise --timeout, or snapshot to see what the screen shows" },
  "navigation-timeout": { code: -32010, exit: 124, hint: "the page is still loading or did not change; raise --timeout, or snapshot to see it" },
  "invalid-key": { code: -32011, exit: 65, hint: "keys: Enter Tab Escape Backspace Up Down Left Right Home End PageUp PageDown Insert Delete F1..F12 Space, a single character, with C- M- S- modifiers" },
  "snapshot-unavailable": { code: -32012, exit: 69, hint: "the session's terminal is not readable; see `tuiwright list`" },
  busy: { code: -32013, exit: 75, hint: "retry later" },
  "invalid-viewport": { code: -32014, exit: 65, hint: "cols must be 2..1000 and rows 1..500" },
  "bad-data": { code: -32015, exit: 65, hint: "check the value quoted in the message" },
  "bad-regex": { code: -32016, exit: 65, hint: "write a JavaScript regex, as SOURCE or /SOURCE/FLAGS" },
  "stale-ref": { code: -32017, exit: 65, hint: "take a new snapshot and use its refs" },
  "bad-selector": { code: -32018, exit: 65, hint: "see `tuiwright help selectors`" },
  "bad-cast": { code: -32019, exit: 65, hint: "casts must be asciicast v2 or v3" },
  "bad-manifest": { code: -32020, exit: 65, hint: "run `tuiwright adapter check FILE`" },
  "bad-url": { code: -32602, exit: 65, hint: "give an absolute http(s), file, data or about URL" },
  "navigation-failed": { code: -32022, exit: 69, hint: "the page could not be loaded; check the URL and that its server is up" },
  "not-a-browser": { code: -32023, exit: 64, hint: "start a browser session with `tuiwright browse URL`, or name one with --session" },
  "no-browser": { code: -32024, exit: 69, hint: "install Carbonyl: npm install --prefix ~/.local/share/tuiwright/carbonyl @fathyb/carbonyl-linux-amd64 (or set CARBONYL=/path/to/carbonyl)" },
  // AOTUI desktops (lib/desktop/aotui-codes.ts maps each to its E_* code of the AOTUI document §8).
  "invalid-command": { code: -32030, exit: 65, hint: "write <context app_id=\"app_N\" view_id=\"view_NNN\">execute OP --arg value</context>; view_0 lists the system commands" },
  "desktop-not-found": { code: -32031, exit: 66, hint: "take a new snapshot and use the ids it shows" },
  "snapshot-too-old": { code: -32032, exit: 66, hint: "the desktop keeps its last 32 snapshots; take a new one" },
  "desktop-permission": { code: -32033, exit: 77, hint: "the app's aoapp.json does not grant it; add the permission (resource:action[:scope])" },
  "desktop-locked": { code: -32034, exit: 75, hint: "another owner holds this desktop's input; wait until it releases" },
  "app-failed": { code: -32035, exit: 70, hint: "the application failed (its own code); the desktop carries on" },
  "bad-app-manifest": { code: -32036, exit: 65, hint: "aoapp.json needs id, name, version, entry (and optional system, permissions); see docs/desktop.md" },
  "app-refused": { code: -32037, exit: 1, hint: "the application refused with its own message: change the arguments or the app's state and try again" },
  "invalid-argument": { code: -32038, exit: 65, hint: "the value cannot be given to this program as the operation means it; change it" },
  internal: { code: -32603, exit: 70, hint: "this is a tuiwright bug; the daemon log is in the state directory" },
} as const;

export type ErrorName = keyof typeof ERRORS;

export type ErrorData = { name: ErrorName; hint: string; [key: string]: unknown };

/** An error every layer can throw and the server turns into a JSON-RPC error object. */
export class TuiwrightError extends Error {
  readonly errorName: ErrorName;
  readonly hint: string;
  readonly details: Record<string, unknown>;
  constructor(name: ErrorName, message: string, options: { hint?: string; details?: Record<string, unknown> } = {}) {
    super(message);
    this.errorName = name;
    this.hint = options.hint ?? ERRORS[name].hint;
    this.details = options.details ?? {};
  }
  get code(): number {
    return ERRORS[this.errorName].code;
  }
  get exitCode(): number {
    return ERRORS[this.errorName].exit;
  }
  toJsonRpc(): { code: number; message: string; data: ErrorData } {
    return { code: this.code, message: this.message, data: { name: this.errorName, hint: this.hint, ...this.details } };
  }
  /** Rebuilds the error from a JSON-RPC error object (client side, or worker → daemon). */
  static fromJsonRpc(error: { code: number; message: string; data?: unknown }): TuiwrightError {
    const data = (error.data ?? {}) as Partial<ErrorData>;
    const name = (data.name && data.name in ERRORS ? data.name : nameForCode(error.code)) as ErrorName;
    const { name: _n, hint, ...details } = data;
    return new TuiwrightError(name, error.message, { hint, details });
  }
}

function nameForCode(code: number): ErrorName {
  for (const [name, entry] of Object.entries(ERRORS)) if (entry.code === code) return name as ErrorName;
  return "internal";
}

/** Any thrown value as a TuiwrightError; unknown errors are internal and keep their message.
 * Recognised by shape too: each entry point of the binary is its own bundle with its own copy
 * of this class, so an error from the replay entry is not `instanceof` the CLI's class. */
export function asTuiwrightError(error: unknown): TuiwrightError {
  if (error instanceof TuiwrightError) return error;
  const like = error as Partial<TuiwrightError> | null;
  if (like && typeof like.errorName === "string" && like.errorName in ERRORS && typeof like.message === "string") {
    return new TuiwrightError(like.errorName as ErrorName, like.message, { hint: like.hint, details: like.details });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new TuiwrightError("internal", shortMessage(message));
}

/** A message fit to show: its first line, capped. Errors thrown inside the minified binary
 * can arrive with the bundle's source lines around them; those never reach a user. */
export function shortMessage(text: string, max = 240): string {
  const lines = text.split("\n");
  // Bun renders an uncaught error as source lines ("323 | …"), then "error: MESSAGE", then "at …".
  const rendered = lines.find((line) => /^\s*(?:\w*Error|error): /.test(line));
  const line = (rendered ?? lines.find((l) => l.trim() !== "" && !/^\s*\d+ \| /.test(l)) ?? "").trim();
  const message = rendered ? line.replace(/^(?:error): /, "") : line;
  return message.length > max ? `${message.slice(0, max - 1)}…` : message || "unknown error";
}
