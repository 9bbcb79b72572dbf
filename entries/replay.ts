// Entry point of the offline tools, run in the CLI's own process (no daemon needed, as CI
// wants): `replay CAST …` and `adapter test MANIFEST --cast CAST …`. Its own entry point in
// the binary, so the thin CLI never loads xterm for other verbs.
import { existsSync, statSync } from "node:fs";
import { runReplaySuite, suiteLimits } from "./replay-suite.ts";
import { ManifestCatalog } from "../lib/adapters/catalog.ts";
import { loadManifest } from "../lib/adapters/load-manifest.ts";
import { manifestOutline } from "../lib/adapters/manifest-outline.ts";
import { outlineFor } from "../lib/adapters/outline-for.ts";
import { textWithoutPixels } from "../lib/terminal/pixels.ts";
import { parseFlags } from "../lib/cli/flags.ts";
import { ADAPTER_TEST_VERB, CAST_CONVERT_VERB, REPLAY_VERB, REPORT_VERB } from "../lib/cli/command-help.ts";
import { convertCast } from "../lib/record/cast-convert.ts";
import { compactOutline } from "../lib/outline/compact.ts";
import { assignRefs } from "../lib/outline/refs.ts";
import { TuiwrightError } from "../lib/protocol/errors.ts";
import { parseCast, streamCast } from "../lib/record/cast-reader.ts";
import { replay, type ReplayObserver, type ReplayResult } from "../lib/record/replay.ts";
import { SessionObservations } from "../lib/adapters/session-observations.ts";
import { compareSnapshot, formatSnapshotFile, MAX_SNAPSHOT_FILE_BYTES, parseSnapshotFile, type SnapshotFile } from "../lib/record/snapshot-file.ts";
import { printErr, printOut } from "../lib/runtime/stdio.ts";
import { readTrustedFile } from "../lib/runtime/trusted-file.ts";
import { writeOutputFile } from "../lib/runtime/output-file.ts";
import { renderReport } from "../lib/record/report.ts";
import { FAILED_MARKER } from "../lib/record/marker-label.ts";
import { isFactsMarker } from "../lib/record/fact-marker.ts";
import { recordedProcessFacts, type ProcessFacts } from "../lib/adapters/process-facts.ts";
import playerJs from "asciinema-player/dist/bundle/asciinema-player.min.js" with { type: "text" };
import playerCss from "asciinema-player/dist/bundle/asciinema-player.css" with { type: "text" };

type Mode = "human" | "plain" | "json";

function resolve(cwd: string, path: string): string {
  return path.startsWith("/") ? path : `${cwd.replace(/\/$/, "")}/${path}`;
}

/** A report embeds its cast whole: a cap keeps that bounded (replay streams instead). */
const MAX_CAST_BYTES = 256 << 20;

function readInput(path: string, what: string): string {
  return readTrustedFile(path, { what, maxBytes: MAX_CAST_BYTES, badName: what === "cast" ? "bad-cast" : "bad-data" }).toString("utf8");
}

/** The recorded input and its effects, as a live session observes them (the same
 * SessionObservations): a selection proven by a navigation key replays as it was seen live. */
function observing(observations: SessionObservations, command: string): ReplayObserver {
  const manifests = new ManifestCatalog().manifests();
  const argv = command.split(" ").filter(Boolean);
  return {
    input(data, screen, atMs) {
      // The outline a live session would have had just before: its manifest's forget rules and seen values.
      const before = outlineFor(screen.grid(), manifests, argv, null, { shellForeground: null, seenValues: observations.seenValues }, observations.observed(screen.revision));
      observations.remember(before.nodes);
      observations.sent(data, () => screen.grid(), atMs, manifests.find((m) => m.name === before.adapter) ?? null);
    },
    get waiting() { return observations.waiting; },
    changed: (screen, atMs) => observations.changed(screen.grid(), screen.revision, atMs),
  };
}

/** Streams the cast (any length; memory holds one line and one batch of output). */
async function replayFile(castPath: string, atMarker: string | undefined): Promise<{ result: ReplayResult; command: string; observations: SessionObservations }> {
  const cast = streamCast(castPath);
  const observations = new SessionObservations();
  try {
    const result = await replay(cast, castPath, atMarker, observing(observations, cast.command));
    return { result, command: cast.command, observations };
  } finally {
    cast.close();
  }
}

/** The screen's text as a live text snapshot shows it: without the glyphs that the manifest
 * fitting the recorded program marks as pixels (unless raw). */
function textOf(result: ReplayResult, command: string, raw: boolean, observations: SessionObservations): string {
  const text = result.screen.text();
  if (raw) return text;
  return textWithoutPixels(text, outlineOf(result, command, observations).pixels);
}

/** The outline where replay stopped, as the live session had it: the process facts the cast
 * recorded there (the foreground program, an integrated shell at its prompt) with their
 * evidence, and what the session observed (selections its keys proved, values shown). */
function outlineOf(result: ReplayResult, command: string, observations: SessionObservations): ReturnType<typeof outlineFor> {
  const facts = { ...processFactsOf(result), seenValues: observations.seenValues };
  return outlineFor(result.screen.grid(), new ManifestCatalog().manifests(), command.split(" ").filter(Boolean), result.facts?.foreground ?? null, facts, observations.observed(result.screen.revision));
}

function processFactsOf(result: ReplayResult): ProcessFacts {
  return recordedProcessFacts(result.facts?.shellPrompt, result.screen.revision);
}

function rowsOf(result: ReplayResult, command: string, raw: boolean, observations: SessionObservations): string[] {
  const text = textOf(result, command, raw, observations);
  return text === "" ? [] : text.split("\n");
}

function outlineLines(result: ReplayResult, command: string, observations: SessionObservations): string[] {
  return compactOutline(outlineOf(result, command, observations).nodes);
}

export async function runReplay(args: string[], mode: Mode): Promise<number> {
  const parsed = parseFlags(args, REPLAY_VERB.flags, "replay");
  if (parsed.positionals.length !== 1) throw new TuiwrightError("usage", "replay needs one cast file (or a folder of them)", { hint: "usage: tuiwright replay CAST [--at-marker N|LABEL] [--expect-snapshot FILE [--update]], or replay DIR --expect-snapshot GOLDENS" });
  const cwd = process.cwd();
  const castPath = resolve(cwd, parsed.positionals[0]!);
  const folderFlags = ["--jobs", "--retries", "--junit", "--annotations"].filter((flag) => parsed.flags.has(flag));
  if (existsSync(castPath) && statSync(castPath).isDirectory()) return replayFolder(parsed, castPath, cwd, mode);
  if (folderFlags.length > 0) throw new TuiwrightError("usage", `--jobs, --retries, --junit and --annotations go with a folder of casts; ${JSON.stringify(parsed.positionals[0])} is a file`);
  const format = (parsed.flags.get("--format") as string | undefined) ?? "text";
  if (!["text", "ansi", "cells", "outline"].includes(format)) throw new TuiwrightError("usage", `--format must be text, ansi, cells or outline, got ${JSON.stringify(format)}`);
  const expectPath = parsed.flags.get("--expect-snapshot") as string | undefined;
  if (!expectPath && (parsed.flags.has("--update") || parsed.flags.has("--mask") || parsed.flags.has("--outline"))) {
    throw new TuiwrightError("usage", "--update, --mask and --outline go with --expect-snapshot FILE");
  }
  const raw = parsed.flags.has("--raw");
  if (raw && format !== "text") throw new TuiwrightError("usage", "--raw goes with --format text");
  const { result, command, observations } = await replayFile(castPath, parsed.flags.get("--at-marker") as string | undefined);
  const { screen } = result;
  try {
    const where = result.stoppedAt ? `marker ${result.stoppedAt.number} ${JSON.stringify(result.stoppedAt.label)}` : "the end";
    if (expectPath) {
      const file = resolve(cwd, expectPath);
      const previous = existsSync(file) ? parseSnapshotFile(readTrustedFile(file, { what: "snapshot file", maxBytes: MAX_SNAPSHOT_FILE_BYTES }).toString("utf8"), expectPath) : null;
      const wantsOutline = parsed.flags.has("--outline") || (parsed.flags.has("--update") ? previous?.outline != null : false);
      const expected = parsed.flags.has("--update") ? null : previous ?? (() => { throw new TuiwrightError("no-such-file", `no snapshot file ${JSON.stringify(expectPath)}`, { hint: "create it with --update" }); })();
      const actual: SnapshotFile = {
        cols: screen.cols,
        rows: screen.rows,
        masks: expected?.masks ?? [...(previous?.masks ?? []), ...((parsed.flags.get("--mask") as string[] | undefined) ?? [])],
        screen: rowsOf(result, command, raw, observations),
        outline: (expected?.outline || wantsOutline) ? outlineLines(result, command, observations) : null,
      };
      if (!expected) {
        parseSnapshotFile(formatSnapshotFile(actual), expectPath); // validates the masks
        writeOutputFile(file, formatSnapshotFile(actual));
        await printOut(mode === "json" ? JSON.stringify({ updated: file, at: where }) : `updated ${expectPath} from ${where} of ${parsed.positionals[0]}`);
        return 0;
      }
      const diff = compareSnapshot(expected, actual, { expected: expectPath, actual: `replay of ${parsed.positionals[0]} at ${where}` });
      if (mode === "json") await printOut(JSON.stringify({ match: diff === "", diff, at: where }));
      else if (diff) await printOut(diff);
      if (!diff) {
        if (mode !== "json") await printOut(`ok: ${parsed.positionals[0]} matches ${expectPath} at ${where}`);
        return 0;
      }
      await printErr(`tuiwright: the replay differs from ${expectPath} (diff above)\nhint: if the change is intended, rerun with --update`);
      return 1;
    }
    let body: string;
    if (format === "text") body = textOf(result, command, raw, observations);
    else if (format === "ansi") body = screen.ansi();
    else if (format === "cells") body = screen.cells().map((row) => JSON.stringify(row)).join("\n");
    else body = outlineLines(result, command, observations).join("\n");
    if (mode === "json") {
      // The outline as nodes (with refs, boxes and evidence), as a live snapshot --json gives it.
      const value = format === "cells" ? screen.cells() : format === "outline" ? (({ adapter, nodes }) => ({ revision: screen.revision, adapter, nodes }))(outlineOf(result, command, observations)) : body;
      await printOut(JSON.stringify({ cast: castPath, cols: screen.cols, rows: screen.rows, markers: result.markers, stoppedAt: result.stoppedAt, exitStatus: result.exitStatus, facts: result.facts, format, [format]: value }));
    } else {
      await printOut(body);
    }
    return 0;
  } finally {
    screen.dispose();
  }
}

/** `replay DIR --expect-snapshot GOLDENS …`: the checks of entries/replay-suite.ts. */
async function replayFolder(parsed: ReturnType<typeof parseFlags>, dir: string, cwd: string, mode: Mode): Promise<number> {
  const goldens = parsed.flags.get("--expect-snapshot") as string | undefined;
  if (!goldens) throw new TuiwrightError("usage", "a folder of casts needs --expect-snapshot DIR (the goldens: DIR/NAME.snap for each NAME.cast)");
  if (parsed.flags.has("--format")) throw new TuiwrightError("usage", "--format goes with one cast; a folder is checked against its goldens");
  const { jobs, retries, annotations } = suiteLimits(parsed.flags.get("--jobs"), parsed.flags.get("--retries"), parsed.flags.get("--annotations"));
  const passOn: string[] = [];
  const marker = parsed.flags.get("--at-marker") as string | undefined;
  if (marker !== undefined) passOn.push("--at-marker", marker);
  for (const flag of ["--raw", "--update", "--outline"]) if (parsed.flags.has(flag)) passOn.push(flag);
  for (const mask of (parsed.flags.get("--mask") as string[] | undefined) ?? []) passOn.push("--mask", mask);
  const junit = parsed.flags.get("--junit") as string | undefined;
  return runReplaySuite({
    dir, goldens: resolve(cwd, goldens), jobs, retries, annotations, passOn, update: parsed.flags.has("--update"), mode,
    junit: junit === undefined ? undefined : resolve(cwd, junit),
  });
}

export async function runAdapterTest(args: string[], mode: Mode): Promise<number> {
  const parsed = parseFlags(args, ADAPTER_TEST_VERB.flags, "adapter test");
  if (parsed.positionals.length !== 1 || !parsed.flags.has("--cast")) {
    throw new TuiwrightError("usage", "adapter test needs a manifest and --cast CAST", { hint: "usage: tuiwright adapter test MANIFEST --cast CAST [--expect-outline FILE [--update]]" });
  }
  const cwd = process.cwd();
  const manifestPath = parsed.positionals[0]!;
  const manifest = loadManifest(readInput(resolve(cwd, manifestPath), "manifest"), manifestPath);
  const { result } = await replayFile(resolve(cwd, parsed.flags.get("--cast") as string), parsed.flags.get("--at-marker") as string | undefined);
  try {
    const lines = compactOutline(assignRefs(manifestOutline(manifest, result.screen.grid(), processFactsOf(result))));
    const expectPath = parsed.flags.get("--expect-outline") as string | undefined;
    if (!expectPath) {
      await printOut(mode === "json" ? JSON.stringify({ adapter: manifest.name, outline: lines }) : lines.join("\n"));
      return 0;
    }
    const file = resolve(cwd, expectPath);
    if (parsed.flags.has("--update")) {
      writeOutputFile(file, `${lines.join("\n")}\n`);
      await printOut(`updated ${expectPath}`);
      return 0;
    }
    const expected = readInput(file, "outline file").replace(/\n$/, "").split("\n");
    const diff: string[] = [];
    for (let i = 0; i < Math.max(expected.length, lines.length); i++) {
      if (expected[i] === lines[i]) continue;
      diff.push(`@@ line ${i + 1} @@`);
      if (expected[i] !== undefined) diff.push(`-${expected[i]}`);
      if (lines[i] !== undefined) diff.push(`+${lines[i]}`);
    }
    if (diff.length === 0) {
      await printOut(`ok: ${manifestPath} gives ${expectPath}`);
      return 0;
    }
    await printOut([`--- ${expectPath}`, `+++ ${manifestPath} on ${parsed.flags.get("--cast")}`, ...diff].join("\n"));
    await printErr(`tuiwright: the outline differs from ${expectPath} (diff above)`);
    return 1;
  } finally {
    result.screen.dispose();
  }
}

export async function runReport(args: string[], mode: Mode): Promise<number> {
  // -o is the one short flag, as in `report CAST -o out.html`.
  const parsed = parseFlags(args.map((arg) => (arg === "-o" ? "--out" : arg)), REPORT_VERB.flags, "report");
  if (parsed.positionals.length !== 1 || !parsed.flags.has("--out")) {
    throw new TuiwrightError("usage", "report needs a cast and -o FILE", { hint: "usage: tuiwright report CAST -o out.html [--title TITLE]" });
  }
  const cwd = process.cwd();
  const castPath = resolve(cwd, parsed.positionals[0]!);
  const text = readInput(castPath, "cast");
  const cast = parseCast(text, castPath);
  const out = resolve(cwd, String(parsed.flags.get("--out")));
  const title = (parsed.flags.get("--title") as string | undefined) ?? castPath.slice(castPath.lastIndexOf("/") + 1);
  const idleText = parsed.flags.get("--idle-limit") as string | undefined;
  const idleLimit = idleText === undefined ? undefined : Number(idleText);
  if (idleLimit !== undefined && (!/^\d+(\.\d+)?$/.test(idleText!) || !(idleLimit > 0))) {
    throw new TuiwrightError("usage", `--idle-limit needs a number of seconds > 0, e.g. 2 or 0.5; got ${JSON.stringify(idleText)}`, { hint: "run `tuiwright help report`" });
  }
  const html = renderReport(text, cast, title, { playerJs, playerCss }, idleLimit === undefined ? {} : { idleLimit });
  writeOutputFile(out, html);
  const markers = cast.events.filter((e) => e.code === "m" && !isFactsMarker(e.data)).length;
  const failedWaits = cast.events.filter((e) => e.code === "m" && e.data.startsWith(FAILED_MARKER)).length;
  await printOut(mode === "json"
    ? JSON.stringify({ report: out, bytes: html.length, markers, failedWaits })
    : `wrote ${out} (${markers} marker(s)${failedWaits > 0 ? `, ${failedWaits} failed wait(s)` : ""}, ${(html.length / 1024).toFixed(0)} KiB)`);
  return 0;
}

/** `cast convert --to v2|v3 IN OUT`: OUT is created exclusively (an existing file is an error). */
export async function runCastConvert(args: string[], mode: Mode): Promise<number> {
  const parsed = parseFlags(args, CAST_CONVERT_VERB.flags, "cast convert");
  const to = parsed.flags.get("--to") as string | undefined;
  if (!to || parsed.positionals.length !== 2) {
    throw new TuiwrightError("usage", !to ? "cast convert needs --to v2 or --to v3" : `cast convert needs IN and OUT; got ${parsed.positionals.length} argument(s)`, { hint: "usage: tuiwright cast convert --to v2|v3 IN OUT" });
  }
  const cwd = process.cwd();
  const input = resolve(cwd, parsed.positionals[0]!);
  const converted = convertCast(readInput(input, "cast"), input, to === "v2" ? 2 : 3);
  const outArg = parsed.positionals[1]!;
  if (outArg === "-") {
    await printOut(converted.text.replace(/\n$/, ""));
    return 0;
  }
  const out = resolve(cwd, outArg);
  try {
    writeOutputFile(out, converted.text, { replace: false });
  } catch (error) {
    if (error instanceof TuiwrightError && error.details.exists) throw new TuiwrightError("usage", `${out} exists; converting never overwrites`, { hint: "remove it or give another OUT" });
    throw error;
  }
  await printOut(mode === "json"
    ? JSON.stringify({ out, version: to, events: converted.events, droppedExitEvents: converted.dropped })
    : `wrote ${out} (asciicast ${to}, ${converted.events} event(s)${converted.dropped > 0 ? `; the exit event is not in ${to}` : ""})`);
  return 0;
}
