// The agent-interactive-pty document's own names (pty.exec_block, pty.wait_for, …) as a compat
// table beside the core: each name maps its parameters to one core method, and the core
// result back to the document's shape. Dispatch applies it; `capabilities` lists each with
// `aliasOf`. The document's `conversation_id` is a session name; an exec in a conversation
// that has no session yet starts a shell session of that name (the document's PTY exists per
// conversation). `session_id` (an interactive session: its block number as a string) is
// honoured: send and end_session for a session that has ended are refused, never delivered to
// whatever runs now, and wait_for refuses a session that never existed.
// `send`, `status` and `reset` are also core names: a call with `conversation_id` or
// `session_id` is the document's, and gets the core result plus the document's fields.
import * as v from "valibot";
import { asTuiwrightError, TuiwrightError } from "../errors.ts";
import type { Result } from "../methods.ts";
import { SESSION_METHODS } from "../methods/session.ts";
import { SHELL_METHODS } from "../methods/shell.ts";
import { doc, SessionName, ShellMode } from "../schemas.ts";
import type { CompatTable, CoreCall, DocumentedAlias } from "./alias.ts";

const conversation = {
  conversation_id: v.optional(doc(SessionName, "the conversation's PTY: a tuiwright session name (default: the current session)")),
  session: v.optional(SessionName),
};
const interactiveSession = {
  session_id: v.optional(doc(v.pipe(v.string(), v.regex(/^[1-9]\d{0,14}$/, "session_id must be the id exec_interactive returned (a block number)")), "the interactive session (from exec_interactive): a call for one that has ended is refused")),
};
const Timeout = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(24 * 3600_000));

function sessionOf(params: { conversation_id?: string; session?: string }): { session?: string } {
  const session = params.conversation_id ?? params.session;
  return session === undefined ? {} : { session };
}

/** A core exec; a conversation with no session yet gets a shell session of its name first. */
async function execIn(params: { conversation_id?: string; session?: string; command: string; cwd?: string; timeout_ms?: number }, interactive: boolean, core: CoreCall): Promise<Result<"exec">> {
  const call = {
    ...sessionOf(params), command: params.command, interactive,
    ...(params.cwd === undefined ? {} : { cwd: params.cwd }),
    ...(params.timeout_ms === undefined ? {} : { timeoutMs: params.timeout_ms }),
  };
  try {
    return await core("exec", call);
  } catch (error) {
    if (asTuiwrightError(error).errorName !== "no-such-session" || params.conversation_id === undefined) throw error;
    await core("spawn", { session: params.conversation_id, shell: "auto" });
    return core("exec", call);
  }
}

/** The core's `block` for a session_id: only that interactive program, or a refusal. */
const onlyBlock = (params: { session_id?: string }) => (params.session_id === undefined ? {} : { block: Number(params.session_id) });

const sendAs = (data: string) => async (params: { conversation_id?: string; session?: string; session_id?: string }, core: CoreCall) => {
  const sent = await core("send", { ...sessionOf(params), data, ...onlyBlock(params) });
  return { ok: true, ...sent };
};

/** exec_block and exec_interactive take the same params. */
const ExecParams = v.strictObject({
  ...conversation,
  command: doc(v.pipe(v.string(), v.minLength(1)), "the command line to run at the prompt"),
  cwd: v.optional(doc(v.pipe(v.string(), v.startsWith("/", "cwd must be an absolute path")), "run it in this directory")),
  timeout_ms: v.optional(doc(Timeout, "how long to wait, in ms")),
});

/** The document's results: `ok: true` beside the core result's fields, or the document's own
 * snake_case shape. */
const Ok = { ok: v.literal(true) };
const Sent = v.object({ ...Ok, ...SHELL_METHODS.send.result.entries });
const BlockDone = v.object({
  ...Ok,
  block_id: doc(v.number(), "the block's sequence number"),
  seq: v.number(),
  ts_begin: v.string(),
  ts_end: v.nullable(v.string()),
  exit_code: doc(v.nullable(v.number()), "null: no exit status (a shell without integration, or the block did not end normally)"),
  command: v.string(),
  output: v.string(),
  output_truncated: v.boolean(),
  cursor: doc(v.number(), "the output cursor at the block's end"),
  cwd: v.nullable(v.string()),
  reason: v.optional(doc(v.picklist(["shell-exited", "reset", "cancelled"]), "why the block ended without its shell's end mark")),
});
const InteractiveStarted = v.object({
  ...Ok,
  session_id: doc(v.nullable(v.string()), "the interactive session (its block number as a string)"),
  block_id: v.nullable(v.number()),
  ts_begin: v.string(),
  cursor: doc(v.number(), "the output cursor just after the command's echo: wait_for from here"),
  mode: ShellMode,
});
const Waited = v.object({
  ...Ok,
  matched: v.boolean(),
  match_text: v.nullable(v.string()),
  cursor: doc(v.number(), "just past the match (or from_cursor when nothing matched)"),
  timed_out: v.optional(doc(v.literal(true), "nothing matched within timeout_ms")),
});
const { pid: _pid, ...statusFields } = SHELL_METHODS.status.result.entries;
const Status = v.object({
  ...statusFields,
  ...Ok,
  active_session_id: v.nullable(v.string()),
  active_block_id: v.nullable(v.number()),
  shell_id: doc(v.string(), "the session"),
  pid: doc(v.nullable(v.number()), "the shell's process id"),
});

const regexEscape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

export const INTERACTIVE_PTY: Record<string, DocumentedAlias> = {
  exec_block: {
    title: "agent-interactive-pty: run a command as one block and return when it ends",
    readOnly: false,
    aliasOf: "exec",
    params: ExecParams,
    result: BlockDone,
    async run(params, core) {
      const block = await execIn(params, false, core);
      if (!("exitCode" in block)) throw new TuiwrightError("internal", "exec returned no block");
      return {
        ok: true, block_id: block.seq, seq: block.seq, ts_begin: block.startedAt, ts_end: block.endedAt, exit_code: block.exitCode,
        command: block.command, output: block.output, output_truncated: block.outputTruncated, cursor: block.cursor, cwd: block.cwd,
        ...(block.reason ? { reason: block.reason } : {}),
      };
    },
  },
  exec_interactive: {
    title: "agent-interactive-pty: start an interactive program (mode interactive until it returns to the prompt or is ended)",
    readOnly: false,
    aliasOf: "exec",
    params: ExecParams,
    result: InteractiveStarted,
    async run(params, core) {
      const started = await execIn(params, true, core);
      if ("exitCode" in started) throw new TuiwrightError("internal", "exec --interactive returned a finished block");
      const block = started.block ?? null;
      return { ok: true, session_id: block === null ? null : String(block), block_id: block, ts_begin: started.startedAt ?? new Date().toISOString(), cursor: started.cursor, mode: started.mode };
    },
  },
  send: {
    title: "agent-interactive-pty: write raw bytes to the PTY (\\r for Enter, \\x03 Ctrl-C, \\x04 Ctrl-D, \\x1b Esc)",
    readOnly: false,
    aliasOf: "send",
    params: v.strictObject({ ...conversation, ...interactiveSession, data: v.string() }),
    result: Sent,
    run: (params, core) => sendAs(params.data)(params, core),
  },
  ctrl_c: { title: "agent-interactive-pty: send Ctrl-C (\\x03)", readOnly: false, aliasOf: "send", params: v.strictObject({ ...conversation, ...interactiveSession }), result: Sent, run: sendAs("\x03") },
  ctrl_d: { title: "agent-interactive-pty: send Ctrl-D (\\x04)", readOnly: false, aliasOf: "send", params: v.strictObject({ ...conversation, ...interactiveSession }), result: Sent, run: sendAs("\x04") },
  enter: { title: "agent-interactive-pty: send Enter (\\r)", readOnly: false, aliasOf: "send", params: v.strictObject({ ...conversation, ...interactiveSession }), result: Sent, run: sendAs("\r") },
  wait_for: {
    title: "agent-interactive-pty: wait until the output from a cursor contains match (a substring; a regex with regex: true; PROMPT; EOF)",
    readOnly: true,
    aliasOf: "wait",
    params: v.strictObject({
      ...conversation, ...interactiveSession,
      match: doc(v.pipe(v.string(), v.minLength(1)), "text to find in the output, a regex with regex: true, or PROMPT / EOF"),
      regex: v.optional(doc(v.boolean(), "match is a regular expression (JavaScript syntax, multi-line: ^ and $ at each line)"), false),
      from_cursor: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "the output cursor (a byte offset) to look from"), 0),
      timeout_ms: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 3600_000)), "how long to wait, in ms (0: look once)"), 30_000),
      max_bytes: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1)), "look at most this many bytes past from_cursor")),
    }),
    result: Waited,
    async run(params, core) {
      const special = !params.regex && (params.match === "PROMPT" || params.match === "EOF");
      // Explicit, never guessed: a literal is sent as an escaped regex, so "/tmp/" is text.
      const output = special ? params.match : params.regex ? `/${params.match}/m` : `/${regexEscape(params.match)}/`;
      if (params.session_id !== undefined) {
        // Its output may still be waited on after it ended; a session never started is refused.
        const { blocks } = await core("status", sessionOf(params));
        if (Number(params.session_id) > blocks) {
          throw new TuiwrightError("session-exited", `there is no interactive session ${params.session_id} (this conversation has started ${blocks} blocks): nothing was waited for`, { hint: "use the session_id exec_interactive returned" });
        }
      }
      try {
        const result = await core("wait", {
          ...sessionOf(params), output, fromCursor: params.from_cursor, timeoutMs: params.timeout_ms, includeText: false,
          ...(params.max_bytes === undefined ? {} : { maxBytes: params.max_bytes }),
        });
        const found = result.output!;
        return { ok: true, matched: found.matched, match_text: found.matchText, cursor: found.cursor };
      } catch (error) {
        // Not matching in time is an answer, not a failure: the cursor stays where it was.
        if (asTuiwrightError(error).errorName === "timeout") return { ok: true, matched: false, match_text: null, cursor: params.from_cursor, timed_out: true };
        throw error;
      }
    },
  },
  status: {
    title: "agent-interactive-pty: the PTY's mode (idle, block_running, interactive, continuation, exited), active session and block, shell and pid",
    readOnly: true,
    aliasOf: "status",
    params: v.strictObject({ ...conversation }),
    result: Status,
    async run(params, core) {
      const status = await core("status", sessionOf(params));
      const block = status.block;
      return {
        ...status, ok: true, mode: status.mode,
        active_session_id: block?.interactive ? String(block.seq) : null, active_block_id: block?.seq ?? null,
        shell_id: status.session, pid: status.pid ?? null,
      };
    },
  },
  end_session: {
    title: "agent-interactive-pty: end the interactive program (graceful exit for known shells/REPLs, then Ctrl-C, then signals)",
    readOnly: false,
    destructive: true,
    aliasOf: "end",
    params: v.strictObject({ ...conversation, ...interactiveSession }),
    result: v.object({ ...Ok, ...SHELL_METHODS.end.result.entries }),
    async run(params, core) {
      const ended = await core("end", { ...sessionOf(params), ...onlyBlock(params) });
      return { ok: true, ...ended };
    },
  },
  reset: {
    title: "agent-interactive-pty: kill and respawn the PTY (the output cursor goes on)",
    readOnly: false,
    destructive: true,
    aliasOf: "reset",
    params: v.strictObject({ ...conversation }),
    result: v.object({ ...Ok, ...SESSION_METHODS.reset.result.entries }),
    async run(params, core) {
      const fresh = await core("reset", sessionOf(params));
      return { ok: true, ...fresh };
    },
  },
};

/** The document writes its calls `pty.NAME`. */
export const INTERACTIVE_PTY_TABLE: CompatTable = { document: "agent-interactive-pty", prefix: "pty.", aliases: INTERACTIVE_PTY };
