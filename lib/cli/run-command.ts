// `tuiwright run [--stdin TEXT | --stdin-file F|-] [--timeout MS] -- ARGV`: the data path for
// commands that need no terminal, bytes in and bytes out. With --json: {exitCode, signal,
// stdout, stderr, timedOut, elapsedMs} (output that is not UTF-8 comes as stdoutBase64 /
// stderrBase64 too); otherwise stdout and stderr pass through. Either way the exit code is the
// child's (124 on a timeout, 128+N for a signal). Runs in the CLI's process: no daemon needed.
import { constants } from "node:os";
import { readTrustedFile } from "../runtime/trusted-file.ts";
import { runProcess } from "../runtime/run-process.ts";
import { printOut, readStdinBytes, writeRaw } from "../runtime/stdio.ts";
import { RUN_HELP } from "./command-help.ts";
import { parseFlags } from "./flags.ts";
import { type Globals, usage } from "./invocation.ts";
import { inertJson } from "../present/inert-text.ts";

/** The file is held in memory to feed it: a regular file up to this size. */
const MAX_STDIN_FILE_BYTES = 256 << 20;

export async function runRun(args: string[], globals: Globals): Promise<number> {
  const parsed = parseFlags(args, RUN_HELP.flags, "run");
  if (!parsed.rest || parsed.rest.length === 0) throw usage("run needs a program after --: `tuiwright run -- make test`", "run help: `tuiwright help run`");
  if (parsed.positionals.length > 0) throw usage(`run takes the program after --; got ${JSON.stringify(parsed.positionals[0])}`);
  if (parsed.flags.has("--stdin") && parsed.flags.has("--stdin-file")) throw usage("--stdin and --stdin-file exclude each other");
  let stdin: string | Uint8Array | undefined = parsed.flags.get("--stdin") as string | undefined;
  const file = parsed.flags.get("--stdin-file") as string | undefined;
  if (file === "-") stdin = await readStdinBytes();
  else if (file !== undefined) stdin = readTrustedFile(file, { what: "stdin file", maxBytes: MAX_STDIN_FILE_BYTES }); // bytes, as they are
  const result = await runProcess(parsed.rest, {
    cwd: process.cwd(),
    env: process.env as Record<string, string>,
    ...(stdin !== undefined ? { stdin } : {}),
    ...(parsed.flags.has("--timeout") ? { timeoutMs: parsed.flags.get("--timeout") as number } : {}),
  });
  if (globals.mode === "json") {
    await printOut(inertJson({ ...result, ...asJsonText("stdout", result.stdout), ...asJsonText("stderr", result.stderr) }));
  } else {
    await writeRaw("stdout", result.stdout);
    await writeRaw("stderr", result.stderr);
  }
  if (result.timedOut) return 124;
  if (result.signal) return 128 + ((constants.signals as Record<string, number>)[result.signal] ?? 0);
  return result.exitCode ?? 1;
}

/** Output for JSON: the text, and when it is not valid UTF-8 its exact bytes in base64 too. */
function asJsonText(name: "stdout" | "stderr", bytes: Uint8Array): Record<string, string> {
  try {
    return { [name]: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { [name]: new TextDecoder().decode(bytes), [`${name}Base64`]: Buffer.from(bytes).toString("base64") };
  }
}
