// Replaying a cast into a fresh headless screen of the recorded size: output is fed in order
// (batched into large writes), resizes are honoured, nothing is answered back, and it can stop
// at a marker (by 1-based number or by label). The process facts the cast recorded
// (fact-marker.ts) are no markers here: the last ones before the stop come with the screen.
import { TuiwrightError } from "../protocol/errors.ts";
import { Screen } from "../terminal/screen.ts";
import { SIZE_RANGE, sizeFits } from "../protocol/size-limits.ts";
import type { CastStream } from "./cast-reader.ts";
import { isFactsMarker, parseFactsLabel, type RecordedFacts } from "./fact-marker.ts";

export type ReplayResult = {
  screen: Screen;
  markers: string[];
  /** The marker replay stopped at, if one was asked for. */
  stoppedAt: { number: number; label: string; time: number } | null;
  exitStatus: string | null;
  /** The process facts in effect where replay stopped; null: the cast recorded none. */
  facts: RecordedFacts | null;
};

const BATCH_CHARS = 1 << 16;

/** Who wants to see the session's input and each change it caused (behavioural evidence). */
export type ReplayObserver = {
  /** An `i` event: input the recorded session sent, with the screen as it was then (time in ms). */
  input(data: string, screen: Screen, atMs: number): void;
  /** While true, every output event is parsed on its own and reported to `changed`. */
  readonly waiting: boolean;
  changed(screen: Screen, atMs: number): void;
};

export async function replay(cast: CastStream, file: string, atMarker?: string, observer?: ReplayObserver): Promise<ReplayResult> {
  // The width rules the cast was recorded under: a cast replays as it was seen.
  const screen = new Screen({ cols: cast.cols, rows: cast.rows, scrollback: 1000, widths: cast.widths });
  const markers: string[] = [];
  let pending = "";
  let exitStatus: string | null = null;
  let facts: RecordedFacts | null = null;
  const flush = async () => {
    if (pending) await screen.write(pending);
    pending = "";
  };
  for (const event of cast.events) {
    switch (event.code) {
      case "o":
        pending += event.data;
        if (observer?.waiting) {
          await flush();
          screen.sync();
          observer.changed(screen, event.time * 1000);
        } else if (pending.length >= BATCH_CHARS) await flush();
        break;
      case "i":
        if (observer) {
          await flush();
          screen.sync();
          observer.input(event.data, screen, event.time * 1000);
        }
        break;
      case "r": {
        const size = /^(\d+)x(\d+)$/.exec(event.data);
        if (!size || Number(size[1]) < 2 || Number(size[2]) < 1) {
          throw new TuiwrightError("bad-cast", `${file}:${event.line}: a resize event needs "COLSxROWS", got ${JSON.stringify(event.data)}`);
        }
        if (!sizeFits(Number(size[1]), Number(size[2]))) {
          throw new TuiwrightError("bad-cast", `${file}:${event.line}: resize to ${event.data} is out of range (${SIZE_RANGE})`);
        }
        await flush();
        screen.resize(Number(size[1]), Number(size[2]));
        break;
      }
      case "m":
        if (isFactsMarker(event.data)) {
          facts = parseFactsLabel(event.data, file, event.line);
          break;
        }
        markers.push(event.data);
        if (atMarker !== undefined && (atMarker === String(markers.length) || atMarker === event.data)) {
          await flush();
          screen.sync();
          return { screen, markers, stoppedAt: { number: markers.length, label: event.data, time: event.time }, exitStatus, facts };
        }
        break;
      case "x":
        exitStatus = event.data;
        break;
      default: // unknown codes change nothing on screen
        break;
    }
  }
  await flush();
  screen.sync();
  if (atMarker !== undefined) {
    screen.dispose();
    throw new TuiwrightError("bad-data", `${file} has no marker ${JSON.stringify(atMarker)} (it has ${markers.length}${markers.length ? `: ${markers.slice(0, 5).map((m, i) => `${i + 1} ${JSON.stringify(m)}`).join(", ")}${markers.length > 5 ? ", …" : ""}` : ""})`, {
      hint: "give a marker's number (1 = the first) or its exact label",
    });
  }
  return { screen, markers, stoppedAt: null, exitStatus, facts };
}
