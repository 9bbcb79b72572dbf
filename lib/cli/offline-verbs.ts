// The offline tools' verbs (replay, report, adapter test) as plain data: the thin CLI shows
// their help, and entries/replay.ts parses their flags, from this one definition.
import type { FlagSpec } from "./flags.ts";

export type OfflineVerb = { name: string; summary: string; usage: string; flags: FlagSpec[] };

export const REPLAY_VERB: OfflineVerb = {
  name: "replay",
  summary: "replay a cast (v3 or v2) into a fresh screen and print it, or check it against a snapshot file (exit 1 + diff)",
  usage: "replay CAST [--at-marker N|LABEL] [--format text|ansi|cells|outline] [--raw] [--expect-snapshot FILE [--update [--mask RE]... [--outline]]]",
  flags: [
    { name: "--at-marker", type: "string", value: "N|LABEL", description: "stop at the Nth marker (1-based) or the first with this label" },
    { name: "--format", type: "string", value: "FMT", description: "text (default), ansi, cells or outline", default: "text", choices: ["text", "ansi", "cells", "outline"] },
    { name: "--raw", type: "bool", description: "text: keep the glyphs a manifest marks as pixels (a browser page's ▄ half-blocks), as snapshot --raw" },
    { name: "--expect-snapshot", type: "string", value: "FILE", description: "compare with a snapshot file: exit 0, or 1 with a diff" },
    { name: "--update", type: "bool", description: "with --expect-snapshot: write FILE from this replay instead" },
    { name: "--mask", type: "list", value: "RE", description: "with --update: blank RE's matches on both sides (clocks, pids)" },
    { name: "--outline", type: "bool", description: "with --update: include the outline in FILE (then it is compared too)" },
  ],
};

export const REPORT_VERB: OfflineVerb = {
  name: "report",
  summary: "write one self-contained HTML page that plays a cast, with its markers listed (click to seek)",
  usage: "report CAST -o FILE [--title TITLE] [--idle-limit S]",
  flags: [
    { name: "--out", aliases: ["-o"], type: "string", value: "FILE", description: "the HTML file to write" },
    { name: "--idle-limit", type: "string", value: "S", description: "play pauses longer than S seconds as S seconds (e.g. 2 or 0.5)" },
    { name: "--title", type: "string", value: "TITLE", description: "the page title (default: the cast's file name)" },
  ],
};

export const ADAPTER_TEST_VERB: OfflineVerb = {
  name: "adapter test",
  summary: "run a manifest against a recording and print (or check) the outline it gives",
  usage: "adapter test MANIFEST --cast CAST [--at-marker N|LABEL] [--expect-outline FILE [--update]]",
  flags: [
    { name: "--cast", type: "string", value: "CAST", description: "the recording" },
    { name: "--at-marker", type: "string", value: "N|LABEL", description: "stop at a marker first" },
    { name: "--expect-outline", type: "string", value: "FILE", description: "compare with a compact outline file: exit 0, or 1 with a diff" },
    { name: "--update", type: "bool", description: "with --expect-outline: write FILE instead" },
  ],
};

export const CAST_CONVERT_VERB: OfflineVerb = {
  name: "cast convert",
  summary: "convert a recording between asciicast v3 and v2 (asciinema 2.x plays only v2); OUT is created, never overwritten (- for stdout)",
  usage: "cast convert --to v2|v3 IN OUT",
  flags: [
    { name: "--to", type: "string", value: "VERSION", description: "v2 or v3", choices: ["v2", "v3"] },
  ],
};
