// `end`: the running program of a shell session ends the way its user would end it — a shell or
// REPL we know is asked to leave (graceful-exit.ts), then Ctrl-C, then SIGTERM and SIGKILL to the
// terminal's foreground group — each step given graceMs to bring the shell back to its prompt.
// Whatever the job started, a child that called setsid included, is ended with it.
import { TuiwrightError } from "../protocol/errors.ts";
import { foregroundGroup, signalGroup } from "../runtime/process.ts";
import { endLeftovers, jobProcesses } from "../runtime/job-processes.ts";
import { requireInteractive } from "../shell/require-interactive.ts";
import type { StartSpec, WorkerOps } from "../link/messages.ts";
import { foregroundExit } from "./graceful-exit.ts";
import type { SessionCore } from "./session-core.ts";
import type { ShellFacet } from "./shell-facet.ts";

export async function endProgram(spec: StartSpec, core: SessionCore, shell: ShellFacet, { graceMs, block }: WorkerOps["end"][0]): Promise<WorkerOps["end"][1]> {
  const status = shell.status();
  if (block !== undefined) requireInteractive(status.block, status.blocks, block, "nothing was ended");
  if (status.mode !== "interactive" && status.mode !== "block_running") {
    throw new TuiwrightError("bad-data", `session ${JSON.stringify(spec.name)} is ${status.mode}: there is no running program to end`);
  }
  const backAtPrompt = (timeoutMs: number) =>
    core.wait({ output: "PROMPT", fromCursor: status.cursor, timeoutMs, mode: "any", includeText: false }).then(() => true, () => false);
  if (!core.ended) core.mark("end");
  shell.closing("cancelled");
  const known = foregroundExit(core.pid);
  const job = new Set(jobProcesses(core.pid));
  let how: WorkerOps["end"][1]["how"] = "exit";
  let ended = false;
  if (known?.line) {
    await shell.send(known.line, false);
    ended = await backAtPrompt(graceMs);
  }
  if (!ended) {
    how = "interrupt";
    await shell.send("\x03", false);
  }
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    if (ended || await backAtPrompt(graceMs)) break;
    for (const pid of jobProcesses(core.pid)) job.add(pid);
    const group = foregroundGroup(core.pid);
    if (group !== null && group !== core.pid) signalGroup(group, signal);
    how = signal;
  }
  if (how === "SIGKILL") await backAtPrompt(graceMs);
  await endLeftovers([...job]);
  return { how, program: known?.program ?? null, mode: shell.status().mode };
}
