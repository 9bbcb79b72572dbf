// Shell sessions: command blocks (OSC 133), raw input to interactive programs, the output cursor.
import * as v from "valibot";
import { BlockResult, doc, ShellMode } from "../schemas.ts";
import { type MethodDef, target, writer } from "./common.ts";

/** An interactive program named by its block: a call for one that has ended is refused, never
 * sent to whatever runs now (the agent-interactive-pty document's session_id). */
const OnlyBlock = doc(v.pipe(v.number(), v.integer(), v.minValue(1)), "only if this block is the running interactive program: refused (session-exited) once it has ended");

export const SHELL_METHODS = {
  exec: {
    tool: "shell",
    title: "Shell sessions: run a command at the prompt and return its block (output, exit code, cwd) when it ends",
    cli: {
      verb: "exec",
      summary: "shell sessions: run a command at the prompt; print its output when its block ends (exit code with --propagate)",
      usage: "exec [--session NAME] [--cwd DIR] [--timeout MS] [--max-output N] [--queue] [--interactive] [--propagate] [--follow] -- COMMAND",
      arity: [0, 1],
      rest: true,
      flags: {
        cwd: { names: "--cwd", value: "DIR", built: true }, // relative to the caller's cwd: made absolute by the hook
        timeoutMs: "--timeout",
        maxOutput: "--max-output",
        queue: "--queue",
        interactive: "--interactive",
        "--propagate": { type: "bool", description: "exit with the command's exit code" },
        "--follow": { type: "bool", description: "print the output as it comes (not when the block ends); then the footer as usual" },
      },
    },
    forward: true,
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
    tool: "shell",
    title: "Shell sessions: write raw input (to an interactive program) and return the output cursor before it",
    cli: {
      verb: "send",
      summary: "shell sessions: write raw input (\\r \\n \\t \\e \\xNN escapes) to an interactive program; prints the output cursor before it",
      usage: "send [--session NAME] [--secret] [--block N] [--enter] [--ctrl-c] [--ctrl-d] [DATA]",
      arity: [0, 1],
      flags: {
        secret: "--secret",
        block: "--block",
        "--enter": { type: "bool", description: "then a carriage return" },
        "--ctrl-c": { type: "bool", description: "then Ctrl-C" },
        "--ctrl-d": { type: "bool", description: "then Ctrl-D" },
      },
    },
    forward: true,
    readOnly: false,
    params: v.strictObject({ ...writer, data: doc(v.string(), "raw input for the program (\r is Enter, \x03 is Ctrl-C)"), block: v.optional(OnlyBlock), secret: v.optional(doc(v.boolean(), "a password or token: masked (as `*`) in the cast, the transcript, blocks and results from now on"), false) }),
    result: v.object({ session: v.string(), bytes: v.number(), cursor: v.number() }),
  },
  end: {
    tool: "shell",
    forward: true,
    title: "Shell sessions: end the running program — its own exit line for a known shell/REPL (exit, exit(), .exit, \\q …), then Ctrl-C, then SIGTERM, then SIGKILL to the foreground group",
    cli: { verb: "end", summary: "shell sessions: end the running program (its own exit line for a known shell or REPL, then Ctrl-C, then SIGTERM, then SIGKILL to its process group)", flags: { graceMs: "--grace", block: "--block" } },
    readOnly: false,
    destructive: true,
    params: v.strictObject({ ...writer, block: v.optional(OnlyBlock), graceMs: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000)), "how long each step gets before the next, harder one"), 2000) }),
    result: v.object({
      session: v.string(),
      how: doc(v.picklist(["exit", "interrupt", "SIGTERM", "SIGKILL"]), "the step that ended it: exit (the known shell/REPL's own exit line), interrupt (Ctrl-C), or a signal"),
      program: v.optional(doc(v.nullable(v.string()), "the foreground program it found (null: the shell itself was running a builtin)")),
      mode: ShellMode,
    }),
  },
  status: {
    tool: "shell",
    title: "Shell sessions: mode (starting, idle, block_running, interactive, continuation, exited), the open block, the output cursor",
    forward: true,
    cli: { verb: "status", summary: "shell sessions: mode (starting, idle, block_running, interactive), the open block, the output cursor" },
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
    tool: "shell",
    title: "Shell sessions: past blocks (command, exit code, times, cwd), newest last; the last 1000 (older ones: `block SEQ`, or blocks.jsonl in the transcript)",
    forward: true,
    cli: { verb: "blocks", summary: "shell sessions: past blocks with exit codes (newest last; the last 1000 — `block SEQ` reads older ones from the transcript)", flags: { last: "--last", grep: "--grep" } },
    readOnly: true,
    params: v.strictObject({ ...target, last: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(1)), "only the newest N blocks")), grep: v.optional(doc(v.string(), "only blocks whose command or output matches")) }),
    result: v.object({ session: v.string(), blocks: v.array(v.object({ seq: v.number(), command: v.string(), exitCode: v.nullable(v.number()), startedAt: v.string(), endedAt: v.nullable(v.string()), cwd: v.nullable(v.string()), outputChars: v.number() })) }),
  },
  block: {
    tool: "shell",
    title: "Shell sessions: one block with its output",
    cli: { verb: "block", summary: "shell sessions: one block's output (and, without --plain, its facts)", usage: "block [--session NAME] SEQ", arity: [1, 1] },
    forward: true,
    readOnly: true,
    params: v.strictObject({ ...target, seq: doc(v.pipe(v.number(), v.integer(), v.minValue(1)), "the block's number"), maxOutput: v.optional(doc(v.pipe(v.number(), v.integer(), v.minValue(0)), "bytes of output returned"), 1_048_576) }),
    result: BlockResult,
  },
} as const satisfies Record<string, MethodDef>;
