// Entry point of the CLI's less common commands — attach, ask, exec --follow, snapshot --save, gc
// and the AWI-TTY façade — loaded by path when one is asked for, so every other CLI start stays small.
export { runAsk } from "../lib/cli/ask-command.ts";
export { runAttach } from "../lib/cli/attach-command.ts";
export { runAwiTty } from "../lib/cli/awi-tty.ts";
export { execFollow } from "../lib/cli/exec-follow.ts";
export { saveSnapshot } from "../lib/cli/save-snapshot-file.ts";
export { runGc } from "../lib/cli/gc-command.ts";
