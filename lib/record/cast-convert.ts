// `cast convert --to v2|v3`: asciicast v3 (intervals, what tuiwright records) to v2 (absolute
// times, what asciinema 2.x plays — Debian's asciinema refuses v3) and back. Output, input,
// resize and marker events carry over; v2 has no exit event, so `x` is dropped (and counted).
import { parseCast } from "./cast-reader.ts";

export type ConvertResult = { text: string; events: number; dropped: number };

type Header = Record<string, unknown>;

const round = (seconds: number) => Math.round(seconds * 1e6) / 1e6;

export function convertCast(text: string, file: string, to: 2 | 3): ConvertResult {
  const cast = parseCast(text, file); // validates every line, names the bad one
  const header = JSON.parse(text.slice(0, text.indexOf("\n") === -1 ? undefined : text.indexOf("\n"))) as Header;
  const env = (typeof header.env === "object" && header.env !== null ? { ...(header.env as Record<string, string>) } : {}) as Record<string, string>;
  const common = {
    ...(typeof header.timestamp === "number" ? { timestamp: header.timestamp } : {}),
    ...(typeof header.idle_time_limit === "number" ? { idle_time_limit: header.idle_time_limit } : {}),
    ...(cast.command ? { command: cast.command } : {}),
    ...(cast.title ? { title: cast.title } : {}),
  };
  let out: Header;
  if (to === 2) {
    const term = header.term as { type?: unknown } | undefined;
    if (typeof term?.type === "string" && env.TERM === undefined) env.TERM = term.type;
    out = { version: 2, width: cast.cols, height: cast.rows, ...common, ...(Object.keys(env).length > 0 ? { env } : {}) };
  } else {
    const type = env.TERM;
    delete env.TERM;
    out = { version: 3, term: { cols: cast.cols, rows: cast.rows, ...(type ? { type } : {}) }, ...common, ...(Object.keys(env).length > 0 ? { env } : {}) };
  }
  const lines = [JSON.stringify(out)];
  let dropped = 0;
  let previous = 0;
  for (const event of cast.events) {
    if (to === 2 && event.code === "x") { dropped++; continue; }
    const time = to === 2 ? round(event.time) : round(event.time - previous);
    previous = event.time;
    lines.push(JSON.stringify([time, event.code, event.data]));
  }
  return { text: `${lines.join("\n")}\n`, events: lines.length - 1, dropped };
}
