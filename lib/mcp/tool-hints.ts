// Hints for a model calling tools, not a person at a shell: the error table's default hints
// name CLI verbs and flags (`raise --timeout`), which an MCP client cannot use. A hint written
// for one particular failure (it differs from the table's default) is kept as it is.
import { ERRORS, type ErrorName } from "../protocol/errors.ts";

const FOR_TOOLS: Partial<Record<ErrorName, string>> = {
  usage: "check the tool's inputSchema: the message names the field",
  "method-not-found": "call tools/list for the tools there are",
  "daemon-unavailable": "the tuiwright daemon is not running; the next spawn starts it",
  "version-mismatch": "call daemon_stop; the next spawn starts the daemon of this version",
  "session-exited": "the program has exited: read its last screen with snapshot, remove it with kill",
  "no-such-session": "call list for the sessions there are",
  timeout: "raise timeoutMs, or call snapshot to see what the screen shows",
  "navigation-timeout": "the page is still loading: raise timeoutMs, or call snapshot to see it",
  "snapshot-unavailable": "the session's terminal cannot be read; call list",
  busy: "retry when the lease is released, or pass the lease's token as lease",
  "stale-ref": "call snapshot with format outline and use the refs it gives",
  "bad-selector": "use a ref from the last outline (@e4, @vim.mode) or [role=…][name~=/…/]",
  "not-a-browser": "start a browser with spawn {browser: URL}, or name a browser session",
  "bad-manifest": "call adapter_check with the manifest's source",
};

export function toolHint(name: ErrorName, hint: string): string {
  return hint === ERRORS[name].hint ? (FOR_TOOLS[name] ?? hint) : hint;
}
