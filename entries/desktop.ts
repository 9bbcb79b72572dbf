// `tuiwright desktop new-app DIR` and `tuiwright desktop inspect`: the desktop verbs that are
// not one method call (a file scaffold; a terminal UI). Loaded by path only when used.
import { TuiwrightError } from "../lib/protocol/errors.ts";
import { scaffoldApp } from "../lib/desktop/scaffold.ts";
import { Inspector } from "../lib/desktop/inspector.ts";
import { parseFlags } from "../lib/cli/flags.ts";
import { INSPECT_VERB, NEW_APP_VERB } from "../lib/cli/command-help.ts";
import type { DaemonTarget } from "../lib/transport/daemon-connection.ts";
import { connectDaemon } from "../lib/transport/daemon-connection.ts";

function usage(message: string, verb: string): TuiwrightError {
  return new TuiwrightError("usage", message, { hint: `run \`tuiwright help ${verb}\`` });
}

export async function runNewApp(args: string[], mode: "human" | "plain" | "json"): Promise<{ text: string; code: number }> {
  const parsed = parseFlags(args, NEW_APP_VERB.flags, NEW_APP_VERB.name);
  if (parsed.positionals.length !== 1) throw usage("desktop new-app needs one DIR", NEW_APP_VERB.name);
  const made = scaffoldApp(parsed.positionals[0]!);
  if (mode === "json") return { text: JSON.stringify(made), code: 0 };
  if (mode === "plain") return { text: made.dir, code: 0 };
  return { text: `created ${made.id} in ${made.dir} (${made.files.join(", ")})\nopen it: tuiwright desktop install ${made.dir} --open`, code: 0 };
}

export async function runInspect(args: string[], target: DaemonTarget): Promise<number> {
  const parsed = parseFlags(args, INSPECT_VERB.flags, INSPECT_VERB.name);
  if (parsed.positionals.length > 0) throw usage(`desktop inspect takes no arguments; got ${JSON.stringify(parsed.positionals[0])}`, INSPECT_VERB.name);
  if (!process.stdin.isTTY || !process.stdout.isTTY) throw usage("desktop inspect is a terminal UI: run it in a terminal", INSPECT_VERB.name);
  const rpc = await connectDaemon(target, { autoStart: false });
  const inspector = new Inspector(rpc, parsed.flags.get("--desktop") as string | undefined);
  await inspector.start();
  process.stdout.write("\x1b[?1049h\x1b[?25l\x1b[2J");
  process.stdin.setRawMode(true);
  process.stdin.resume();
  const onData = (data: Buffer) => {
    const text = data.toString("utf8");
    // Split a chunk into keys: escape sequences whole, other characters one by one.
    for (const match of text.matchAll(/\x1b\[[0-9;]*[A-Za-z~]|\x1bO[A-Za-z]|\x1b|[\s\S]/g)) inspector.key(match[0]);
  };
  const onResize = () => inspector.draw();
  process.stdin.on("data", onData);
  process.stdout.on("resize", onResize);
  inspector.draw();
  await inspector.finished;
  process.stdin.off("data", onData);
  process.stdout.off("resize", onResize);
  process.stdin.setRawMode(false);
  process.stdin.pause();
  process.stdout.write("\x1b[?25h\x1b[?1049l");
  rpc.close();
  return 0;
}
