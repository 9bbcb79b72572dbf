// `tuiwright serve --http HOST:PORT [--allow-remote]`: flags → runServe.
import { parseFlags } from "../cli/flags.ts";
import { daemonTarget, type Globals, usage } from "../cli/invocation.ts";
import { SERVE_HELP } from "../cli/command-help.ts";
import { runServe } from "./serve.ts";

export async function runServeCommand(args: string[], globals: Globals): Promise<number> {
  const parsed = parseFlags(args, SERVE_HELP.flags, "serve");
  if (parsed.positionals.length > 0) throw usage(`serve takes no arguments; got ${JSON.stringify(parsed.positionals[0])}`);
  const address = parsed.flags.get("--http");
  if (typeof address !== "string") throw usage("serve needs --http HOST:PORT (for example --http 127.0.0.1:8787)");
  return runServe({ address, allowRemote: parsed.flags.has("--allow-remote"), target: daemonTarget(globals) });
}
