// tuiwright's single entry point: the CLI, or `daemon run` (started by the CLI itself).
// Nothing heavy is imported at top level: the daemon's modules load only in the daemon.
const args = process.argv.slice(2);

async function main(): Promise<number> {
  if (args[0] === "daemon" && args[1] === "run") {
    const { runDaemonFromArgs } = await import("./lib/daemon/daemon-command.ts");
    return runDaemonFromArgs(args.slice(2));
  }
  const { runCli } = await import("./lib/cli/run.ts");
  return runCli(args);
}

const code = await main();
process.exitCode = code;
// Flush stdout before exiting: a piped snapshot must not be cut short.
if (process.stdout.writableLength > 0) process.stdout.once("drain", () => process.exit(code));
else process.exit(code);
