// `exec --follow`: the command's output printed as it comes, not when its block ends. The
// command starts as an interactive block; each new piece of the session's output stream
// (a wait on the output cursor: event-driven, never polled) prompts a read of the block's
// output so far, whose new part is printed (inert on a terminal, as exec's: inert-text.ts). It
// ends, as exec does, with the block's footer.
import { TuiwrightError } from "../protocol/errors.ts";
import { writeRaw } from "../runtime/stdio.ts";
import type { RpcClient } from "../transport/rpc-client.ts";
import type { Prepared } from "./invocation.ts";
import { inertJson } from "../present/inert-text.ts";
import { forTerminal } from "./for-terminal.ts";

type Block = { seq: number; exitCode: number | null; output: string; endedAt: string | null; cwd: string | null; integration?: false };

/** Wait for more output at most this long before looking at the block again. */
const WAIT_SLICE_MS = 60_000;

export async function execFollow(rpc: RpcClient, prepared: Prepared): Promise<{ output: string; exitCode: number }> {
  const params = prepared.params as { session?: string; timeoutMs?: number };
  // The block's number: the next one (exec refuses to start while another block runs).
  const before = (await rpc.call("status", { ...(params.session ? { session: params.session } : {}) })) as { session: string; blocks: number };
  const started = (await rpc.call("exec", { ...prepared.params, session: before.session, interactive: true })) as { session: string; cursor: number };
  const session = started.session;
  const seq = before.blocks + 1;
  /** The block so far; before the shell has announced it, an empty one. */
  const read = async (): Promise<Block> => {
    try {
      return (await rpc.call("block", { session, seq })) as Block;
    } catch (error) {
      if ((error as TuiwrightError).errorName !== "no-such-file") throw error;
      return { seq, exitCode: null, output: "", endedAt: null, cwd: null };
    }
  };
  const deadline = performance.now() + (params.timeoutMs ?? 60_000);
  let cursor = started.cursor;
  // --json prints one document at the end: nothing is streamed before it.
  const stream = prepared.mode !== "json";
  let printed = 0;
  let block: Block;
  for (;;) {
    block = await read();
    if (stream && block.output.length > printed) {
      await writeRaw("stdout", forTerminal(block.output.slice(printed)));
      printed = block.output.length;
    }
    if (block.endedAt !== null) break;
    const left = deadline - performance.now();
    if (left <= 0) {
      throw new TuiwrightError("timeout", `exec --follow: block ${seq} still running after ${params.timeoutMs ?? 60_000} ms`, {
        hint: `it keeps running: \`tuiwright block ${seq}\` shows its output, \`tuiwright end\` stops it`,
      });
    }
    try {
      const waited = (await rpc.call("wait", { session, output: "/[\\s\\S]+/", fromCursor: cursor, timeoutMs: Math.ceil(Math.min(left, WAIT_SLICE_MS)) })) as { output?: { cursor: number } };
      if (waited.output) cursor = waited.output.cursor;
    } catch (error) {
      const name = (error as TuiwrightError).errorName;
      if (name !== "timeout" && name !== "session-exited") throw error;
      if (name === "session-exited") {
        block = await read();
        if (stream && block.output.length > printed) await writeRaw("stdout", forTerminal(block.output.slice(printed)));
        throw new TuiwrightError("session-exited", `the shell exited while block ${seq} ran`);
      }
    }
  }
  const newline = block.output === "" || block.output.endsWith("\n") ? "" : "\n";
  const how = block.integration === false ? " (no shell integration: output read from the screen, exit code unknown)" : "";
  return {
    output: prepared.mode === "json" ? inertJson(block) : prepared.mode === "plain" ? newline.trimEnd() : `${newline}[block ${seq} exited ${block.exitCode ?? "?"} in ${block.cwd ?? "?"}${how}]`,
    exitCode: prepared.args.flags.has("--propagate") ? (block.exitCode ?? 1) : 0,
  };
}
