// Replays a truth cast and stops at each `truth:` marker with what the outline may use there:
// the screen, the keys this session sent before it (`i` events, with the screen revision
// they were sent at — behavioural evidence rests on them) and the outline computed as a live
// session computes it (lib/adapters/outline-for.ts with the built-in manifests).
//
// lib/record/replay.ts stops at one marker and drops `i` events; the corpus needs every
// marker of a cast in one pass and the input, so this loop is its own (kept minimal: output,
// resizes, input, markers). Recorded process facts (`tuiwright:facts` markers) are no markers
// here either: the last ones apply to the outline from there on, as in `tuiwright replay`.
import { readFileSync } from "node:fs";
import { BUILTIN_MANIFESTS } from "../../lib/adapters/builtins.ts";
import { loadManifest, type CompiledManifest } from "../../lib/adapters/load-manifest.ts";
import { parseCast } from "../../lib/record/cast-reader.ts";
import { isFactsMarker, parseFactsLabel, type RecordedFacts } from "../../lib/record/fact-marker.ts";
import type { Screen } from "../../lib/terminal/screen.ts";
import { Screen as HeadlessScreen } from "../../lib/terminal/screen.ts";
import type { OutlineNode } from "../../lib/outline/types.ts";
import { MARK_PREFIX } from "./scenarios.ts";
import { outlineAt, sentInput } from "./outline-at.ts";
import { SessionObservations } from "../../lib/adapters/session-observations.ts";

export type SentInput = { data: string; time: number; revision: number };
export type TruthState = {
  /** The marker's name without the `truth:` prefix. */
  marker: string;
  screen: Screen;
  inputs: SentInput[];
  adapter: string | null;
  nodes: OutlineNode[];
};

let manifests: CompiledManifest[] | null = null;
export function builtinManifests(): CompiledManifest[] {
  manifests ??= BUILTIN_MANIFESTS.map(({ file, source }) => loadManifest(source, file));
  return manifests;
}

/** Calls `visit` at every `truth:` marker of the cast, in order (the screen is valid only
 * during the call). The outline is computed at every marker (the recorder's own, one per
 * action, too), as a live session computes it whenever a caller looks. */
export async function replayStates(castPath: string, visit: (state: TruthState) => void | Promise<void>): Promise<void> {
  const cast = parseCast(readFileSync(castPath, "utf8"), castPath);
  const argv = cast.command.split(" ").filter(Boolean);
  const screen = new HeadlessScreen({ cols: cast.cols, rows: cast.rows, scrollback: 1000 });
  const history = new SessionObservations();
  const inputs: SentInput[] = [];
  let facts: RecordedFacts | null = null;
  let pending = "";
  const flush = async () => {
    if (pending) await screen.write(pending);
    pending = "";
    screen.sync();
  };
  try {
    for (const event of cast.events) {
      if (event.code === "o") {
        pending += event.data;
        // A key waiting for its effect sees every output event, as a live session sees every write.
        if (history.waiting) {
          await flush();
          history.changed(screen.grid(), screen.revision, event.time * 1000);
        }
      } else if (event.code === "r") {
        await flush();
        const [cols, rows] = event.data.split("x").map(Number);
        screen.resize(cols!, rows!);
      } else if (event.code === "i") {
        await flush();
        inputs.push({ data: event.data, time: event.time, revision: screen.revision });
        sentInput(screen, argv, event.data, event.time * 1000, history, builtinManifests());
      } else if (event.code === "m" && isFactsMarker(event.data)) {
        facts = parseFactsLabel(event.data, castPath, event.line);
      } else if (event.code === "m") {
        await flush();
        const { adapter, nodes } = outlineAt(screen, argv, inputs, history, builtinManifests(), facts);
        if (event.data.startsWith(MARK_PREFIX)) {
          await visit({ marker: event.data.slice(MARK_PREFIX.length), screen, inputs: [...inputs], adapter, nodes });
        }
      }
    }
  } finally {
    screen.dispose();
  }
}
