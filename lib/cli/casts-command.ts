// `tuiwright casts [--session S]`: the recordings in the namespace's state directory, newest
// first. Read straight from disk, so it works after the daemon is gone.
import { readdirSync, readSync, openSync, closeSync, statSync } from "node:fs";
import { stateLocation } from "../runtime/paths.ts";
import { ownedDirExists } from "../runtime/owned-dir.ts";
import { printOut } from "../runtime/stdio.ts";
import { CASTS_HELP } from "./command-help.ts";
import { parseFlags } from "./flags.ts";
import { daemonTarget, type Globals, usage } from "./invocation.ts";
import { setting } from "../runtime/settings.ts";

type CastInfo = { path: string; session: string; started: string | null; bytes: number; command: string };

function header(path: string): { timestamp?: number; command?: string } {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(4096);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const first = buffer.subarray(0, length).toString("utf8").split("\n")[0]!;
    return JSON.parse(first);
  } catch {
    return {};
  } finally {
    closeSync(fd);
  }
}

export async function runCasts(args: string[], globals: Globals): Promise<number> {
  const parsed = parseFlags(args, CASTS_HELP.flags, "casts");
  if (parsed.positionals.length > 0) throw usage(`casts takes no arguments; got ${JSON.stringify(parsed.positionals[0])}`);
  const state = stateLocation(daemonTarget(globals).namespace);
  const dir = `${state.path}/casts`;
  const session = globals.session ?? setting("session");
  let names: string[] = [];
  if (ownedDirExists({ base: state.base, path: dir }, "state directory")) {
    try { names = readdirSync(dir).filter((n) => n.endsWith(".cast")); } catch { /* none yet */ }
  }
  const casts: CastInfo[] = names
    .map((name) => {
      const path = `${dir}/${name}`;
      const h = header(path);
      return {
        path,
        session: name.replace(/-\d{8}T\d+Z\.cast$/, ""),
        started: typeof h.timestamp === "number" ? new Date(h.timestamp * 1000).toISOString() : null,
        bytes: statSync(path).size,
        command: typeof h.command === "string" ? h.command : "",
      };
    })
    .filter((c) => session === undefined || c.session === session)
    .sort((a, b) => b.path.localeCompare(a.path));
  if (globals.mode === "json") await printOut(JSON.stringify({ dir, casts }));
  else if (globals.mode === "plain") await printOut(casts.map((c) => c.path).join("\n"));
  else await printOut(casts.length === 0 ? `no recordings in ${dir}` : casts.map((c) => `${c.path}  ${c.bytes} bytes  ${c.started ?? "?"}  ${c.command}`).join("\n"));
  return 0;
}
