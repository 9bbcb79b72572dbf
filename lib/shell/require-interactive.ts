// A call meant for one interactive program (its block: the agent-interactive-pty document's
// session_id) is refused unless that program is the one running now — never sent to another.
import { TuiwrightError } from "../protocol/errors.ts";

export type RunningBlock = { seq: number; command: string; interactive: boolean } | null;

/** Throws session-exited unless `block` is the running interactive block; `blocks`: how many
 * blocks the shell has started; `consequence`: what did not happen ("nothing was sent"). */
export function requireInteractive(open: RunningBlock, blocks: number, block: number, consequence: string): void {
  if (open?.interactive && open.seq === block) return;
  const now = open?.interactive ? `the running one is ${open.seq} (${JSON.stringify(open.command)})` : "no interactive program is running now";
  const what = block > blocks ? `there is no interactive session ${block} yet` : `interactive session ${block} has ended`;
  throw new TuiwrightError("session-exited", `${what}; ${now}: ${consequence}`, {
    hint: "`status` names the running interactive session (active_session_id)",
    details: { block, running: open?.interactive ? open.seq : null },
  });
}
