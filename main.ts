// tuiwright's entry point: the thin CLI, or `daemon run` (started by the CLI itself). The
// daemon is a separate entry point loaded by path, so the CLI's start-up never pays for it.
import { runCli } from "./lib/cli/run.ts";
import { entryPoint } from "./lib/runtime/self.ts";

/** Run under the AWI-TTY façade's name (a symlink or hard link to this binary)? */
const invokedAsAwiTty = (argv0: string) => argv0.slice(argv0.lastIndexOf("/") + 1) === "awi-tty";

const args = process.argv.slice(2);

async function main(): Promise<number> {
  if (args[0] === "daemon" && args[1] === "run") {
    const daemon: typeof import("./entries/daemon.ts") = await import(entryPoint("entries/daemon.ts"));
    return daemon.runDaemonFromArgs(args.slice(2));
  }
  // The AWI-TTY document's CLI: run as `awi-tty` (a link to this binary) or `tuiwright awi …`.
  const awi = invokedAsAwiTty(process.argv0) || invokedAsAwiTty(process.argv[1] ?? "") ? args : args[0] === "awi" ? args.slice(1) : null;
  if (awi) {
    const commands: typeof import("./entries/commands.ts") = await import(entryPoint("entries/commands.ts"));
    return commands.runAwiTty(awi);
  }
  return runCli(args);
}

// Output is written with awaited native writes, so exiting here cuts nothing short.
process.exit(await main());
