// `tuiwright attach [--session S] [--write]`: a person watches a session live in their own
// terminal — to follow or help an agent. Read-only by default; --write takes the session's
// write lease (others' input is refused while attached) and forwards the keys typed here.
// Ctrl-] detaches (Ctrl-C too when read-only). Redraws are driven by the session's screen
// events, newest first: a slow terminal skips frames, never falls behind.
import { TuiwrightError } from "../protocol/errors.ts";
import { writeRaw } from "../runtime/stdio.ts";
import { connectDaemon } from "../transport/daemon-connection.ts";
import { ATTACH_HELP } from "./command-help.ts";
import { parseFlags } from "./flags.ts";
import { daemonTarget, type Globals, usage } from "./invocation.ts";
import { setting } from "../runtime/settings.ts";


const DETACH = 0x1d; // Ctrl-]
const CTRL_C = 0x03;
const ENTER_ALT = "\x1b[?1049h\x1b[H\x1b[2J";
const LEAVE_ALT = "\x1b[?1049l";

type Snapshot = { ansi?: string; meta?: { cols: number; rows: number; cursor: { row: number; col: number }; exit: { code: number | null; signal: string | null } | null } };

export async function runAttach(args: string[], globals: Globals): Promise<number> {
  const parsed = parseFlags(args, ATTACH_HELP.flags, "attach");
  if (parsed.positionals.length > 0 || parsed.rest) throw usage(`attach takes no arguments; got ${JSON.stringify(parsed.positionals[0] ?? "--")}`, "run `tuiwright help attach`");
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw usage("attach needs a terminal on stdin and stdout", "in scripts, read the screen with `tuiwright snapshot` or follow it with `tuiwright events`");
  }
  const write = parsed.flags.get("--write") === true;
  const rpc = await connectDaemon(daemonTarget(globals), { autoStart: false });
  const requested = globals.session ?? setting("session");
  const listed = (await rpc.call("list", {})) as { sessions: { name: string }[]; current: string | null };
  const session = requested ?? listed.current;
  if (!session || !listed.sessions.some((s) => s.name === session)) {
    rpc.close();
    throw new TuiwrightError("no-such-session", session ? `no session named ${JSON.stringify(session)}` : "there are no sessions to attach to");
  }
  const lease = write
    ? ((await rpc.call("lease.acquire", { session, owner: `tuiwright attach (pid ${process.pid})` })) as { token: string }).token
    : null;

  let finish!: (reason: string) => void;
  const finished = new Promise<string>((resolve) => { finish = resolve; });
  let dirty = true;
  let drawing = false;
  let ended = false;
  const status = () => `\x1b[7m tuiwright attach: ${session}${write ? " (writing: your keys go to it)" : " (read-only)"} · Ctrl-] detaches \x1b[0m`;

  const draw = async (): Promise<void> => {
    if (drawing) return;
    drawing = true;
    try {
      while (dirty && !ended) {
        dirty = false;
        const snap = (await rpc.call("snapshot", { session, format: "ansi", includeMeta: true })) as Snapshot;
        const rows = (snap.ansi ?? "").split("\n");
        const cursor = snap.meta?.cursor ?? { row: 0, col: 0 };
        const exited = snap.meta?.exit ? `\x1b[7m session ended: ${snap.meta.exit.signal ?? `exit code ${snap.meta.exit.code}`} · Ctrl-] detaches \x1b[0m` : null;
        const frame = `\x1b[H\x1b[2J${rows.join("\r\n")}\x1b[${(snap.meta?.rows ?? rows.length) + 1};1H${exited ?? status()}\x1b[${cursor.row + 1};${cursor.col + 1}H`;
        await writeRaw("stdout", frame);
      }
    } catch (error) {
      finish(`the session is gone: ${(error as Error).message}`);
    } finally {
      drawing = false;
    }
  };

  rpc.onNotification = (message) => {
    if (message.method !== "event") return;
    dirty = true;
    void draw();
  };
  void rpc.closed.then(() => finish("the daemon closed the connection"));
  await rpc.call("subscribe", { session, types: ["screen", "resize", "exit"], debounceMs: 16 });

  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  const onData = (chunk: Buffer) => {
    if (chunk.includes(DETACH) || (!write && chunk.includes(CTRL_C))) return finish("detached");
    if (!write) return;
    rpc.call("type", { session, text: chunk.toString("utf8"), raw: true, lease }).catch((error: Error) => finish(`input refused: ${error.message}`));
  };
  stdin.on("data", onData);
  await writeRaw("stdout", ENTER_ALT);
  await draw();

  const reason = await finished;
  ended = true;
  stdin.off("data", onData);
  stdin.setRawMode(false);
  stdin.pause();
  await writeRaw("stdout", LEAVE_ALT);
  rpc.close(); // releases the lease with the connection
  await writeRaw("stderr", `tuiwright: ${reason === "detached" ? `detached from ${session}` : reason}\n`);
  return reason === "detached" ? 0 : 69;
}
