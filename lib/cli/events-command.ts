// `tuiwright events`: subscribe and print each event as a JSON line until --count events have
// arrived or the user presses Ctrl-C. Events are signals; pull a snapshot when you want one.
import { printErr, printOut } from "../runtime/stdio.ts";
import { connectDaemon } from "../transport/daemon-connection.ts";
import { TuiwrightError } from "../protocol/errors.ts";
import { EVENT_TYPES, EVENTS_HELP } from "./command-help.ts";
import { parseFlags } from "./flags.ts";
import { daemonTarget, type Globals, usage } from "./invocation.ts";
import { inertJson } from "../present/inert-text.ts";
import { setting } from "../runtime/settings.ts";

const MAX_UNPRINTED = 1000;

export async function runEvents(args: string[], globals: Globals): Promise<number> {
  const parsed = parseFlags(args, EVENTS_HELP.flags, "events");
  if (parsed.positionals.length > 0) throw usage(`events takes no arguments; got ${JSON.stringify(parsed.positionals[0])}`);
  const types = parsed.flags.has("--types") ? String(parsed.flags.get("--types")).split(",").filter(Boolean) : undefined;
  const unknown = types?.find((type) => !EVENT_TYPES.includes(type));
  if (unknown !== undefined) throw usage(`unknown event type ${JSON.stringify(unknown)}; use ${EVENT_TYPES.join(", ")}`, "run `tuiwright help events`");
  const count = parsed.flags.get("--count") as number | undefined;
  if (count !== undefined && count < 1) throw usage("--count needs a number of at least 1");

  const rpc = await connectDaemon(daemonTarget(globals), { autoStart: false });
  let seen = 0;
  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => { finish = resolve; });
  let printing = Promise.resolve();
  // A reader that stops reading our stdout must not grow this process without bound: past
  // MAX_UNPRINTED lines waiting, events are dropped and the next one printed says how many.
  let unprinted = 0;
  let dropped = 0;
  rpc.onNotification = (message) => {
    if (message.method !== "event" || (count !== undefined && seen >= count)) return;
    if (unprinted >= MAX_UNPRINTED) { dropped++; return; }
    seen++;
    unprinted++;
    const params = message.params as Record<string, unknown>;
    const line = dropped > 0 ? { ...params, dropped: ((params.dropped as number | undefined) ?? 0) + dropped } : params;
    dropped = 0;
    printing = printing.then(() => printOut(inertJson(line))).finally(() => { unprinted--; });
    if (count !== undefined && seen >= count) void printing.then(() => finish(0));
  };
  process.on("SIGINT", () => finish(0));
  void rpc.closed.then(() => finish(69));
  const session = globals.session ?? setting("session");
  const { subscription } = (await rpc.call("subscribe", {
    ...(session ? { session } : {}),
    ...(types ? { types } : {}),
    ...(parsed.flags.has("--debounce") ? { debounceMs: parsed.flags.get("--debounce") } : {}),
  })) as { subscription: string };
  // On stderr, so stdout stays pure JSON lines; tells a caller the stream is live.
  await printErr(`tuiwright: subscribed (${subscription}); Ctrl-C to stop`);
  const code = await finished;
  await printing;
  rpc.close();
  if (code === 69) throw new TuiwrightError("daemon-unavailable", "the daemon closed the connection", { hint: "`tuiwright daemon status` shows whether it is up" });
  return code;
}
