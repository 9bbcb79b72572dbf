// Entry point of the CLI's less common commands — attach, ask, exec --follow, snapshot --save, gc,
// run, casts, events and the AWI-TTY façade — loaded by path when one is asked for, so every other CLI start stays small.
export { runAsk } from "../lib/cli/ask-command.ts";
export { runAttach } from "../lib/cli/attach-command.ts";
export { runAwiTty } from "../lib/cli/awi-tty.ts";
export { execFollow } from "../lib/cli/exec-follow.ts";
export { saveSnapshot } from "../lib/cli/save-snapshot-file.ts";
export { runGc } from "../lib/cli/gc-command.ts";
export { runRun } from "../lib/cli/run-command.ts";
export { runCasts } from "../lib/cli/casts-command.ts";
export { runEvents } from "../lib/cli/events-command.ts";
