// Every CLI command that is not one daemon call (the verbs in verbs.ts are): each has the same
// shape — the words that name it and `run(args, globals) → exit code` — and is looked up here,
// not in an if-chain. Heavy ones load by path only when asked for (entries/), so the thin
// CLI's start-up stays free of valibot, xterm and the MCP SDK. `batch` runs daemon calls over
// its one connection; a batch line naming one of these is refused with the reason.
import { entryPoint } from "../runtime/self.ts";
import { startingUp } from "../runtime/startup-jit.ts";
import { runBatch } from "./batch-command.ts";
import { daemonTarget, type Globals, usage } from "./invocation.ts";
import { MCP_HELP } from "./command-help.ts";
import { parseFlags } from "./flags.ts";
import { selectTools } from "../protocol/mcp-profiles.ts";
import { printOut } from "../runtime/stdio.ts";
import { setting } from "../runtime/settings.ts";

export type LocalCommand = {
  /** The words that name it: "replay", "adapter test". */
  name: string;
  run(args: string[], globals: Globals): Promise<number>;
};

const commands = (): Promise<typeof import("../../entries/commands.ts")> => import(entryPoint("entries/commands.ts"));
const offline = (): Promise<typeof import("../../entries/replay.ts")> => import(entryPoint("entries/replay.ts"));
const desktop = (): Promise<typeof import("../../entries/desktop.ts")> => import(entryPoint("entries/desktop.ts"));

export const LOCAL_COMMANDS: LocalCommand[] = [
  // Through entries/commands.ts: their code (and `run`'s node:os) stays out of every other start.
  { name: "events", run: async (args, globals) => (await commands()).runEvents(args, globals) },
  { name: "casts", run: async (args, globals) => (await commands()).runCasts(args, globals) },
  { name: "run", run: async (args, globals) => (await commands()).runRun(args, globals) },
  { name: "batch", run: (args, globals) => runBatch(args, globals, (words) => findLocalCommand(words)?.command.name ?? null) },
  { name: "ask", run: async (args, globals) => (await commands()).runAsk(args, globals) },
  { name: "attach", run: async (args, globals) => (await commands()).runAttach(args, globals) },
  {
    name: "mcp",
    async run(args, globals) {
      const parsed = parseFlags(args, MCP_HELP.flags, "mcp");
      if (parsed.positionals.length > 0) throw usage(`mcp takes no arguments; got ${JSON.stringify(parsed.positionals[0])}`);
      const tools = (parsed.flags.get("--tools") as string | undefined) ?? setting("mcpTools");
      const selection = selectTools(tools, parsed.flags.has("--tools") ? "--tools" : "TUIWRIGHT_MCP_TOOLS", parsed.flags.has("--output-schemas")); // checked before anything starts
      startingUp(); // runMcp calls startedUp() at the client's first tool call
      const mcp: typeof import("../../entries/mcp.ts") = await import(entryPoint("entries/mcp.ts"));
      return mcp.runMcp(selection, globals.namespace);
    },
  },
  { name: "serve", run: async (args, globals) => ((await import(entryPoint("entries/serve.ts"))) as typeof import("../../entries/serve.ts")).runServeCommand(args, globals) },
  { name: "replay", run: async (args, globals) => (await offline()).runReplay(args, globals.mode) },
  { name: "report", run: async (args, globals) => (await offline()).runReport(args, globals.mode) },
  { name: "adapter test", run: async (args, globals) => (await offline()).runAdapterTest(args, globals.mode) },
  { name: "cast convert", run: async (args, globals) => (await offline()).runCastConvert(args, globals.mode) },
  { name: "desktop inspect", run: async (args, globals) => (await desktop()).runInspect(args, daemonTarget(globals)) },
  {
    name: "desktop new-app",
    async run(args, globals) {
      const made = await (await desktop()).runNewApp(args, globals.mode);
      await printOut(made.text);
      return made.code;
    },
  },
  // Loaded on demand: it reads TOML, which the thin CLI does not otherwise load.
  // Through entries/commands.ts: its TOML config reader (smol-toml) stays out of every other start.
  { name: "gc", run: async (args, globals) => (await commands()).runGc(args, globals) },
  { name: "doctor", run: async (args, globals) => ((await import(entryPoint("entries/doctor.ts"))) as typeof import("../../entries/doctor.ts")).runDoctor(args, globals) },
];

/** The local command these words name, and how many words its name takes. */
export function findLocalCommand(words: string[]): { command: LocalCommand; width: number } | null {
  for (const command of LOCAL_COMMANDS) {
    const width = widthNamed(command.name, words);
    if (width > 0) return { command, width };
  }
  return null;
}

/** How many of `words` the name ("replay", "adapter test") is, or 0 when they do not start with
 * it. String work only: every CLI start asks, and `every`'s first call costs it ~0.1 ms. */
function widthNamed(name: string, words: string[]): number {
  let start = 0;
  for (let i = 0; ; i++) {
    const end = name.indexOf(" ", start);
    if (words[i] !== (end === -1 ? name.slice(start) : name.slice(start, end))) return 0;
    if (end === -1) return i + 1;
    start = end + 1;
  }
}
